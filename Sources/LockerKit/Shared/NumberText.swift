/// Numbers written as people write them in data: "6", "1.5", "7.5", "0.25" — no trailing zeros,
/// a point as decimal separator (coefficients, awards, values quoted in error messages).
public enum NumberText {
    /// Up to two decimals without trailing zeros; other values as Swift prints them.
    public static func compact(_ value: Double) -> String {
        // From 10^13 on, the hundredths (10^15) stop being exact in the integer arithmetic below,
        // and past Int.max they would trap: such values are written as Swift prints them.
        guard value.isFinite, abs(value) < 1e13 else { return "\(value)" }
        let hundredths = (value * 100).rounded()
        if abs(value * 100 - hundredths) > 1e-6 { return "\(value)" }
        let whole = Int(hundredths) / 100, rest = abs(Int(hundredths) % 100)
        let sign = value < 0 && whole == 0 ? "-" : ""
        if rest == 0 { return sign + "\(whole)" }
        return sign + "\(whole)." + (rest % 10 == 0 ? "\(rest / 10)" : (rest < 10 ? "0\(rest)" : "\(rest)"))
    }

    /// `value` rounded to a whole number by `rule`, or nil when it is not finite or so large
    /// (10^15 and beyond) that it is no longer a count anyone reads: formatting code shows "—"
    /// then instead of trapping on a conversion to `Int`.
    public static func whole(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        return Int(value.rounded(rule))
    }
}
