import FoundationEssentials
import LockerKit
import TerminalUI

/// The referee's and recorder's console of `locker meet DIR`: the dive called now, its awards
/// typed and read back before they count, the referee's call, and the ranking with what each
/// diver needs for first, third and the cut. Every decision goes to the meet's journal through
/// the view-model; the screen only keeps what is being typed.
public final class MeetScreen: Screen {
    let viewModel: MeetConsoleViewModel
    /// The failed-dive penalties, to pick a failed dive's article from.
    let failures: [Penalty]
    private(set) var mode = MeetConsoleMode.browsing
    @Expiring private var message: String?
    public var messageExpiry: Date? { $message.expiresAt }
    /// Laid out by `layout`: the ranking's rows on screen and its first row shown.
    private var rankingHeight = 10
    private var rankingOffset = 0
    private var failureList = ListState()
    private var token: ObservationToken?

    public init(viewModel: MeetConsoleViewModel, failures: [Penalty]) {
        self.viewModel = viewModel
        self.failures = failures
        viewModel.onOutcome = { [weak self] outcome in self?.take(outcome) }
    }

    /// A decision's outcome: the mode moves by `MeetConsoleMode.next`, the status says what happened.
    private func take(_ outcome: MeetConsoleViewModel.Outcome) {
        mode = MeetConsoleMode.next(mode, after: outcome)
        switch outcome {
        case .recorded(let text): $message.confirm(text)
        case .refused(let text): message = text
        }
        // The keys typed while the decision was written act now, in order (a key that sends
        // another decision makes the rest wait again).
        let waiting = keysWhileWriting
        keysWhileWriting = []
        for key in waiting { _ = handle(key) }
    }

    /// Keys typed while a decision is written: they wait for its outcome (`take`), as the
    /// writing mode's help says, instead of being lost (u typed right after a correction).
    private var keysWhileWriting: [Key] = []

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? { viewModel.observe(callback) }

    public var capturesText: Bool { mode.capturesText }

    /// Typed awards or a reason not yet sent would be lost by quitting.
    public func unsavedWork(_ l: Localizer) -> String? { mode == .browsing ? nil : unsavedChanges(l) }

    // MARK: Keys

