import LockerKit
import TerminalUI

/// The dive calculator drawn over the Rules tab (key `c`): four inputs — dive number, height,
/// event (individual or synchronised) and awards — and the results below them, recomputed by
/// `DiveCalculatorViewModel` at each keystroke.
final class DiveCalculatorPane {
    let viewModel: DiveCalculatorViewModel
    private enum Field: Int, CaseIterable { case code, height, event, awards }
    private var focus = Field.code
    private var codeField = TextFieldState("", maxLength: 8, allowed: { $0.isASCII && ($0.isLetter || $0.isNumber) })
    private var awardsField = TextFieldState("", maxLength: 80, allowed: { $0.isASCII && ($0.isNumber || " .,;-xX".contains($0)) })

    init(viewModel: DiveCalculatorViewModel) {
        self.viewModel = viewModel
    }

    /// Called when the pane opens: it starts on the dive number, whatever field was left last,
    /// so a number typed at once is a dive number (not more awards).
    func opened() {
        focus = .code
    }

    /// The pane's keys while it is open: every key is taken; Esc runs `close`.
    func keyTable(_ l: Localizer, close: @escaping () -> Void) -> KeyTable {
        let count = Field.allCases.count
        return KeyTable(id: "rules-calculator", title: l.t("Dive calculator"), [
            KeyBinding([.tab, .backTab, .up, .down, .enter], help: l.t("Calculator: next or previous field"),
                       footer: l.t("next field"), footerKeys: "Tab") { key in
                let step = key == .backTab || key == .up ? count - 1 : 1
                self.focus = Field(rawValue: (self.focus.rawValue + step) % count) ?? .code
                return true
            },
            // ← → act on the height and the event only; in the text fields they move the cursor.
            KeyBinding([.left, .right, .character(" ")], help: l.t("Calculator: change the height or the event"),
                       footer: focus == .height || focus == .event ? l.t("change") : nil) { key in
                switch self.focus {
                case .height: self.viewModel.stepHeight(by: key == .left ? -1 : 1)
                case .event: self.viewModel.setSynchro(!self.viewModel.synchro)
                case .code, .awards: return false
                }
                return true
            },
            KeyBinding([.escape], help: l.t("Close the calculator"), footer: l.t("close"), perform: close),
            KeyBinding.typing("0–9 A–Z", help: l.t("edit field")) { key in
                self.edit(key)
                return true
            },
        ])
    }

    /// A key for the dive number or the awards field (other fields ignore it).
    private func edit(_ key: Key) {
        switch focus {
        case .code:
            // Position letters are capitals in dive numbers; show them so as they are typed.
            var typed = key
            if case .character(let c) = key, c.isLetter { typed = .character(Character(c.uppercased())) }
            if codeField.handle(typed) { viewModel.setCode(codeField.text) }
        case .awards:
            if awardsField.handle(key) { viewModel.setAwards(awardsField.text) }
        case .height, .event:
            break
        }
    }

