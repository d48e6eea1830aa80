/// The summary as labelled lines of plain text: the command line prints them, and the Workout
/// tab shows the same lines (so a screen reader reads the figures in order).
public enum WorkoutSummaryText {
    public struct Row: Equatable, Sendable {
        public var label: String
        public var value: String
    }

    /// Rows of label and value, in reading order. Every unknown figure says why it is unknown.
    public static func rows(_ analysis: WorkoutAnalysis, _ l: Localizer) -> [Row] {
        let s = analysis.summary
        let w = analysis.workout
        var rows: [Row] = []
        let clockReason = s.clockProblem.map { reason($0, l) }
        let noTime = w.time.allSatisfy(\.isNaN)
        // "unknown" agrees with its label in languages with genders (la salida: desconocida).
        rows.append(Row(label: l.t("Start"), value: s.start != nil ? MeasureText.dateTime(s.start)
                        : s.clockProblem == .dateOutOfRange ? l.t("unknown ({reason})", context: "start", ["reason": clockReason ?? ""])
                        : l.t("unknown (no time in the file)", context: "start")))
        rows.append(Row(label: l.t("Elapsed"), value: s.elapsedSeconds != nil ? WorkoutText.duration(s.elapsedSeconds)
                        : noTime ? l.t("unknown (no time in the file)") : l.t("unknown ({reason})", ["reason": clockReason ?? ""])))
        let movingUnknown: String
        if noTime { movingUnknown = l.t("unknown (no time in the file)") }
        else if let clockReason { movingUnknown = l.t("unknown ({reason})", ["reason": clockReason]) }
        else { movingUnknown = l.t("unknown (no positions or distances tell moving from standing still)") }
        rows.append(Row(label: l.t("Moving"), value: s.movingSeconds == nil ? movingUnknown : WorkoutText.duration(s.movingSeconds)))
        rows.append(Row(label: l.t("Distance"), value: distance(s, l)))
        rows.append(Row(label: l.t("Pace"), value: s.paceSecondsPerKilometre == nil ? l.t("unknown", context: "pace")
                        : WorkoutText.pace(s.paceSecondsPerKilometre, sport: w.kind, l) + "  " + WorkoutText.speed(s.speedKilometresPerHour, l)))
        rows.append(Row(label: l.t("Climb"), value: climb(s, l)))
        if s.heartRateMin != nil {
            rows.append(Row(label: l.t("Heart rate"), value: l.t("{min} / {avg} / {max} bpm (min / avg / max)",
                ["min": WorkoutText.bpm(s.heartRateMin), "avg": WorkoutText.bpm(s.heartRateAverage), "max": WorkoutText.bpm(s.heartRateMax)])))
        } else {
            rows.append(Row(label: l.t("Heart rate"), value: l.t("not recorded")))
        }
        rows.append(Row(label: l.t("Points"), value: String(s.points)))
        if w.ignoredTimes > 0 {
            rows.append(Row(label: l.t("Clock"), value: l.n("{count} point has a time far from its neighbours; that time was left out",
                                                            "{count} points have a time far from their neighbours; those times were left out",
                                                            count: w.ignoredTimes)))
        }
        return rows
    }

    /// The distance with where it comes from: the device's own total or count, or the
    /// positions (saying how many impossible ones were left out).
    public static func distance(_ s: WorkoutSummary, _ l: Localizer) -> String {
        guard let meters = s.distanceMeters else {
            return s.positions == 1 ? l.t("unknown (one position: a distance needs two)") : l.t("unknown (no positions or distances in the file)")
        }
        let value = MeasureText.distance(meters, l)
        switch s.distanceSource {
        case .none: return value
        case .route:
            guard s.droppedPositions > 0 else { return l.t("{distance} (from the positions)", ["distance": value]) }
            return l.n("{distance} (from the positions; {count} impossible position left out)",
                       "{distance} (from the positions; {count} impossible positions left out)",
                       count: s.droppedPositions, ["distance": value])
        case .device: return l.t("{distance} (the device's own count)", ["distance": value])
        case .declared: return l.t("{distance} (the device's own total)", ["distance": value])
        }
    }

