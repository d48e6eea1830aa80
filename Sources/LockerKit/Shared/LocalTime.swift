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