    func render(into surface: Surface, rect area: Rect, context: RenderContext) {
        let l = context.localizer
        let rect = area.centered(width: min(area.width, 84), height: min(area.height, 20))
        surface.fill(rect)
        surface.drawBox(rect, title: l.t("Dive calculator"))
        let inner = rect.inset(dx: 2, dy: 1)
        let labels = [l.t("Dive number"), l.t("Height"), l.t("Event"), l.t("Awards")]
        let labelWidth = min(inner.width / 3, (labels.map(\.displayWidth).max() ?? 0) + 2)
        let valueX = inner.x + labelWidth
        let valueWidth = inner.maxX - valueX
        var y = inner.y
        func label(_ field: Field) {
            let focused = field == focus
            surface.write((focused ? context.glyphs.pointer : " ") + labels[field.rawValue], x: inner.x - 1, y: y,
                          style: Style(focused ? .accent : .muted, focused ? [.bold] : []), clip: inner.inset(dx: -1, dy: 0))
        }
        guard inner.height >= 6, valueWidth >= 12 else { return }

        // Dive number and its name.
        label(.code)
        TextField(placeholder: "5253B").render(codeField, into: surface, rect: Rect(x: valueX, y: y, width: 8, height: 1), focused: focus == .code)
        if case .success(let dive)? = viewModel.dive {
            surface.write(dive.code.name(l).truncated(toWidth: max(1, inner.maxX - valueX - 10), ellipsis: context.glyphs.ellipsis),
                          x: valueX + 10, y: y, style: Style(.text), clip: inner)
        }
        y += 1
        label(.height)
        choice(viewModel.height.label(l), x: valueX, y: y, focused: focus == .height, surface: surface, context: context, clip: inner)
        y += 1
        label(.event)
        choice(viewModel.synchro ? l.t("synchronised (9 or 11 judges)") : l.t("individual (5 or 7 judges)"),
               x: valueX, y: y, focused: focus == .event, surface: surface, context: context, clip: inner)
        y += 1
        label(.awards)
        TextField(placeholder: "8 7.5 7.5 7.5 7").render(awardsField, into: surface, rect: Rect(x: valueX, y: y, width: min(valueWidth, 40), height: 1), focused: focus == .awards)
        y += 2

        // Degree of difficulty.
        var lines: [[Span]] = []
        switch viewModel.dive {
        case .success(let dive)?:
            let c = dive.components
            let parts = [("A", c.a), ("B", c.b), ("C", c.c), ("D", c.d), ("E", c.e)]
                .map { "\($0.0) \(DegreeOfDifficulty.format(tenths: $0.1, l))" }.joined(separator: " + ")
            lines.append([Span(l.t("DD") + " ", Style(.muted)), Span(DegreeOfDifficulty.format(tenths: c.tenths, l), Style(.accent, [.bold])),
                          Span(" = " + parts, Style(.text))])
            lines.append([Span(l.t("A somersaults · B position · C twists · D approach · E unnatural entry"), Style(.muted))])
        case .failure?:
            lines.append([Span(viewModel.diveProblem ?? "", Style(.bad))])
        case nil:
            lines.append([Span(l.t("Type a dive number, e.g. 105B, 5253B, 626C."), Style(.muted))])
        }
        lines.append([])
        // Awards and score.
        switch viewModel.score {
        case .success(let score)?:
            lines.append([Span(l.t("{judges} judges · DD {dd}", ["judges": String(score.panel.rawValue), "dd": DegreeOfDifficulty.format(tenths: score.difficultyTenths, l)]), Style(.muted))])
            let groups = score.groupedAwards
            let width = groups.map { $0.role.label(l).displayWidth }.max() ?? 0
            for group in groups {
                var spans = [Span(group.role.label(l).padded(toWidth: width) + "  ", Style(.muted))]
                for award in group.awards {
                    spans.append(award.cancelled ? Span("(" + award.text(l) + ")  ", Style(.muted, [.dim])) : Span(award.text(l) + "  ", Style(.text, [.bold])))
                }
                lines.append(spans)
            }
            lines.append([Span(l.t("Score") + "  ", Style(.muted)), Span(score.formula(l), Style(.good, [.bold]))])
            lines.append([Span(score.notes(l), Style(.muted))])
        case .failure?:
            lines.append([Span(viewModel.scoreProblem ?? "", Style(.bad))])
        case nil:
            if case .success? = viewModel.dive {
                lines.append([Span(l.t("Type the judges' awards in judge order; - for a judge who gave none."), Style(.muted))])
            }
        }
        for spans in lines {
            guard y < inner.maxY else { break }
            // Messages may be longer than the pane: wrap plain single-span lines.
            if spans.count == 1, spans[0].text.displayWidth > inner.width {
                for part in WordWrap.wrap(spans[0].text, width: inner.width) where y < inner.maxY {
                    surface.write(part, x: inner.x, y: y, style: spans[0].style, clip: inner)
                    y += 1
                }
                continue
            }
            surface.write(spans, x: inner.x, y: y, clip: inner)
            y += 1
        }
        if focus == .height || focus == .event {
            surface.parkCursor(x: valueX, y: inner.y + focus.rawValue)
        }
    }

    private func choice(_ text: String, x: Int, y: Int, focused: Bool, surface: Surface, context: RenderContext, clip: Rect) {
        let g = context.glyphs
        let style = Style(focused ? .selection : .text, focused ? [.bold] : [])
        surface.write(g.ascii ? "< " + text + " >" : "◂ " + text + " ▸", x: x, y: y, style: style, clip: clip)
    }
}
