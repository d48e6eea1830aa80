import FoundationEssentials

/// Workout figures as text: durations, paces, speeds, heart rates (distances and dates are
/// `MeasureText`'s, shared with the other tabs).
public enum WorkoutText {
    /// "1:23:45" or "23:45"; nil → "—".
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds >= 0, let total = NumberText.whole(seconds) else { return "—" }
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// "5:12 /km", or for a swim (`sport` swimming) the swimmer's measure, "1:52 /100 m".
    public static func pace(_ secondsPerKilometre: Double?, sport: String? = nil, _ l: Localizer) -> String {
        guard let p = secondsPerKilometre, p.isFinite, p > 0, p < 3600 else { return "—" }
        if isSwim(sport) { return l.t("{value} /100 m", ["value": duration(p / 10)]) }
        return l.t("{value} /km", ["value": duration(p)])
    }

    /// Whether a file's sport is swimming (pool or open water).
    public static func isSwim(_ sport: String?) -> Bool {
        guard let sport = sport?.lowercased() else { return false }
        return sport == "swim" || sport.hasPrefix("swimming") || sport.contains("_swim") || sport == "open_water"
    }

    /// "11.5 km/h".
    public static func speed(_ kmh: Double?, _ l: Localizer) -> String {
        guard let kmh, kmh.isFinite else { return "—" }
        return l.t("{value} km/h", ["value": MeasureText.decimals(kmh, 1, l)])
    }

    public static func bpm(_ value: Double?) -> String {
        guard let value, let whole = NumberText.whole(value) else { return "—" }
        return String(whole)
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
        // A number is some program's own code for a sport (a GPX <type>9</type>), not a name.
        case _ where kind.allSatisfy(\.isNumber): return nil
        default: return TerminalText.inert(String(kind.map { $0 == "_" ? " " : $0 }))
        }
    }
}
