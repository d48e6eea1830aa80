import FoundationEssentials

/// Workout figures as text: durations, distances, paces, heart rates.
public enum WorkoutText {
    /// "1:23:45" or "23:45"; nil → "—".
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds >= 0, let total = NumberText.whole(seconds) else { return "—" }
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// "12.59 km" (or "850 m" below 1 km).
    public static func distance(_ meters: Double, _ l: Localizer) -> String {
        guard meters.isFinite else { return "—" }
        if meters < 1000 { return l.t("{value} m", ["value": NumberText.whole(meters).map(String.init) ?? "—"]) }
        return l.t("{value} km", ["value": decimals(meters / 1000, 2, l)])
    }

    /// "5:12 /km".
    public static func pace(_ secondsPerKilometre: Double?, _ l: Localizer) -> String {
        guard let p = secondsPerKilometre, p.isFinite, p > 0, p < 3600 else { return "—" }
        return l.t("{value} /km", ["value": duration(p)])
    }

    /// "11.5 km/h".
    public static func speed(_ kmh: Double?, _ l: Localizer) -> String {
        guard let kmh, kmh.isFinite else { return "—" }
        return l.t("{value} km/h", ["value": decimals(kmh, 1, l)])
    }

    public static func bpm(_ value: Double?) -> String {
        guard let value, let whole = NumberText.whole(value) else { return "—" }
        return String(whole)
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
            text += l.t(".", context: "decimal separator") + String(repeating: "0", count: places - digits.count) + digits
        }
        return text
    }

    /// Local date and time of seconds since 1970: "2026-05-01 06:30".
    public static func dateTime(_ seconds: Double?) -> String {
        guard let seconds else { return "—" }
        return LocalTime.minutes(Date(timeIntervalSince1970: seconds))
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A workout's sport in the interface language: the FIT profile's names and the usual GPX/TCX
/// types are translated; anything else the file says is shown as it is, made inert.
public enum SportText {
    public static func name(_ kind: String?, _ l: Localizer) -> String? {
        guard let kind = kind?.trimmingSpaces, !kind.isEmpty else { return nil }
        switch kind.lowercased() {
        case "running", "run": return l.t("Running", context: "sport")
        case "cycling", "biking", "ride", "bike": return l.t("Cycling", context: "sport")
        case "swimming", "swim": return l.t("Swimming", context: "sport")
        case "walking", "walk": return l.t("Walking", context: "sport")
        case "hiking", "hike": return l.t("Hiking", context: "sport")
        case "rowing": return l.t("Rowing", context: "sport")
        case "training", "fitness_equipment": return l.t("Training", context: "sport")
        case "cross_country_skiing": return l.t("Cross-country skiing", context: "sport")
        case "e_biking": return l.t("E-biking", context: "sport")
        case "multisport", "transition": return l.t("Multisport", context: "sport")
        case "other", "generic": return nil
        default: return TerminalText.inert(String(kind.map { $0 == "_" ? " " : $0 }))
        }
    }
}
