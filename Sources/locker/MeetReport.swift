// The results of `locker meet results` and `replay`: text, JSON or CSV, from one replay.
import FoundationEssentials
import LockerCommandLine
import LockerKit

enum MeetReport {
    /// The awards as the judges gave them, in judge order: a cancelled one in brackets, one a
    /// judge did not give as its replacement in square brackets (7.9, 7.10).
    static func awardsText(_ score: MeetDiveScore) -> String {
        score.panel.awards.enumerated().map { index, award in
            let given = index < score.given.count ? score.given[index] : nil
            var text = given.map { NumberText.compact(Double($0) / 2) } ?? "[" + NumberText.compact(award.value) + "]"
            if award.cancelled { text = "(" + text + ")" }
            return text
        }.joined(separator: " ")
    }

    /// The referee's call in words, or nothing.
    static func callText(_ call: RefereeCall) -> [String] {
        var words: [String] = []
        if call.restart { words.append(localizer.t("re-start (−2)")) }
        if call.capHalfPoints == 4 { words.append(localizer.t("maximum 2")) }
        if call.capHalfPoints == 9 { words.append(localizer.t("maximum 4½")) }
        if call.unsafe { words.append(localizer.t("unsafe (8.5.4)")) }
        if let article = call.failedArticle { words.append(localizer.t("failed ({article})", ["article": article])) }
        return words
    }

    static func print(_ state: MeetState, json: Bool, csv: Bool) {
        let results: MeetResults
        do { results = try state.results() } catch let error as PanelScoreError {
            fail(error.message(localizer), status: 1)
        } catch {
            fail(String(describing: error), status: 1)
        }
        if json {
            printJSON(MeetResultsJSON(results))
            return
        }
        if csv {
            var rows = [["place", "diver", "club", "round", "code", "height", "dd", "awards", "cancelled", "penalty", "failed", "score", "total"]]
            for row in results.rows {
                for dive in row.dives.map(MeetResultsJSON.Dive.init) {
                    rows.append([String(row.place), row.diver, row.club, String(dive.round), dive.code, dive.height,
                                 DegreeOfDifficulty.format(tenths: Int((dive.dd * 10).rounded()), .english),
                                 dive.awards.map { $0.map(NumberText.compact) ?? "-" }.joined(separator: " "),
                                 dive.cancelled.map(String.init).joined(separator: " "), dive.penalty.joined(separator: " "),
                                 dive.failed ?? "", dive.score.map { PanelScore.formatHundredths(Int(($0 * 100).rounded())) } ?? "",
                                 PanelScore.formatHundredths(row.totalHundredths)])
                }
            }
            // Shown inert in a terminal, and never read as a formula by a spreadsheet.
            let safe = rows.map { $0.map { field -> String in
                let inert = TerminalText.inert(field)
                let formula = inert.first.map { "=+@".contains($0) } == true
                    || (inert.first == "-" && !inert.allSatisfy { "0123456789.- ".contains($0) })
                return formula ? "'" + inert : inert
            } }
            Swift.print(CSV.write(safe), terminator: "")
            return
        }
        Swift.print(TerminalText.inert(results.event))
        for row in results.rows {
            let place = String(row.place) + "."
            let club = row.club.isEmpty ? "" : " (" + TerminalText.inert(row.club) + ")"
            let total = PanelScore.formatHundredths(row.totalHundredths)
            let withdrawn = row.withdrawn ? "  " + localizer.t("(withdrawn)") : ""
            Swift.print(String(repeating: " ", count: max(0, 4 - place.count)) + place + " " + TerminalText.inert(row.diver) + club + "  " + total + withdrawn)
            for dive in row.dives {
                var line = "       " + localizer.t("round {round}", ["round": String(dive.planned.round)]) + "  \(dive.planned.code) \(dive.planned.height) m  "
                    + localizer.t("DD {dd}", ["dd": DegreeOfDifficulty.format(tenths: dive.planned.ddTenths, localizer)])
                if let score = dive.score {
                    line += "  " + awardsText(score) + "  " + PanelScore.formatHundredths(score.hundredths)
                    let calls = callText(score.call)
                    if !calls.isEmpty { line += "  " + calls.joined(separator: ", ") }
                } else {
                    line += "  —"
                }
                Swift.print(line)
            }
        }
    }
}
