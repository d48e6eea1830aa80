// The printable protocol of `locker meet results --html FILE`: the ranking, then every dive with
// all awards (cancelled ones in brackets), the referee's calls, corrections with their reasons,
// the rule pack and the journal's last hash, which `locker meet verify` checks.
import FoundationEssentials
import LockerCommandLine
import LockerKit

enum MeetProtocolHTML {
    static func escape(_ text: String) -> String { MarkupEntities.escape(TerminalText.inert(text)) }

    static func page(_ results: MeetResults, state: MeetState, lastHash: String) -> String {
        let l = localizer
        var html = """
            <!DOCTYPE html>
            <html lang="\(l.language.rawValue)"><head><meta charset="utf-8">
            <title>\(escape(results.event))</title>
            <style>
            body { font-family: sans-serif; margin: 1.5cm; }
            table { border-collapse: collapse; width: 100%; margin-bottom: 1em; }
            th, td { border: 1px solid #888; padding: 2px 6px; text-align: left; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            .cancelled { color: #666; }
            footer { font-size: smaller; margin-top: 2em; }
            @media print { body { margin: 1cm; } }
            </style></head><body>
            <h1>\(escape(results.event))</h1>

            """
        html += "<table><thead><tr><th>\(escape(l.t("Place")))</th><th>\(escape(l.t("Diver")))</th><th>\(escape(l.t("Club")))</th><th>\(escape(l.t("Total")))</th></tr></thead><tbody>\n"
        for row in results.rows {
            html += "<tr><td class=\"n\">\(row.place)</td><td>\(escape(row.diver))</td><td>\(escape(row.club))</td><td class=\"n\">\(PanelScore.formatHundredths(row.totalHundredths))</td></tr>\n"
        }
        html += "</tbody></table>\n<p>" + escape(l.t("Cancelled awards are in brackets, ( ); an award a judge did not give is shown as its replacement in square brackets, [ ] (7.9, 7.10).")) + "</p>\n"
        for row in results.rows {
            html += "<h2>\(row.place). \(escape(row.diver))</h2>\n<table><thead><tr><th>\(escape(l.t("Round")))</th><th>\(escape(l.t("Dive")))</th><th>\(escape(l.t("Height")))</th><th>DD</th><th>\(escape(l.t("Awards")))</th><th>\(escape(l.t("Referee")))</th><th>\(escape(l.t("Points")))</th></tr></thead><tbody>\n"
            for dive in row.dives {
                let awards = dive.score.map { escape(MeetReport.awardsText($0)) } ?? "—"
                var calls = dive.score.map { MeetReport.callText($0.call) } ?? []
                // Earlier attempts of the round (a void dive done again) stay on the record.
                let attempts = state.awards.filter { $0.diver == row.diver && $0.round == dive.planned.round }.sorted { $0.attempt < $1.attempt }
                for earlier in attempts.dropLast() {
                    let given = earlier.awards.map { $0.map { NumberText.compact(Double($0) / 2) } ?? "–" }.joined(separator: " ")
                    calls.append(l.t("attempt {attempt} (void): {awards}", ["attempt": String(earlier.attempt), "awards": given]))
                }
                html += "<tr><td class=\"n\">\(dive.planned.round)</td><td>\(escape(dive.planned.code))</td><td>\(escape(dive.planned.height)) m</td>"
                html += "<td class=\"n\">\(DegreeOfDifficulty.format(tenths: dive.planned.ddTenths, l))</td><td>\(awards)</td><td>\(escape(calls.joined(separator: ", ")))</td>"
                html += "<td class=\"n\">\(dive.score.map { PanelScore.formatHundredths($0.hundredths) } ?? "")</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if !state.corrections.isEmpty {
            func list(_ award: MeetAward) -> String { award.awards.map { $0.map { NumberText.compact(Double($0) / 2) } ?? "–" }.joined(separator: " ") }
            html += "<h2>\(escape(l.t("Corrections")))</h2>\n<table><thead><tr><th>\(escape(l.t("Diver")))</th><th>\(escape(l.t("Round")))</th><th>\(escape(l.t("Attempt")))</th><th>\(escape(l.t("Recorded")))</th><th>\(escape(l.t("Corrected to")))</th><th>\(escape(l.t("Why")))</th></tr></thead><tbody>\n"
            func described(_ award: MeetAward) -> String { ([list(award)] + MeetReport.callText(award.call)).joined(separator: ", ") }
            for correction in state.corrections {
                html += "<tr><td>\(escape(correction.after.diver))</td><td class=\"n\">\(correction.after.round)</td><td class=\"n\">\(correction.after.attempt)</td>"
                html += "<td>\(escape(described(correction.before)))</td><td>\(escape(described(correction.after)))</td><td>\(escape(correction.reason))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if !state.changes.isEmpty {
            html += "<h2>\(escape(l.t("Late changes")))</h2>\n<table><thead><tr><th>\(escape(l.t("Diver")))</th><th>\(escape(l.t("Round")))</th><th>\(escape(l.t("Planned")))</th><th>\(escape(l.t("Changed to")))</th><th>\(escape(l.t("Why")))</th></tr></thead><tbody>\n"
            func dive(_ planned: PlannedDive) -> String { "\(planned.code) \(planned.height) m, DD " + DegreeOfDifficulty.format(tenths: planned.ddTenths, l) }
            for change in state.changes {
                html += "<tr><td>\(escape(change.diver))</td><td class=\"n\">\(change.after.round)</td><td>\(escape(dive(change.before)))</td>"
                html += "<td>\(escape(dive(change.after)))</td><td>\(escape(change.reason))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if !state.withdrawals.isEmpty {
            html += "<h2>\(escape(l.t("Withdrawals")))</h2>\n<table><thead><tr><th>\(escape(l.t("Diver")))</th><th>\(escape(l.t("Why")))</th></tr></thead><tbody>\n"
            for withdrawal in state.withdrawals {
                html += "<tr><td>\(escape(withdrawal.diver))</td><td>\(escape(withdrawal.reason))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        let footer = l.n("Rule pack: {pack}. Journal: {count} entry, last hash {hash}.", "Rule pack: {pack}. Journal: {count} entries, last hash {hash}.",
                         count: state.lineCount, ["pack": results.pack, "hash": lastHash])
        html += "<footer>" + escape(footer) + "</footer>\n"
        html += "</body></html>\n"
        return html
    }
}
