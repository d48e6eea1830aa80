/// Numbers written as people write them in data: "6", "1.5", "7.5", "0.25" — no trailing zeros,
/// a point as decimal separator (coefficients, awards, values quoted in error messages).
public enum NumberText {
    /// Up to two decimals without trailing zeros; other values as Swift prints them.
    public static func compact(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let hundredths = (value * 100).rounded()
        if abs(value * 100 - hundredths) > 1e-6 { return "\(value)" }
        let whole = Int(hundredths) / 100, rest = abs(Int(hundredths) % 100)
        let sign = value < 0 && whole == 0 ? "-" : ""
        if rest == 0 { return sign + "\(whole)" }
        return sign + "\(whole)." + (rest % 10 == 0 ? "\(rest / 10)" : (rest < 10 ? "0\(rest)" : "\(rest)"))
    }
}