    /// "64 m (the device's own count)" or "139 m (from the elevations)", or why it is unknown.
    static func climb(_ s: WorkoutSummary, _ l: Localizer) -> String {
        guard let meters = s.ascentMeters.flatMap({ NumberText.whole($0) }) else { return l.t("unknown", context: "climb") }
        let value = l.t("{value} m", ["value": String(meters)])
        return s.ascentFromDevice ? l.t("{climb} (the device's own count)", ["climb": value])
                                  : l.t("{climb} (from the elevations)", ["climb": value])
    }

    /// Why the file's times cannot be used, in a few words.
    public static func reason(_ problem: ClockProblem, _ l: Localizer) -> String {
        switch problem {
        case .sameTime: return l.t("every point carries the same time")
        case .runsBackwards: return l.t("the times in the file run backwards")
        case .impossibleSpeed: return l.t("the times in the file would mean an impossible speed")
        case .dateOutOfRange: return l.t("the device's clock was not set: the dates are impossible")
        }
    }

    /// The five zones: "Z1 50–60 %  12:34  (21 %)".
    public static func zoneRows(_ analysis: WorkoutAnalysis, _ l: Localizer) -> [Row] {
        let s = analysis.summary
        guard s.zoneMaximum != nil else { return [] }
        let total = s.zoneAmounts.reduce(0, +)
        let amounts = s.zoneAmounts.map { amount in
            s.zonesCountPoints ? l.n("{count} point", "{count} points", count: Int(amount)) : WorkoutText.duration(amount)
        }
        let shares = s.zoneAmounts.map { total > 0 ? "(\(Int(($0 / total * 100).rounded())) %)" : "" }
        // The times and the shares line up in columns, right-aligned.
        let amountWidth = amounts.map(\.count).max() ?? 0, shareWidth = shares.map(\.count).max() ?? 0
        func right(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        let labels = s.zoneAmounts.indices.map { "Z\($0 + 1) \(50 + $0 * 10)–\(60 + $0 * 10) %" }
        let labelWidth = labels.map(\.count).max() ?? 0
        return s.zoneAmounts.indices.map { index in
            let share = shareWidth > 0 ? "  " + right(shares[index], shareWidth) : ""
            let label = labels[index] + String(repeating: " ", count: labelWidth - labels[index].count)
            return Row(label: label, value: right(amounts[index], amountWidth) + share)
        }
    }

    /// The heading of the zone list, saying which maximum heart rate they use.
    public static func zoneHeading(_ analysis: WorkoutAnalysis, _ l: Localizer) -> String? {
        guard let maximum = analysis.summary.zoneMaximum else { return nil }
        let bpm = ["bpm": WorkoutText.bpm(maximum)]
        switch analysis.summary.zoneMaximumSource {
        case .settings: return l.t("Heart-rate zones (maximum {bpm} bpm, from settings)", bpm)
        case .commandLine: return l.t("Heart-rate zones (maximum {bpm} bpm, from --max-hr)", bpm)
        case .workout: return l.t("Heart-rate zones (maximum {bpm} bpm, this workout's highest)", bpm)
        }
    }

    /// Everything as printable lines, the title first unless `title` is false (the Workout tab
    /// shows it above them already).
    public static func lines(_ analysis: WorkoutAnalysis, fileName: String, title: Bool = true, _ l: Localizer) -> [String] {
        let workout = analysis.workout
        // Titles come from files: never let them drive the terminal.
        var lines = title ? [TerminalText.inert(workout.title(fileName: fileName)) + (SportText.name(workout.kind, l).map { " — " + $0 } ?? "")] : []
        let all = rows(analysis, l)
        let width = all.map(\.label.count).max() ?? 0
        for row in all { lines.append(row.label + String(repeating: " ", count: width - row.label.count + 2) + row.value) }
        if let heading = zoneHeading(analysis, l) {
            lines.append(heading)
            for row in zoneRows(analysis, l) { lines.append("  " + row.label + "  " + row.value) }
        }
        return lines
    }
}
