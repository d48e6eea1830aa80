import LockerKit
import TerminalUI

/// "What do I need" (key `w` in Grades): for each block where it stands (`GradeStatus`) and the
/// mark every ungraded course would need for it to pass, the year's answer, and how much one
/// more point on the ungraded courses raises each block, highest first.
struct GradesNeedsPanel {
    let viewModel: GradesViewModel
    let selectedCourse: String?

    /// The panel's lines as plain text with a style each (also used by tests).
    func lines(_ l: Localizer, glyphs g: Glyphs) -> [(String, Style)] {
        let book = viewModel.book
        let needs = viewModel.needs()
        let outlook = book.outlook(needs: needs)
        var lines: [(String, Style)] = []
        for (block, entry) in zip(book.blocks, outlook.blocks) {
            lines.append((l.t("{label}: {value}", ["label": block.name, "value": entry.status.sentence(needed: entry.needed, unbounded: entry.unbounded, l)]),
                          GradesStyle.style(entry.status, bold: false)))
        }
        let year = outlook.year
        lines.append((l.t("{label}: {value}", ["label": l.t("Year"), "value": year.status.sentence(needed: year.needed, unbounded: year.unbounded, l)]),
                      GradesStyle.style(year.status, bold: true)))
        let ranked = leverageByCourse(needs)
        if !ranked.isEmpty {
            lines.append(("", .plain))
            lines.append((l.t("One more point on … raises the block averages by"), Style(.title, [.bold])))
            for entry in ranked {
                let marker = entry.courseID == selectedCourse ? g.pointer : " "
                let effects = entry.effects.map { "\($0.block) +\(GradeFormat.needed($0.value, l))" }.joined(separator: ", ")
                lines.append((marker + l.t("{label}: {value}", ["label": entry.name, "value": effects]), entry.courseID == selectedCourse ? Style(.accent, [.bold]) : Style(.text)))
            }
        }
        return lines
    }

    private struct Ranked {
        var courseID: String
        var name: String
        var effects: [(block: String, value: Double)]
        var best: Double
    }

    /// Ungraded courses with their effect on each block, the strongest lever first.
    private func leverageByCourse(_ needs: GradeNeeds) -> [Ranked] {
        let book = viewModel.book
        var byCourse: [String: Ranked] = [:]
        var order: [String] = []
        for entry in needs.leverage {
            let blockName = book.blocks.first { $0.id == entry.blockID }?.name ?? entry.blockID
            if byCourse[entry.courseID] == nil {
                order.append(entry.courseID)
                byCourse[entry.courseID] = Ranked(courseID: entry.courseID, name: viewModel.course(entry.courseID)?.name ?? entry.courseID, effects: [], best: 0)
            }
            if var ranked = byCourse[entry.courseID] {
                ranked.effects.append((blockName, entry.pointsPerPoint))
                ranked.best = max(ranked.best, entry.pointsPerPoint)
                byCourse[entry.courseID] = ranked
            }
        }
        return order.compactMap { byCourse[$0] }.enumerated()
            .sorted { ($0.element.best, -$0.offset) > ($1.element.best, -$1.offset) }
            .map(\.element)
    }

    /// The box the panel takes in `area` for `lineCount` lines.
    static func box(in area: Rect, lineCount: Int) -> Rect {
        area.centered(width: min(area.width, 90), height: min(area.height, lineCount + 3))
    }

    /// How many lines the panel shows at once in `area`.
    static func visibleLines(in area: Rect, lineCount: Int) -> Int {
        max(1, box(in: area, lineCount: lineCount).height - 2)
    }

    /// Draws `content` (the panel's `lines`, built once per frame by the screen's layout) from
    /// `offset` (↑ ↓ PgUp PgDn scroll them), with a scroll bar when they do not all fit.
    static func render(_ content: [(String, Style)], into surface: Surface, area: Rect, offset: Int, context: RenderContext) {
        let l = context.localizer
        let rect = box(in: area, lineCount: content.count)
        surface.fill(rect)
        surface.drawBox(rect, title: l.t("What do I need?") + "  (w/Esc)")
        let inner = rect.inset(dx: 2, dy: 1)
        for (row, line) in content.dropFirst(offset).prefix(inner.height).enumerated() {
            surface.write(line.0.truncated(toWidth: inner.width, ellipsis: context.glyphs.ellipsis), x: inner.x, y: inner.y + row, style: line.1, clip: inner)
        }
        // The scroll bar takes the box's right border, as the help's does: one right edge.
        if content.count > inner.height {
            ScrollBar(total: content.count, visible: inner.height, offset: offset)
                .render(into: surface, rect: Rect(x: rect.maxX - 1, y: inner.y, width: 1, height: inner.height))
        }
    }
}
