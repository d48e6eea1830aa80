import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Dates as people read them in lists, in the local time zone, without ICU.
public enum LocalTime {
    /// "2026-11-21 07:10"
    public static func minutes(_ date: Date) -> String {
        let p = parts(date)
        return "\(pad(p.tm_year + 1900, 4))-\(pad(p.tm_mon + 1, 2))-\(pad(p.tm_mday, 2)) \(pad(p.tm_hour, 2)):\(pad(p.tm_min, 2))"
    }

    /// "20261121-071005", for file names.
    public static func compact(_ date: Date) -> String {
        let p = parts(date)
        return pad(p.tm_year + 1900, 4) + pad(p.tm_mon + 1, 2) + pad(p.tm_mday, 2) + "-"
            + pad(p.tm_hour, 2) + pad(p.tm_min, 2) + pad(p.tm_sec, 2)
    }

    static func parts(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970)
        var result = tm()
        localtime_r(&seconds, &result)
        return result
    }

    static func pad(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension LocalTime {
    /// Seconds since 1970 of a local date and time "2026-12-05T10:00" (or with a space, or
    /// with seconds), in the local time zone; nil when it is not one.
    public static func parse(_ text: String) -> Double? {
        let parts = text.trimmingSpaces.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-").compactMap { Int32($0) }
        let time = parts[1].split(separator: ":").compactMap { Int32($0) }
        guard date.count == 3, (2...3).contains(time.count), (1...12).contains(date[1]), (1...31).contains(date[2]),
              (0...23).contains(time[0]), (0...59).contains(time[1]) else { return nil }
        var fields = tm()
        fields.tm_year = date[0] - 1900
        fields.tm_mon = date[1] - 1
        fields.tm_mday = date[2]
        fields.tm_hour = time[0]
        fields.tm_min = time[1]
        fields.tm_sec = time.count == 3 ? time[2] : 0
        fields.tm_isdst = -1
        let seconds = mktime(&fields)
        // 31 February is refused, and so is a time that a daylight-saving change skips.
        guard seconds != -1, fields.tm_mday == date[2], fields.tm_hour == time[0], fields.tm_min == time[1] else { return nil }
        return Double(seconds)
    }
}

extension LocalTime {
    /// Local midnight to the next local midnight around `seconds` (since 1970).
    public static func dayRange(containing seconds: Double) -> Range<Double> {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        parts.tm_hour = 0; parts.tm_min = 0; parts.tm_sec = 0; parts.tm_isdst = -1
        let start = Double(mktime(&parts))
        parts.tm_mday += 1; parts.tm_isdst = -1
        return start..<Double(mktime(&parts))
    }
}
