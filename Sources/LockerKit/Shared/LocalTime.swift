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

    public static func pad(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
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
