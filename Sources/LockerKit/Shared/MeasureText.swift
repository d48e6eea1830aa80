import FoundationEssentials

/// Figures every tab writes the same way: distances, decimals with the language's separator,
/// local dates and times.
public enum MeasureText {
    /// "12.59 km" (or "850 m" below 1 km).
    public static func distance(_ meters: Double, _ l: Localizer) -> String {
        guard meters.isFinite else { return "—" }
        if meters < 1000 { return l.t("{value} m", ["value": NumberText.whole(meters).map(String.init) ?? "—"]) }
        return l.t("{value} km", ["value": decimals(meters / 1000, 2, l)])
    }

    /// The language's decimal separator ("," in fr, es and it).
    public static func decimalSeparator(_ l: Localizer) -> String { l.t(".", context: "decimal separator") }

    /// A number the code wrote with a point ("1.5"), with the language's separator instead.
    public static func withDecimalSeparator(_ text: String, _ l: Localizer) -> String {
        let separator = decimalSeparator(l)
        guard separator != ".", text.utf8.contains(UInt8(ascii: ".")) else { return text }
        return text.split(separator: ".", omittingEmptySubsequences: false).joined(separator: separator)
    }

    /// A number with `places` decimals and the language's decimal separator.
    public static func decimals(_ value: Double, _ places: Int, _ l: Localizer) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        guard let scaled = NumberText.whole(abs(value) * scale) else { return "—" }
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
        if places > 0 {
            let digits = String(fraction)
            text += decimalSeparator(l) + String(repeating: "0", count: places - digits.count) + digits
        }
        return text
    }

    /// Local date and time of seconds since 1970: "2026-05-01 06:30".
    public static func dateTime(_ seconds: Double?) -> String {
        guard let seconds else { return "—" }
        return LocalTime.minutes(Date(timeIntervalSince1970: seconds))
    }
}
