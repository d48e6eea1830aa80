import FoundationEssentials
import LockerKit
import TerminalUI

/// A judge's pad (`locker meet judge DIR --seat N`): the called dive, the judge's award typed and
/// sent, "sent" once the journal holds it, and every judge's award only once the referee has
/// accepted the dive. Never the standings (art. 5.2.9). It fits a phone's 40×12.
public final class JudgePadScreen: Screen {
    let viewModel: MeetPadViewModel
    /// The award as typed.
    private(set) var field = JudgePadScreen.awardField()
    @Expiring private var message: String?
    public var messageExpiry: Date? { $message.expiresAt }

    public init(viewModel: MeetPadViewModel) {
        self.viewModel = viewModel
        viewModel.onOutcome = { [weak self] outcome in self?.take(outcome) }
    }

    private func take(_ outcome: MeetPadViewModel.Outcome) {
        switch outcome {
        case .sent:
            // The pad itself says "Sent" for as long as the dive is called; no status to outlive it.
            field = Self.awardField()
            message = nil
        case .refused(let text): message = text
        }
    }

    static func awardField() -> TextFieldState {
        var field = TextFieldState("", maxLength: 5)
        field.allowed = { $0.isNumber && $0.isASCII || ".,½".contains($0) }
        return field
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? { viewModel.observe(callback) }

    /// An award typed and not sent would be lost by quitting.
    public func unsavedWork(_ l: Localizer) -> String? { field.text.isEmpty ? nil : unsavedChanges(l) }

    public func handle(_ key: Key) -> Bool { activeKeys(viewModel.localizer).handle(key) }

    public func keyTables(_ l: Localizer) -> [KeyTable] { [padKeys(l)] }

    /// The keys that edit the award besides its characters.
    private static let editingKeys: [Key] = [.backspace, .left, .right]

    public func activeKeys(_ l: Localizer) -> KeyTable { padKeys(l) }

    /// Why an award cannot be typed now (nil: it can).
    private func blocked(_ l: Localizer) -> String? {
        guard let called = viewModel.called else { return l.t("No dive is called yet: wait for the referee.") }
        if called.accepted != nil { return l.t("The referee has accepted this dive: wait for the next one.") }
        if called.sent != nil { return l.t("Your award for this dive is sent; it cannot be changed.") }
        if viewModel.sending != nil { return l.t("Sending…") }
        return nil
    }

    private func padKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "meet-judge", title: l.t("Judge's pad"), [
            KeyBinding([.enter], help: l.t("Send your award for the called dive"), footer: l.t("send")) { _ in
                // One award: a comma is the decimal comma (7,5).
                let text = self.field.text.replacing(",", with: ".")
                guard let read = try? PanelScore.parseAwards(text), read.count == 1, let value = read[0] else {
                    self.message = l.t("“{value}” is not an award: type 0 to 10 in half points.", ["value": TerminalText.inert(self.field.text)])
                    return true
                }
                self.viewModel.send(Int((value * 2).rounded()))
                return true
            }.disabled { self.blocked(l) },
            KeyBinding([.escape], help: l.t("Clear what you typed")) { _ in
                guard !self.field.text.isEmpty else { return false }
                self.field = Self.awardField()
                return true
            },
            KeyBinding(matching: { key in
                if case .character(let character) = key { return character.isNumber || ".,½".contains(character) }
                return Self.editingKeys.contains(key)
            }, "0–9 . , ½ " + Key.label(of: Self.editingKeys), help: l.t("Your award: 0 to 10 in half points")) { key in
                guard self.blocked(l) == nil else { return false }
                _ = self.field.handle(key)
                return true
            }.disabled { self.blocked(l) },
        ])
    }

    public func status(_ l: Localizer) -> String? {
        if let message { return message }
        if let problem = viewModel.problem { return problem }
        return nil
    }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        var y = rect.y
        // The bottom row is the last accepted dive's, when there is one.
        let bottom = rect.maxY - (viewModel.lastAccepted == nil ? 0 : 1)
        func line(_ text: String, _ style: Style = Style(.text)) {
            guard y < bottom else { return }
            for wrapped in WordWrap.wrap(text, width: max(1, rect.width - 2)) where y < bottom {
                surface.write(wrapped, x: rect.x + 1, y: y, style: style, clip: rect)
                y += 1
            }
        }
        line(l.t("Seat {seat}", ["seat": String(viewModel.seat)]) + (viewModel.event.map { " · " + TerminalText.inert($0) } ?? ""), Style(.muted))
        // The dive accepted last, on the bottom row: every award and the score, never a ranking.
        if let last = viewModel.lastAccepted, last.diver != viewModel.called?.dive.diver || last.round != viewModel.called?.dive.round {
            var awards = last.awards.map { MeetScreen.award($0, ascii: context.glyphs.ascii, l) }.joined(separator: " ")
            if let score = last.scoreHundredths { awards += " = " + MeetScreen.points(score, l) }
            let width = max(1, rect.width - 2), diver = TerminalText.inert(last.diver)
            var text = l.t("Last: {diver}, round {round}:", ["diver": diver, "round": String(last.round)]) + " " + awards
            if text.displayWidth > width {
                // Narrow (a pad of 40 columns): the awards and the score stay whole, the name gives way.
                let round = " " + l.t("R{n}", ["n": String(last.round)]) + ": "
                let room = width - round.displayWidth - awards.displayWidth
                text = (room >= 3 ? diver.truncated(toWidth: room, ellipsis: context.glyphs.ellipsis) + round : "") + awards
            }
            surface.write(text.truncated(toWidth: width, ellipsis: context.glyphs.ellipsis), x: rect.x + 1, y: rect.maxY - 1,
                          style: Style(.muted), clip: rect)
        }
        guard let called = viewModel.called else {
            line(viewModel.problem ?? l.t("No dive is called yet: wait for the referee."), Style(.muted))
            return
        }
        line(TerminalText.inert(called.dive.diver), Style(.title, [.bold]))
        let height = DiveHeight(rawValue: called.planned.height)?.label(l) ?? called.planned.height
        var round = l.t("Round {round}", ["round": String(called.dive.round)])
        if called.dive.attempt > 1 { round += " " + l.t("(attempt {n})", ["n": String(called.dive.attempt)]) }
        line(round + " · " + called.planned.code + " · " + height + " · " + l.t("DD {dd}", ["dd": DegreeOfDifficulty.format(tenths: called.planned.ddTenths, l)]))
        if let name = (try? DiveCode(parsing: called.planned.code))?.name(l) { line(name, Style(.muted)) }
        y += 1
        if let accepted = called.accepted {
            // After acceptance only (13.3.2.5): every judge's award and the dive's score.
            line(l.t("Accepted:") + " " + accepted.map { MeetScreen.award($0, ascii: context.glyphs.ascii, l) }.joined(separator: "  "), Style(.good, [.bold]))
            if let score = called.scoreHundredths { line(l.t("Score {score}", ["score": MeetScreen.points(score, l)]), Style(.good)) }
        } else if let sent = called.sent {
            line(l.t("Sent: {award} — waiting for the referee.", ["award": MeetScreen.award(sent, ascii: context.glyphs.ascii, l)]), Style(.accent, [.bold]))
        } else if let sending = viewModel.sending {
            line(l.t("Sending {award}…", ["award": MeetScreen.award(sending, ascii: context.glyphs.ascii, l)]), Style(.muted))
        } else if y < bottom {
            let label = l.t("Your award:") + " "
            let start = surface.write(label, x: rect.x + 1, y: y, style: Style(.accent, [.bold]), clip: rect)
            TextField().render(field, into: surface, rect: Rect(x: start, y: y, width: max(1, min(8, rect.maxX - start)), height: 1), focused: true)
        }
    }
}
