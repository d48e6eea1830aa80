import FoundationEssentials
import LockerKit
import TerminalUI

/// The meet's scoreboard (`locker meet board DIR`), for a TV or a projector on a terminal of its
/// own: the last dive the referee accepted — its awards and score in large digits when they fit —
/// then the ranking. It follows the journal and takes no key of its own; it never leads the meet.
public final class MeetBoardScreen: Screen {
    let viewModel: MeetConsoleViewModel

    public init(viewModel: MeetConsoleViewModel) { self.viewModel = viewModel }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? { viewModel.observe(callback) }

    public func handle(_ key: Key) -> Bool { false }

    public func keyTables(_ l: Localizer) -> [KeyTable] { [boardKeys(l)] }

    public func activeKeys(_ l: Localizer) -> KeyTable { boardKeys(l) }

    private func boardKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "meet-board", title: l.t("Scoreboard"), [
            .described("—", help: l.t("The board follows the meet's journal by itself: it has no keys of its own")),
        ])
    }

    public func status(_ l: Localizer) -> String? { viewModel.problem }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard let meet = viewModel.meet else {
            surface.write(viewModel.problem ?? l.t("Reading the meet…"), x: rect.x + 1, y: rect.y, style: Style(.muted), clip: rect)
            return
        }
        var y = rect.y
        let ascii = context.glyphs.ascii
        if let last = meet.state.awards.last, let row = meet.results.rows.first(where: { $0.diver == last.diver }),
           let dive = row.dives.first(where: { $0.planned.round == last.round }), let score = dive.score {
            let name = (try? DiveCode(parsing: dive.planned.code))?.name(l) ?? ""
            let title = TerminalText.inert(row.diver) + (row.club.isEmpty ? "" : " (" + TerminalText.inert(row.club) + ")")
            surface.write(title, x: rect.x + 1, y: y, style: Style(.title, [.bold]), clip: rect)
            y += 1
            let line = l.t("Round {round}", ["round": String(last.round)]) + " · \(dive.planned.code) \(name) · "
                + l.t("DD {dd}", ["dd": DegreeOfDifficulty.format(tenths: dive.planned.ddTenths, l)])
            surface.write(line, x: rect.x + 1, y: y, style: Style(.text), clip: rect)
            y += 2
            // The awards as given, cancelled ones dimmed; large when the row has room.
            let awards = score.panel.awards.enumerated().map { index, award -> (String, Bool) in
                let given = index < score.given.count ? score.given[index] : nil
                return (MeetScreen.award(given, ascii: ascii, l), award.cancelled)
            }
            let big = awards.map { BigDigits($0.0) }
            let bigWidth = big.reduce(0) { $0 + $1.width + 3 }
            if bigWidth <= rect.width - 2 && y + BigDigits.height * 2 + 3 <= rect.maxY {
                var x = rect.x + 1
                for (index, digits) in big.enumerated() {
                    digits.render(into: surface, x: x, y: y, style: Style(awards[index].1 ? .muted : .accent, awards[index].1 ? [.dim] : [.bold]), clip: rect)
                    x += digits.width + 3
                }
                y += BigDigits.height + 1
            } else {
                var x = rect.x + 1
                for (text, cancelled) in awards {
                    x = surface.write(cancelled ? "(\(text))" : text, x: x, y: y, style: Style(cancelled ? .muted : .accent, [.bold]), clip: rect) + 2
                }
                y += 2
            }
            let points = MeetScreen.points(score.hundredths, l)
            let digits = BigDigits(points)
            let summary = l.t("total {total} · place {place}", ["total": MeetScreen.points(row.totalHundredths, l), "place": String(row.place)])
            if y + BigDigits.height + 2 <= rect.maxY && digits.width + 2 <= rect.width {
                digits.render(into: surface, x: rect.x + 1, y: y, style: Style(.good, [.bold]), clip: rect)
                surface.write(summary, x: rect.x + digits.width + 4, y: y + BigDigits.height - 1, style: Style(.text), clip: rect)
                y += BigDigits.height + 1
            } else {
                surface.write(points + "  " + summary, x: rect.x + 1, y: y, style: Style(.good, [.bold]), clip: rect)
                y += 2
            }
        } else {
            surface.write(l.t("No dive has been accepted yet."), x: rect.x + 1, y: y, style: Style(.muted), clip: rect)
            y += 2
        }
        // The ranking, as far as it fits.
        guard y < rect.maxY else { return }
        surface.repeatGlyph(context.glyphs.horizontal, x: rect.x, y: y, count: rect.width, style: Style(.border), clip: rect)
        y += 1
        for row in meet.results.rows where y < rect.maxY {
            let place = row.dives.contains { $0.score != nil } ? String(row.place) : ""
            let total = MeetScreen.points(row.totalHundredths, l)
            let nameWidth = max(1, rect.width - 16)
            var name = TerminalText.inert(row.diver)
            if !row.club.isEmpty && nameWidth >= 30 { name += " · " + TerminalText.inert(row.club) }
            surface.write(place.padded(toWidth: 4, alignment: .right), x: rect.x, y: y, style: Style(.text, [.bold]), clip: rect)
            surface.write(name.truncated(toWidth: nameWidth, ellipsis: context.glyphs.ellipsis), x: rect.x + 5, y: y, style: Style(row.withdrawn ? .muted : .text), clip: rect)
            surface.write(total.padded(toWidth: 9, alignment: .right), x: rect.maxX - 10, y: y, style: Style(.text, [.bold]), clip: rect)
            y += 1
        }
    }
}
