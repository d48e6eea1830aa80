/// Numbers written as people write them in data: "6", "1.5", "7.5", "0.25" — no trailing zeros,
/// a point as decimal separator (coefficients, awards, values quoted in error messages).
public enum NumberText {
    /// Up to two decimals without trailing zeros; other values as Swift prints them.
    public static func compact(_ value: Double) -> String {
        // Values whose hundredths `whole` refuses (not finite, 10^13 and beyond) or that need
        // more than two decimals are written as Swift prints them.
        guard let hundredths = whole(value * 100), abs(value * 100 - Double(hundredths)) <= 1e-6 else { return "\(value)" }
        let integer = hundredths / 100, rest = abs(hundredths % 100)
        let sign = value < 0 && integer == 0 ? "-" : ""
        if rest == 0 { return sign + "\(integer)" }
        return sign + "\(integer)." + (rest % 10 == 0 ? "\(rest / 10)" : (rest < 10 ? "0\(rest)" : "\(rest)"))
    }

    /// `value` rounded to a whole number by `rule`, or nil when it is not finite or so large
    /// (10^15 and beyond) that it is no longer a count anyone reads: formatting code shows "—"
    /// then instead of trapping on a conversion to `Int`.
    public static func whole(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        return Int(value.rounded(rule))
    }
}
