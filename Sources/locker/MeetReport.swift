// The results of `locker meet results` and `replay`: text, JSON or CSV, from one replay.
import FoundationEssentials
import LockerCommandLine
import LockerKit

enum MeetReport {
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
            Swift.print(CSV.write(rows), terminator: "")
            return
        }
        Swift.print(TerminalText.inert(results.event))
        for row in results.rows {
            let place = String(row.place) + "."
            let club = row.club.isEmpty ? "" : " (" + TerminalText.inert(row.club) + ")"
            let total = PanelScore.formatHundredths(row.totalHundredths)
            Swift.print(String(repeating: " ", count: max(0, 4 - place.count)) + place + " " + TerminalText.inert(row.diver) + club + "  " + total)
            for dive in row.dives {
                var line = "       " + localizer.t("round {round}", ["round": String(dive.planned.round)]) + "  \(dive.planned.code) \(dive.planned.height) m  DD "
                    + DegreeOfDifficulty.format(tenths: dive.planned.ddTenths, localizer)
                if let score = dive.score {
                    let awards = score.panel.awards.map { $0.cancelled ? "(\(NumberText.compact($0.value)))" : NumberText.compact($0.value) }
                    line += "  " + awards.joined(separator: " ") + "  " + PanelScore.formatHundredths(score.hundredths)
                    if let article = score.call.failedArticle { line += "  " + localizer.t("failed ({article})", ["article": article]) }
                } else {
                    line += "  —"
                }
                Swift.print(line)
            }
        }
    }
}