    public func handle(_ key: Key) -> Bool {
        let l = viewModel.localizer
        if case .writing = mode {
            if keysWhileWriting.count < 256 { keysWhileWriting.append(key) }
            return true
        }
        if !mode.capturesText { message = nil }
        return activeKeys(l).handle(key)
    }

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        let draft = AwardDraft(diver: "", round: 1, attempt: 1, correcting: false, text: "")
        return [browseKeys(l), awardKeys(l, draft, TextFieldState()), readBackKeys(l, draft), failureKeys(l, draft),
                reasonKeys(l, .withdrawal(diver: ""), TextFieldState()), diveKeys(l, diver: "", round: 1, TextFieldState()), writingKeys(l)]
    }

    public func activeKeys(_ l: Localizer) -> KeyTable {
        switch mode {
        case .browsing: return browseKeys(l)
        case .typingAwards(let draft, let field): return awardKeys(l, draft, field)
        case .readingBack(let draft): return readBackKeys(l, draft)
        case .choosingFailure(let draft, _): return failureKeys(l, draft)
        case .typingReason(let purpose, let field): return reasonKeys(l, purpose, field)
        case .typingDive(let diver, let round, let field): return diveKeys(l, diver: diver, round: round, field)
        case .writing: return writingKeys(l)
        }
    }

    /// Why this console records nothing: another console leads the meet.
    private func readOnly(_ l: Localizer) -> String? {
        viewModel.isLeading ? nil : l.t("Another console leads this meet: this one follows it and records nothing.")
    }

    /// Why the called dive cannot take new awards now (nil: it can).
    private func awardsBlocked(_ l: Localizer) -> String? {
        if let reason = readOnly(l) { return reason }
        guard let called = viewModel.calledDive else { return noDive(l) }
        if viewModel.meet?.state.withdrawal(of: called.entrant.diver) != nil {
            return l.t("{diver} has withdrawn: no further dive is recorded for them.", ["diver": called.entrant.diver])
        }
        if called.latest != nil { return l.t("This dive has its awards: c corrects them, v records the redo of a void attempt.") }
        return nil
    }

    private func noDive(_ l: Localizer) -> String {
        viewModel.meet == nil ? l.t("The meet is still being read.") : l.t("No dive to call: import the entries with locker meet import.")
    }

    private func browseKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "meet", title: l.t("Meet"), [
            KeyBinding([.up, .down, .character("k"), .character("j")], help: l.t("Call the previous / next dive in the running order"),
                       footer: l.t("call"), footerKeys: "↑↓") { key in
                self.viewModel.callStep(key == .up || key == .character("k") ? -1 : 1)
                return true
            },
            KeyBinding([.pageUp, .pageDown], help: l.t("Call the same diver's previous / next round")) { key in
                self.viewModel.callRound(key == .pageUp ? -1 : 1)
                return true
            },
            KeyBinding([.character("n"), .home], help: l.t("Call the next dive without awards"), footer: l.t("next")) {
                self.viewModel.callNextUndived()
            },
            KeyBinding([.end], help: l.t("Call the event's last dive")) { self.viewModel.callLast() },
            KeyBinding([.enter], help: l.t("Type the called dive's awards, in judge order"), footer: l.t("awards")) { _ in
                guard let called = self.viewModel.calledDive else { return false }
                // With pads, the awards the seats sent are filled in; a silent seat is "-" until
                // the referee types its flash card or leaves it missing (7.9, 7.10).
                let judges = self.viewModel.meet?.state.setup.judges ?? 0
                let text = self.viewModel.padAwards.map { sent in
                    (1...max(1, judges)).map { seat in sent[seat].map { Self.awardsText([$0], ascii: true, l) } ?? "-" }.joined(separator: " ")
                } ?? ""
                let draft = AwardDraft(diver: called.entrant.diver, round: called.planned.round, attempt: 1, correcting: false, text: text)
                self.mode = .typingAwards(draft, field: Self.awardField(text))
                return true
            }.disabled { self.awardsBlocked(l) },
            KeyBinding([.character(" ")], help: l.t("Show the called dive on the judges' pads (13.3); after each dive the next one goes there by itself"),
                       footer: l.t("pads")) { _ in
                self.viewModel.callOnPads()
                return true
            }.disabled {
                if let reason = self.awardsBlocked(l) { return reason }
                return self.viewModel.padAwards != nil ? l.t("This dive is on the pads already.") : nil
            },
            KeyBinding([.character("c")], help: l.t("Correct the called dive's awards or call, with a reason"), footer: l.t("correct")) { _ in
                guard let called = self.viewModel.calledDive, let latest = called.latest else { return false }
                let text = Self.awardsText(latest.awards, ascii: true, l)
                let draft = AwardDraft(diver: latest.diver, round: latest.round, attempt: latest.attempt, correcting: true, text: text, call: latest.call)
                self.mode = .typingAwards(draft, field: Self.awardField(text))
                return true
            }.disabled { self.readOnly(l) ?? (self.viewModel.calledDive?.latest == nil ? l.t("The called dive has no awards to correct.") : nil) },
            KeyBinding([.character("v")], help: l.t("Void attempt (6.4.6, 6.4.10): type the redo's awards; the first ones stay in the journal")) { _ in
                guard let called = self.viewModel.calledDive, let latest = called.latest else { return false }
                let draft = AwardDraft(diver: latest.diver, round: latest.round, attempt: latest.attempt + 1, correcting: false, text: "")
                self.mode = .typingAwards(draft, field: Self.awardField(""))
                return true
            }.disabled { self.readOnly(l) ?? (self.viewModel.calledDive?.latest == nil ? l.t("The called dive has no awards: a void attempt is redone before any are given.") : nil) },
            KeyBinding([.character("e")], help: l.t("Change the called dive before it is dived (a late change), with a reason")) { _ in
                guard let called = self.viewModel.calledDive else { return false }
                self.mode = .typingDive(diver: called.entrant.diver, round: called.planned.round, field: TextFieldState(maxLength: 40))
                return true
            }.disabled {
                if let reason = self.readOnly(l) { return reason }
                guard let called = self.viewModel.calledDive else { return self.noDive(l) }
                return called.latest != nil ? l.t("{diver}'s round {round} has its awards: the dive can no longer be changed.",
                                                  ["diver": called.entrant.diver, "round": String(called.planned.round)]) : nil
            },
            KeyBinding([.character("w")], help: l.t("Withdraw the called diver from the event, with a reason")) { _ in
                guard let called = self.viewModel.calledDive else { return false }
                self.mode = .typingReason(.withdrawal(diver: called.entrant.diver), field: TextFieldState(maxLength: 200))
                return true
            }.disabled {
                if let reason = self.readOnly(l) { return reason }
                guard let called = self.viewModel.calledDive else { return self.noDive(l) }
                return self.viewModel.meet?.state.withdrawal(of: called.entrant.diver) != nil
                    ? l.t("{diver} has withdrawn: no further dive is recorded for them.", ["diver": called.entrant.diver]) : nil
            },
            KeyBinding([.character("u")], help: l.t("Undo the latest decision (a new journal line; nothing is deleted)"), footer: l.t("undo")) {
                self.viewModel.undo()
            }.disabled { self.readOnly(l) ?? (!self.viewModel.hasQueuedWrites && self.viewModel.meet?.state.undoable.isEmpty ?? true ? l.t("Nothing to undo.") : nil) },
            KeyBinding([.control("r")], help: l.t("Redo what the latest undo took back")) {
                self.viewModel.redo()
            }.disabled { self.readOnly(l) ?? (!self.viewModel.hasQueuedWrites && self.viewModel.meet?.state.redoable.isEmpty ?? true ? l.t("Nothing to redo.") : nil) },
        ])
    }

    /// The awards field: numbers, decimal point or comma, ½, and - or x for a missing award.
    static func awardField(_ text: String) -> TextFieldState {
        var field = TextFieldState(text, maxLength: 80)
        field.allowed = { $0.isNumber && $0.isASCII || " .,;½-xX".contains($0) }
        return field
    }

    private func awardKeys(_ l: Localizer, _ draft: AwardDraft, _ field: TextFieldState) -> KeyTable {
        KeyTable(id: "meet-awards", title: l.t("Typing the awards"), [
            KeyBinding([.enter], help: l.t("Read the awards back before they count"), footer: l.t("read back")) { _ in
                self.readBack(draft, field.text)
                return true
            },
            KeyBinding([.escape], help: l.t("cancel"), footer: l.t("cancel")) { self.mode = .browsing },
            KeyBinding.editing(field, "0–9 . , ½ - x", help: l.t("Awards 0 to 10 in half points, in judge order; - or x for a missing one")) { self.mode = .typingAwards(draft, field: $0) },
        ])
    }

    /// Reads `text` as the panel's awards: read back when they are right, else says why.
    private func readBack(_ draft: AwardDraft, _ text: String) {
        let l = viewModel.localizer
        let judges = viewModel.meet?.state.setup.judges ?? 0
        do {
            let awards = try PanelScore.parseAwards(text).map { $0.map { Int(($0 * 2).rounded()) } }
            guard awards.count == judges else {
                message = MeetError.wrongNumberOfAwards(given: awards.count, judges: judges).localized(l)
                return
            }
            var read = draft
            read.text = text
            read.award.awards = awards
            // What a seat sent from its pad stands, whatever was typed in its place.
            let kept = withPadAwards(read)
            if let kept { read = kept.draft }
            // Awards the panel cannot score (two missing in a group) are refused here, not at Enter.
            if let planned = viewModel.calledDive?.planned, let meet = viewModel.meet {
                do {
                    _ = try MeetDiveScore.compute(given: read.award.awards, call: draft.award.call, difficultyTenths: planned.ddTenths,
                                                  synchro: meet.state.setup.synchro)
                } catch let error as PanelScoreError {
                    message = error.message(l)
                    return
                }
            }
            // A refusal of an earlier try is over: the read-back says only what is true now.
            message = kept.map { l.t("Sent from the pads, and kept: {awards}.", ["awards": $0.seats]) }
            mode = .readingBack(read)
        } catch PanelScoreError.badAward(let bad) {
            message = MeetError.badAward(bad).localized(l)
        } catch {
            message = MeetError.badAward(text).localized(l)
        }
    }

    private func readBackKeys(_ l: Localizer, _ draft: AwardDraft) -> KeyTable {
        func toggle(_ change: @escaping (inout RefereeCall) -> Void) -> () -> Void {
            {
                var edited = draft
                change(&edited.award.call)
                self.mode = .readingBack(edited)
            }
        }
        return KeyTable(id: "meet-readback", title: l.t("Reading the awards back"), [
            KeyBinding([.enter], help: l.t("The awards count: record them in the journal"), footer: l.t("record")) {
                // A seat may have sent its award from its pad since the read-back began.
                if let arrived = self.withPadAwards(draft) {
                    self.mode = .readingBack(arrived.draft)
                    self.message = l.t("Arrived from the pads since: {awards}. Enter records.", ["awards": arrived.seats])
                    return
                }
                if draft.correcting {
                    self.mode = .typingReason(.correction(draft), field: TextFieldState(maxLength: 200))
                } else {
                    self.mode = .writing(back: .readingBack(draft))
                    self.viewModel.record(draft.award)
                }
            },
            KeyBinding([.character("r")], help: l.t("Re-start: 2 points off every award, never below 0 (6.5.1, 6.5.2)"), footer: l.t("re-start"),
                       perform: toggle { $0.restart.toggle() }),
            KeyBinding([.character("p")], help: l.t("Position other than announced: awards above 2 count as 2 (6.4.13)"),
                       footer: l.t("position", context: "referee call"), perform: toggle { $0.capHalfPoints = $0.capHalfPoints == 4 ? nil : 4 })
                .ranked(200),
            KeyBinding([.character("a")], help: l.t("Arms at entry: awards above 4½ count as 4½ (6.5.8)"),
                       footer: l.t("arms", context: "referee call"), perform: toggle { $0.capHalfPoints = $0.capHalfPoints == 9 ? nil : 9 })
                .ranked(210),
            KeyBinding([.character("s")], help: l.t("Unsafe dive, by the judges' majority: awards above 2 count as 2 (8.5.4)"),
                       footer: l.t("unsafe", context: "referee call"), perform: toggle { $0.unsafe.toggle() })
                .ranked(220),
            KeyBinding([.character("f")], help: l.t("Failed dive: choose the article from the penalties"), footer: l.t("failed", context: "failed dive")) {
                if draft.award.call.failedArticle != nil {
                    var edited = draft
                    edited.award.call.failedArticle = nil
                    self.mode = .readingBack(edited)
                } else {
                    self.mode = .choosingFailure(draft, selected: 0)
                }
            },
            KeyBinding([.character("0")], help: l.t("Clear the referee's call"), footer: l.t("no call", context: "referee call")) {
                var edited = draft
                edited.award.call = .none
                self.mode = .readingBack(edited)
            }.ranked(230),
            KeyBinding([.backspace, .character("e")], help: l.t("Edit the awards"), footer: l.t("edit")) {
                self.mode = .typingAwards(draft, field: Self.awardField(draft.text))
            },
            KeyBinding([.escape], help: l.t("Cancel: nothing is recorded"), footer: l.t("cancel")) { self.mode = .browsing },
        ])
    }

    /// `draft` with the award each seat sent from its pad in that seat's place (a pad's award is
    /// never typed over, 13.3.2.7), and the seats it changed ("seat 5: 9.5"); nil when it changed
    /// none. A correction after acceptance is not on the pads.
    private func withPadAwards(_ draft: AwardDraft) -> (draft: AwardDraft, seats: String)? {
        guard !draft.correcting, let sent = viewModel.padAwards else { return nil }
        var updated = draft
        var changed: [String] = []
        for (index, typed) in draft.award.awards.enumerated() {
            let seat = index + 1
            guard let award = sent[seat], typed != award else { continue }
            updated.award.awards[index] = award
            changed.append(l.t("seat {seat}: {award}", ["seat": String(seat), "award": Self.award(award, ascii: false, viewModel.localizer)]))
        }
        guard !changed.isEmpty else { return nil }
        updated.text = Self.awardsText(updated.award.awards, ascii: true, viewModel.localizer)
        return (updated, changed.joined(separator: ", "))
    }

    private var l: Localizer { viewModel.localizer }

    private func failureKeys(_ l: Localizer, _ draft: AwardDraft) -> KeyTable {
        KeyTable(id: "meet-failed", title: l.t("Choosing why the dive failed"), [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys, help: l.t("Choose the penalty"),
                       footer: l.t("move"), footerKeys: "↑↓") { key in
                guard case .choosingFailure(let draft, let selected) = self.mode else { return false }
                var list = ListState(count: self.failures.count, selected: selected)
                _ = list.handle(key, pageSize: self.rankingHeight)
                self.mode = .choosingFailure(draft, selected: list.selected)
                return true
            },
            KeyBinding([.enter], help: l.t("Fail the dive under this article"), footer: l.t("choose")) { _ in
                guard case .choosingFailure(var draft, let selected) = self.mode, self.failures.indices.contains(selected) else { return false }
                draft.award.call.failedArticle = self.failures[selected].articles.first ?? "?"
                self.mode = .readingBack(draft)
                return true
            },
            KeyBinding([.escape], help: l.t("Back to the awards"), footer: l.t("back")) { self.mode = .readingBack(draft) },
        ])
    }

    private func reasonKeys(_ l: Localizer, _ purpose: ReasonPurpose, _ field: TextFieldState) -> KeyTable {
        KeyTable(id: "meet-reason", title: l.t("Typing the reason"), [
            KeyBinding([.enter], help: l.t("Record it with this reason"), footer: l.t("record")) { _ in
                let reason = field.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                guard !reason.isEmpty else {
                    self.message = MeetError.reasonMissing.localized(l)
                    return true
                }
                self.mode = .writing(back: .typingReason(purpose, field: field))
                switch purpose {
                case .correction(let draft): self.viewModel.correct(draft.award, reason: reason)
                case .withdrawal(let diver): self.viewModel.withdraw(diver, reason: reason)
                case .change(let diver, let dive): self.viewModel.change(diver, to: dive, reason: reason)
                }
                return true
            },
            KeyBinding([.escape], help: l.t("Back"), footer: l.t("back")) { _ in
                switch purpose {
                case .correction(let draft): self.mode = .readingBack(draft)
                case .withdrawal: self.mode = .browsing
                case .change(let diver, let dive):
                    self.mode = .typingDive(diver: diver, round: dive.round, field: TextFieldState("\(dive.code) \(dive.height)", maxLength: 40))
                }
                return true
            },
            KeyBinding.editing(field, help: l.t("edit field")) { self.mode = .typingReason(purpose, field: $0) },
        ])
    }

    private func diveKeys(_ l: Localizer, diver: String, round: Int, _ field: TextFieldState) -> KeyTable {
        KeyTable(id: "meet-dive", title: l.t("Typing the new dive"), [
            KeyBinding([.enter], help: l.t("Take this dive, then say why"), footer: l.t("next")) { _ in
                switch MeetDiveEntry.parse(field.text, eventHeight: self.viewModel.meet?.state.setup.height) {
                case .failure(let problem): self.message = problem.message(l)
                case .success(let entry):
                    let dd = self.viewModel.meet?.pack?.ddTenths(round: round, formula: entry.ddTenths) ?? entry.ddTenths
                    let dive = PlannedDive(round: round, code: entry.code.text, height: entry.height.rawValue, ddTenths: dd)
                    self.mode = .typingReason(.change(diver: diver, dive: dive), field: TextFieldState(maxLength: 200))
                }
                return true
            },
            KeyBinding([.escape], help: l.t("cancel"), footer: l.t("cancel")) { self.mode = .browsing },
            KeyBinding.editing(field, "0–9 A–D", help: l.t("The dive number, its height and, when the sheet claims one, its DD: 5253B 3 3.2")) { self.mode = .typingDive(diver: diver, round: round, field: $0) },
        ])
    }

    private func writingKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "meet-writing", title: l.t("Recording"), [
            .described("…", help: l.t("Keys wait until the journal has the decision on disk")),
        ])
    }

    // MARK: Status

    public func status(_ l: Localizer) -> String? {
        if let message { return message }
        if let problem = viewModel.problem { return problem }
        if case .writing = mode { return l.t("Recording in the journal…") }
        if let reason = readOnly(l) { return reason }
        if let torn = viewModel.tornLine, !torn.isEmpty {
            return l.t("The journal's last line was cut off (a crash while it was written); it is left out: {text}",
                       ["text": TerminalText.inert(String(torn.prefix(60)))])
        }
        guard let meet = viewModel.meet else { return l.t("Reading the meet…") }
        return l.n("{done} of {count} dive recorded", "{done} of {count} dives recorded", count: meet.calls.count, ["done": String(meet.recordedCount)])
    }

    // MARK: Layout and drawing

    /// The rows above the ranking: the called dive (two), the awards (two), a rule.
    static let headerRows = 5

    public func layout(_ area: Rect, context: RenderContext) {
        rankingHeight = max(1, area.height - Self.headerRows - 1)
        guard let meet = viewModel.meet, let called = viewModel.called else { return }
        // The called diver's row stays in view.
        if let at = meet.results.rows.firstIndex(where: { $0.diver == called.diver }) {
            if at < rankingOffset { rankingOffset = at }
            if at >= rankingOffset + rankingHeight { rankingOffset = at - rankingHeight + 1 }
        }
        rankingOffset = max(0, min(rankingOffset, meet.results.rows.count - rankingHeight))
        if case .choosingFailure(_, let selected) = mode {
            failureList = ListState(count: failures.count, selected: selected)
            failureList.scrollToSelection(height: max(1, rankingHeight + 1 - Self.failureTextRows))
        }
    }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard let meet = viewModel.meet else {
            let text = viewModel.problem ?? l.t("Reading the meet…")
            for (i, line) in WordWrap.wrap(text, width: max(1, rect.width - 2)).prefix(rect.height).enumerated() {
                surface.write(line, x: rect.x + 1, y: rect.y + i, style: Style(viewModel.problem == nil ? .muted : .warn), clip: rect)
            }
            return
        }
        renderCalled(meet, into: surface, rect: Rect(x: rect.x, y: rect.y, width: rect.width, height: min(rect.height, Self.headerRows)), context)
        surface.repeatGlyph(context.glyphs.horizontal, x: rect.x, y: rect.y + Self.headerRows - 1, count: rect.width, style: Style(.border), clip: rect)
        let below = Rect(x: rect.x, y: rect.y + Self.headerRows, width: rect.width, height: max(0, rect.height - Self.headerRows))
        if case .choosingFailure = mode {
            renderFailures(into: surface, rect: below, context)
        } else {
            renderRanking(meet, into: surface, rect: below, context)
        }
    }

    /// A half-point award as the language writes it ("7,5" in French); "—" for a missing one.
    static func award(_ halfPoints: Int?, ascii: Bool, _ l: Localizer) -> String {
        guard let halfPoints else { return ascii ? "-" : "—" }
        return MeasureText.withDecimalSeparator(PanelScore.formatHalfPoints(halfPoints), l)
    }

    /// Awards as they can be typed again ("7 7.5 - 6").
    static func awardsText(_ awards: [Int?], ascii: Bool, _ l: Localizer) -> String {
        awards.map { $0.map(PanelScore.formatHalfPoints) ?? "-" }.joined(separator: " ")
    }

    static func points(_ hundredths: Int, _ l: Localizer) -> String {
        MeasureText.withDecimalSeparator(PanelScore.formatHundredths(hundredths), l)
    }

    /// The referee's call in words, with its articles ("re-start (6.5.1)"); nil for none.
    static func callText(_ call: RefereeCall, _ l: Localizer) -> String? {
        var parts: [String] = []
        if let article = call.failedArticle { parts.append(l.t("failed dive ({article})", ["article": article])) }
        if call.restart { parts.append(l.t("re-start, −2 (6.5.1)")) }
        if call.capHalfPoints == 4 { parts.append(l.t("position other than announced, max 2 (6.4.13)")) }
        if call.capHalfPoints == 9 { parts.append(l.t("arms at entry, max 4½ (6.5.8)")) }
        if call.unsafe { parts.append(l.t("unsafe dive, max 2 (8.5.4)")) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private func renderCalled(_ meet: MeetConsoleViewModel.Loaded, into surface: Surface, rect: Rect, _ context: RenderContext) {
        let l = context.localizer
        let ascii = context.glyphs.ascii
        guard let called = viewModel.calledDive else {
            surface.write(noDive(l), x: rect.x + 1, y: rect.y, style: Style(.muted), clip: rect)
            return
        }
        let calls = meet.calls
        let position = calls.firstIndex(of: MeetState.Call(diver: called.entrant.diver, round: called.planned.round)).map { $0 + 1 } ?? 0
        let rounds = meet.rounds
        var first = l.t("Round {round} of {rounds} · dive {n} of {count}", ["round": String(called.planned.round), "rounds": String(rounds),
                                                                           "n": String(position), "count": String(calls.count)])
        first += " · "
        let x = surface.write(first, x: rect.x + 1, y: rect.y, style: Style(.muted), clip: rect)
        var name = called.entrant.diver
        if !called.entrant.club.isEmpty { name += " (\(called.entrant.club))" }
        let after = surface.write(TerminalText.inert(name), x: x, y: rect.y, style: Style(.title, [.bold]), clip: rect)
        if let reason = meet.state.withdrawal(of: called.entrant.diver) {
            surface.write("  " + l.t("withdrawn: {reason}", ["reason": TerminalText.inert(reason)]), x: after, y: rect.y, style: Style(.warn), clip: rect)
        }
        let planned = called.planned
        let diveName = (try? DiveCode(parsing: planned.code))?.name(l) ?? ""
        let height = DiveHeight(rawValue: planned.height)?.label(l) ?? planned.height
        let line2 = "\(planned.code)  \(diveName) · \(height) · " + l.t("DD {dd}", ["dd": DegreeOfDifficulty.format(tenths: planned.ddTenths, l)])
        surface.write(line2, x: rect.x + 1, y: rect.y + 1, style: Style(.text), clip: rect)
        let row3 = Rect(x: rect.x + 1, y: rect.y + 2, width: max(0, rect.width - 2), height: 1)
        let row4 = Rect(x: rect.x + 1, y: rect.y + 3, width: max(0, rect.width - 2), height: 1)
        switch mode {
        case .typingAwards(let draft, let field):
            let label = draft.correcting ? l.t("Corrected awards:") : draft.award.attempt > 1 ? l.t("Awards, attempt {n}:", ["n": String(draft.award.attempt)]) : l.t("Awards:")
            let start = surface.write(label + " ", x: row3.x, y: row3.y, style: Style(.accent, [.bold]), clip: row3)
            TextField().render(field, into: surface, rect: Rect(x: start, y: row3.y, width: max(1, row3.maxX - start), height: 1), focused: true)
            surface.write(l.n("{count} award in judge order; - for a missing one (7.9, 7.10)", "{count} awards in judge order; - for a missing one (7.9, 7.10)",
                              count: meet.state.setup.judges), x: row4.x, y: row4.y, style: Style(.muted), clip: row4)
        case .readingBack(let draft), .choosingFailure(let draft, _), .writing(back: .readingBack(let draft)):
            renderReadBack(draft, planned: planned, meet: meet, row3: row3, row4: row4, surface, context)
        case .typingDive(_, let round, let field):
            let start = surface.write(l.t("New dive for round {round}:", ["round": String(round)]) + " ", x: row3.x, y: row3.y, style: Style(.accent, [.bold]), clip: row3)
            TextField(placeholder: "5253B 3").render(field, into: surface, rect: Rect(x: start, y: row3.y, width: max(1, row3.maxX - start), height: 1), focused: true)
            switch MeetDiveEntry.parse(field.text, eventHeight: meet.state.setup.height) {
            case .success(let entry):
                // What the changed sheet would break and a DD the sheet claims wrongly, said first
                // (a narrow screen cuts the end of the line), then the dive.
                var warnings = brokenRules(entry, round: round, meet: meet, l)
                if entry.claimMismatch, let claimed = entry.claimedTenths {
                    warnings.append(l.t("the sheet claims {dd}: the formula's DD counts", ["dd": DegreeOfDifficulty.format(tenths: claimed, l)]))
                }
                let dive = "\(entry.code.text)  \(entry.code.name(l)) · \(entry.height.label(l)) · " + l.t("DD {dd}", ["dd": DegreeOfDifficulty.format(tenths: entry.ddTenths, l)])
                surface.write((warnings + [dive]).joined(separator: " · ").truncated(toWidth: row4.width, ellipsis: context.glyphs.ellipsis),
                              x: row4.x, y: row4.y, style: Style(warnings.isEmpty ? .good : .warn), clip: row4)
            case .failure(let problem):
                surface.write(problem.message(l), x: row4.x, y: row4.y, style: Style(.muted), clip: row4)
            }
        case .typingReason(let purpose, let field), .writing(back: .typingReason(let purpose, let field)):
            let label: String
            switch purpose {
            case .correction: label = l.t("Why the correction:")
            case .withdrawal(let diver): label = l.t("Why {diver} withdraws:", ["diver": diver])
            case .change(_, let dive):
                label = l.t("Why the change to {code}:", ["code": dive.code])
            }
            let start = surface.write(label + " ", x: row3.x, y: row3.y, style: Style(.accent, [.bold]), clip: row3)
            TextField().render(field, into: surface, rect: Rect(x: start, y: row3.y, width: max(1, row3.maxX - start), height: 1),
                               focused: mode.capturesText)
            // A change that breaks a rule of the pack says so again, where the reason is typed.
            if case .change(_, let dive) = purpose, case .success(let entry) = MeetDiveEntry.parse("\(dive.code) \(dive.height)", eventHeight: nil),
               let broken = brokenRules(entry, round: dive.round, meet: meet, l).first {
                surface.write(broken.truncated(toWidth: row4.width, ellipsis: context.glyphs.ellipsis), x: row4.x, y: row4.y, style: Style(.warn), clip: row4)
            } else {
                surface.write(l.t("The protocol shows it beside the decision."), x: row4.x, y: row4.y, style: Style(.muted), clip: row4)
            }
        default:
            guard let latest = called.latest else {
                if let sent = viewModel.padAwards {
                    // What each seat sent, for the referee alone (13.3.2.7); "…" for a silent one.
                    let seats = (1...max(1, meet.state.setup.judges)).map { seat in
                        "\(seat) " + (sent[seat].map { Self.award($0, ascii: ascii, l) } ?? context.glyphs.ellipsis)
                    }
                    let x = surface.write(l.t("On the pads:") + " ", x: row3.x, y: row3.y, style: Style(.accent, [.bold]), clip: row3)
                    surface.write(seats.joined(separator: "  "), x: x, y: row3.y, style: Style(.text), clip: row3)
                    let silent = (1...max(1, meet.state.setup.judges)).filter { sent[$0] == nil }
                    let hint = silent.isEmpty ? l.t("Every seat has sent its award: Enter reads them back.")
                        : MeetError.silentSeats(silent).localized(l)
                    surface.write(hint.truncated(toWidth: row4.width, ellipsis: context.glyphs.ellipsis), x: row4.x, y: row4.y,
                                  style: Style(silent.isEmpty ? .good : .muted), clip: row4)
                    return
                }
                surface.write(l.t("No awards yet: Enter types them."), x: row3.x, y: row3.y, style: Style(.muted), clip: row3)
                return
            }
            var text = l.t("Awards:") + " " + latest.awards.map { Self.award($0, ascii: ascii, l) }.joined(separator: "  ")
            if latest.attempt > 1 { text += "  " + l.t("(attempt {n})", ["n": String(latest.attempt)]) }
            if let call = Self.callText(latest.call, l) { text += " · " + call }
            surface.write(text, x: row3.x, y: row3.y, style: Style(.text), clip: row3)
            if let row = meet.results.rows.first(where: { $0.diver == called.entrant.diver }),
               let dive = row.dives.first(where: { $0.planned.round == called.planned.round }), let score = dive.score {
                let line = l.t("Score {score} · total {total} · place {place}", ["score": Self.points(score.hundredths, l),
                                                                               "total": Self.points(row.totalHundredths, l), "place": String(row.place)])
                surface.write(line, x: row4.x, y: row4.y, style: Style(.good, [.bold]), clip: row4)
            }
        }
    }

    /// The rules of the pack the called diver's sheet would break with `entry` in `round`, and a
    /// height the event is not dived at.
    private func brokenRules(_ entry: MeetDiveEntry, round: Int, meet: MeetConsoleViewModel.Loaded, _ l: Localizer) -> [String] {
        if let event = meet.state.setup.height, entry.height.rawValue != event {
            return [MeetError.wrongHeight(code: entry.code.text, height: entry.height.rawValue, event: event).localized(l)]
        }
        guard let pack = meet.pack, var entrant = viewModel.calledDive?.entrant else { return [] }
        let dive = PlannedDive(round: round, code: entry.code.text, height: entry.height.rawValue, ddTenths: pack.ddTenths(round: round, formula: entry.ddTenths))
        entrant.dives = entrant.dives.map { $0.round == round ? dive : $0 }
        let before = Set(viewModel.calledDive.map { pack.check($0.entrant, height: meet.state.setup.height, language: l.language).map(\.rule) } ?? [])
        return pack.check(entrant, height: meet.state.setup.height, language: l.language)
            .filter { !before.contains($0.rule) }
            .map { "\($0.says) (\($0.article))" }
    }

    private func renderReadBack(_ draft: AwardDraft, planned: PlannedDive, meet: MeetConsoleViewModel.Loaded, row3: Rect, row4: Rect,
                                _ surface: Surface, _ context: RenderContext) {
        let l = context.localizer
        let ascii = context.glyphs.ascii
        let judges = draft.award.awards.enumerated().map { l.t("J{n}", ["n": String($0.offset + 1)]) + " " + Self.award($0.element, ascii: ascii, l) }
        let start = surface.write(l.t("Read back:") + " ", x: row3.x, y: row3.y, style: Style(.accent, [.bold]), clip: row3)
        surface.write(judges.joined(separator: "  "), x: start, y: row3.y, style: Style(.text, [.bold]), clip: row3)
        // The score first: a long call must not push it off a narrow screen.
        let call = Self.callText(draft.award.call, l).map { l.t("Call: {call}", ["call": $0]) } ?? l.t("Call: none")
        let line: String
        do {
            let score = try MeetDiveScore.compute(given: draft.award.awards, call: draft.award.call, difficultyTenths: planned.ddTenths, synchro: meet.state.setup.synchro)
            line = l.t("score {score}", ["score": Self.points(score.hundredths, l)]) + " · " + call
        } catch let error as PanelScoreError {
            line = error.message(l)
        } catch {
            line = call
        }
        surface.write(line.truncated(toWidth: row4.width, ellipsis: context.glyphs.ellipsis), x: row4.x, y: row4.y,
                      style: Style(draft.award.call.isNone ? .muted : .warn), clip: row4)
    }

    /// Rows above the failed-dive list for the chosen penalty's whole text.
    static let failureTextRows = 3

    private func renderFailures(into surface: Surface, rect: Rect, _ context: RenderContext) {
        let l = context.localizer
        // The chosen penalty in full, then the list, one line each.
        if failures.indices.contains(failureList.selected) {
            let penalty = failures[failureList.selected]
            let text = penalty.articles.joined(separator: ", ") + "  " + penalty.description.text(l.language)
            for (i, line) in WordWrap.wrap(text, width: max(1, rect.width - 2)).prefix(Self.failureTextRows).enumerated() {
                surface.write(line, x: rect.x + 1, y: rect.y + i, style: Style(.accent), clip: rect)
            }
        }
        let list = Rect(x: rect.x, y: rect.y + Self.failureTextRows, width: rect.width, height: max(0, rect.height - Self.failureTextRows))
        for row in 0..<list.height {
            let index = failureList.offset + row
            guard failures.indices.contains(index) else { break }
            let penalty = failures[index]
            let selected = index == failureList.selected
            let text = (selected ? context.glyphs.pointer : " ") + " " + (penalty.articles.first ?? "") + "  " + penalty.description.text(l.language)
            let style = selected ? Style(.selection) : Style(.text)
            if selected { surface.fill(Rect(x: list.x, y: list.y + row, width: list.width, height: 1), style: style) }
            surface.write(text.truncated(toWidth: list.width, ellipsis: context.glyphs.ellipsis), x: list.x, y: list.y + row, style: style, clip: list)
            if selected { surface.parkCursor(x: list.x, y: list.y + row) }
        }
    }

    private func renderRanking(_ meet: MeetConsoleViewModel.Loaded, into surface: Surface, rect: Rect, _ context: RenderContext) {
        guard rect.height > 0 else { return }
        let l = context.localizer
        let results = meet.results
        let rounds = meet.roundNumbers
        let showRounds = rect.width >= 60 + rounds.count * 8
        let hasCut = results.cut != nil
        // Columns: place, diver, [rounds], total, needs for 1st, 3rd, cut.
        var right: [(String, (MeetResults.Row) -> String, Int)] = []
        if showRounds {
            for round in rounds {
                right.append((l.t("R{n}", ["n": String(round)]), { row in
                    row.dives.first { $0.planned.round == round }?.score.map { Self.points($0.hundredths, l) } ?? ""
                }, 7))
            }
        }
        right.append((l.t("Total"), { Self.points($0.totalHundredths, l) }, 8))
        right.append((l.t("For 1st"), { results.needs($0).first.map { Self.points($0, l) } ?? "" }, 8))
        right.append((l.t("For 3rd"), { results.needs($0).third.map { Self.points($0, l) } ?? "" }, 8))
        if hasCut { right.append((l.t("For cut"), { results.needs($0).cut.map { Self.points($0, l) } ?? "" }, 8)) }
        let rightWidth = right.reduce(0) { $0 + $1.2 + 1 }
        let nameWidth = max(6, rect.width - 5 - rightWidth - 1)
        func draw(_ cells: [String], y: Int, style: Style) {
            var x = rect.x
            surface.write(cells[0].padded(toWidth: 4, alignment: .right), x: x, y: y, style: style, clip: rect)
            x += 5
            surface.write(cells[1].truncated(toWidth: nameWidth, ellipsis: context.glyphs.ellipsis), x: x, y: y, style: style, clip: rect)
            x += nameWidth + 1
            for (index, column) in right.enumerated() {
                surface.write(cells[index + 2].padded(toWidth: column.2, alignment: .right), x: x, y: y, style: style, clip: rect)
                x += column.2 + 1
            }
        }
        draw([l.t("Pl"), l.t("Diver")] + right.map(\.0), y: rect.y, style: Style(.muted, [.bold]))
        let called = viewModel.called?.diver
        for line in 0..<max(0, rect.height - 1) {
            let index = rankingOffset + line
            guard results.rows.indices.contains(index) else { break }
            let row = results.rows[index]
            var name = row.diver
            if !row.club.isEmpty && nameWidth >= 30 { name += " · " + row.club }
            if row.withdrawn { name += " " + l.t("(withdrawn)") }
            let isCalled = row.diver == called
            let y = rect.y + 1 + line
            if isCalled { surface.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: Style(.selection)) }
            let place = row.dives.contains { $0.score != nil } ? String(row.place) : ""
            draw([place, TerminalText.inert(name)] + right.map { $0.1(row) }, y: y,
                 style: isCalled ? Style(.selection) : Style(row.withdrawn ? .muted : .text))
            if isCalled { surface.parkCursor(x: rect.x, y: y) }
        }
    }
}
