import Foundation
@testable import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

/// The meet console's modes and keys, in memory on a real meet folder: what a decision's outcome
/// does to the mode (one pure function), and keys that read back, refuse, and say why.
final class MeetScreenTests: XCTestCase {
    var folder: URL!
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("meet-screen-\(UUID().uuidString)")
        let journal = MeetJournal(directory: folder)
        try journal.create(MeetSetup(event: "Women 3 m", pack: "wa2024-individual-women", judges: 5, synchro: false, height: "3"), at: "t")
        let sheets = "diver,club,round,code,height\nAda,A,1,105B,3\nAda,A,2,203C,3\nBea,B,1,105B,3\nBea,B,2,203C,3"
        try journal.append(.entered(try MeetSheetCSV.read(sheets, eventHeight: "3")), at: "t")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testTheModeAfterAnOutcomeIsOnePureFunction() {
        let draft = AwardDraft(diver: "Ada", round: 1, attempt: 1, correcting: false, text: "7 7 7 7 7", awards: [14, 14, 14, 14, 14])
        let reading = MeetConsoleMode.readingBack(draft)
        let reason = MeetConsoleMode.typingReason(.withdrawal(diver: "Ada"), field: TextFieldState("injury"))
        let recorded = MeetConsoleViewModel.Outcome.recorded("Recorded")
        let refused = MeetConsoleViewModel.Outcome.refused("Attempt 1 already has its awards")
        let table: [(MeetConsoleMode, MeetConsoleViewModel.Outcome, MeetConsoleMode)] = [
            (.writing(back: reading), recorded, .browsing),
            (.writing(back: reading), refused, reading),
            (.writing(back: reason), recorded, .browsing),
            (.writing(back: reason), refused, reason),
            // Outcomes of decisions not sent from this mode (an undo, another console) leave it alone.
            (.browsing, recorded, .browsing),
            (reading, refused, reading),
            (.typingAwards(draft, field: TextFieldState("7 7")), recorded, .typingAwards(draft, field: TextFieldState("7 7"))),
            (.choosingFailure(draft, selected: 2), refused, .choosingFailure(draft, selected: 2)),
            (.typingDive(diver: "Ada", round: 2, field: TextFieldState("5253B")), recorded, .typingDive(diver: "Ada", round: 2, field: TextFieldState("5253B"))),
        ]
        for (mode, outcome, expected) in table {
            XCTAssertEqual(MeetConsoleMode.next(mode, after: outcome), expected, "\(mode) after \(outcome)")
        }
    }

    func makeShell(_ language: Language = .en) -> (Shell, MeetScreen, BackgroundWork) {
        let localizer = Localizer(directory: Self.root.appendingPathComponent("Localization"), language: language)
        let work = BackgroundWork()
        let viewModel = MeetConsoleViewModel(directory: folder, packsDirectory: MeetPack.directory(Self.root), localizer: localizer, work: work)
        viewModel.reload()
        XCTAssertTrue(work.waitUntilIdle())
        let screen = MeetScreen(viewModel: viewModel, failures: [])
        let shellModel = ShellViewModel(localizer: localizer, repository: JSONRepository<Settings>(url: folder.appendingPathComponent("settings.json")),
                                        choices: StartupChoices(language: language), writable: true)
        return (Shell(viewModel: shellModel, console: screen, title: { $0.t("Meet") }, glyphs: .unicode), screen, work)
    }

    func screen(_ shell: Shell, _ width: Int = 80, _ height: Int = 24) -> String {
        let surface = MemorySurface(width: width, height: height)
        shell.render(into: surface)
        return surface.text
    }

    func type(_ shell: Shell, _ text: String) {
        for character in text { _ = shell.handle(.character(character), size: Size(width: 80, height: 24)) }
    }

    func key(_ shell: Shell, _ key: Key) { _ = shell.handle(key, size: Size(width: 80, height: 24)) }

    func testAwardsAreReadBackThenRecordedAndTheNextDiveIsCalled() throws {
        let (shell, screen, work) = makeShell()
        XCTAssertTrue(self.screen(shell).contains("Round 1 of 2 · dive 1 of 4 · Ada (A)"), self.screen(shell))
        key(shell, .enter)
        type(shell, "7 7.5 6,5 x 7")
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("Read back: J1 7  J2 7.5  J3 6.5  J4 —  J5 7"), self.screen(shell))
        key(shell, .character("r"))
        XCTAssertTrue(self.screen(shell).contains("score 36.00 · Call: re-start, −2 (6.5.1)"), self.screen(shell))
        key(shell, .enter)
        guard case .writing = screen.mode else { return XCTFail("\(screen.mode)") }
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(screen.mode, .browsing)
        let after = self.screen(shell)
        XCTAssertTrue(after.contains("Recorded: Ada, round 1: 36.00; total 36.00, place 1."), after)
        XCTAssertTrue(after.contains("dive 2 of 4 · Bea (B)"), after)
        XCTAssertEqual(try MeetJournal(directory: folder).read().lines.count, 3, "on disk before the console said so")
    }

    /// u then Ctrl-R typed before the undo is written (a fast referee, or a loaded machine, as
    /// the end-to-end test met it): the redo waits behind the undo instead of being refused.
    func testARedoTypedWhileTheUndoIsBeingWrittenRedoesIt() throws {
        let (shell, screen, work) = makeShell()
        key(shell, .enter)
        type(shell, "7 7 7 7 7")
        key(shell, .enter)
        key(shell, .enter)
        XCTAssertTrue(work.waitUntilIdle())
        let before = try MeetJournal(directory: folder).read().lines.count
        key(shell, .character("u"))
        key(shell, .control("r"))                                        // before the undo is written
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(work.waitUntilIdle())
        let lines = try MeetJournal(directory: folder).read().lines
        XCTAssertEqual(lines.count, before + 2, "the undo and the redo are both in the journal")
        XCTAssertTrue(self.screen(shell).contains("Redone:"), self.screen(shell))
        _ = screen
    }

    /// A key typed while a decision is being written waits for it (as the writing mode's help
    /// says) instead of being lost: u right after recording undoes what was recorded.
    func testAKeyTypedWhileADecisionIsWrittenActsOnceItIs() throws {
        let (shell, screen, work) = makeShell()
        // Every outcome, as the screen gets it: the undo is written once, not once more after
        // the award's outcome (which used to start the queued write a second time; that second
        // undo was refused, and which message stayed on screen depended on the threads).
        var outcomes: [MeetConsoleViewModel.Outcome] = []
        let screenTakes = screen.viewModel.onOutcome
        screen.viewModel.onOutcome = { outcome in
            outcomes.append(outcome)
            screenTakes?(outcome)
        }
        let before = try MeetJournal(directory: folder).read().lines.count
        key(shell, .enter)
        type(shell, "7 7 7 7 7")
        key(shell, .enter)
        key(shell, .enter)                                               // record: the write starts
        guard case .writing = screen.mode else { return XCTFail("\(screen.mode)") }
        key(shell, .character("u"))                                      // typed before it is on disk
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(try MeetJournal(directory: folder).read().lines.count, before + 2, "the award, then its undo")
        XCTAssertEqual(outcomes.count, 2, "\(outcomes)")
        XCTAssertFalse(outcomes.contains { if case .refused = $0 { return true } else { return false } }, "\(outcomes)")
        XCTAssertTrue(self.screen(shell).contains("Undone:"), self.screen(shell))
    }

    func testWrongAwardsAreRefusedWhereTheyAreTypedAndNothingIsRecorded() throws {
        let (shell, screen, _) = makeShell()
        key(shell, .enter)
        type(shell, "7 7 7")
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("This panel has 5 judges: give 5 awards (3 given)."), self.screen(shell))
        guard case .typingAwards(_, let field) = screen.mode else { return XCTFail("\(screen.mode)") }
        XCTAssertEqual(field.text, "7 7 7", "what was typed stays")
        type(shell, " 7 11")
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("“11” is not an award"), self.screen(shell))
        type(shell, "q")
        XCTAssertFalse(shell.isAskingToQuit, "q is typed, not a quit, while the awards are typed")
        // Right at last: the read-back no longer carries the refusal of the try before.
        key(shell, .control("u"))
        type(shell, "7 7 7 7 7")
        key(shell, .enter)
        XCTAssertFalse(self.screen(shell).contains("is not an award"), self.screen(shell))
        key(shell, .escape)
        XCTAssertEqual(screen.mode, .browsing)
        XCTAssertEqual(try MeetJournal(directory: folder).read().lines.count, 2)
        // Keys that cannot act say why.
        key(shell, .character("c"))
        XCTAssertTrue(self.screen(shell).contains("The called dive has no awards to correct."), self.screen(shell))
        key(shell, .character("u"))
        XCTAssertTrue(self.screen(shell).contains("Nothing to undo."), self.screen(shell))
    }

    func testAnAwardRecordedElsewhereFirstIsRefusedAndTheTypedAwardsComeBack() throws {
        let (shell, screen, work) = makeShell()
        key(shell, .enter)
        type(shell, "7 7 7 7 7")
        key(shell, .enter)
        // Another process records Ada's round 1 first.
        try MeetJournal(directory: folder).append(.awarded(MeetAward(diver: "Ada", round: 1, attempt: 1, awards: [12, 12, 12, 12, 12], call: .none)), at: "t")
        key(shell, .enter)
        XCTAssertTrue(work.waitUntilIdle())
        guard case .readingBack(let draft) = screen.mode else { return XCTFail("\(screen.mode)") }
        XCTAssertEqual(draft.award.awards, [14, 14, 14, 14, 14])
        XCTAssertTrue(self.screen(shell).contains("Attempt 1 of Ada's round 1 already has its awards"), self.screen(shell))
    }

    func testHalvesTypedAsTheCardsShowThemAndACorrectionAsksWhyOnScreen() throws {
        let (shell, screen, work) = makeShell()
        key(shell, .enter)
        type(shell, "7½ 7 ½ 7 x")
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("Read back: J1 7.5  J2 7  J3 0.5  J4 7  J5 —"), self.screen(shell))
        key(shell, .enter)
        XCTAssertTrue(work.waitUntilIdle())
        key(shell, .character("k"))                       // back to Ada's round 1
        key(shell, .character("c"))
        key(shell, .enter)
        key(shell, .enter)
        guard case .typingReason(.correction, _) = screen.mode else { return XCTFail("\(screen.mode)") }
        type(shell, "wrong card")
        XCTAssertTrue(self.screen(shell).contains("Why the correction: wrong card"), self.screen(shell))
    }

    func testPageKeysCallTheSameDiversOtherRound() throws {
        let (shell, _, _) = makeShell()
        key(shell, .pageDown)
        XCTAssertTrue(self.screen(shell).contains("Round 2 of 2 · dive 3 of 4 · Ada (A)"), self.screen(shell))
        key(shell, .pageUp)
        XCTAssertTrue(self.screen(shell).contains("Round 1 of 2 · dive 1 of 4 · Ada (A)"), self.screen(shell))
        key(shell, .end)
        XCTAssertTrue(self.screen(shell).contains("dive 4 of 4 · Bea (B)"), self.screen(shell))
    }

    func testAPadSendsAgainTheAwardItWasKilledWithAndTheJournalTakesItOnce() throws {
        let journal = MeetJournal(directory: folder)
        try journal.append(at: "t") { lines in [try MeetState(lines: lines, path: "").call(diver: "Ada", round: 1)] }
        // A pad killed between Enter and the journal left its award pending.
        let dive = MeetState.CalledDive(diver: "Ada", round: 1, attempt: 1)
        try JSONEncoder().encode(MeetPadViewModel.Pending(dive: dive, award: 15)).write(to: folder.appendingPathComponent("seat-2.pending"))
        let localizer = Localizer(directory: Self.root.appendingPathComponent("Localization"), language: .en)
        let work = BackgroundWork()
        let pad = MeetPadViewModel(directory: folder, seat: 2, localizer: localizer, work: work)
        pad.start()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(pad.called?.sent, 15)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("seat-2.pending").path))
        // Started again with the same pending award (the journal had it already): nothing twice.
        try JSONEncoder().encode(MeetPadViewModel.Pending(dive: dive, award: 15)).write(to: folder.appendingPathComponent("seat-2.pending"))
        let again = MeetPadViewModel(directory: folder, seat: 2, localizer: localizer, work: work)
        again.start()
        XCTAssertTrue(work.waitUntilIdle())
        let judged = try journal.read().lines.filter { if case .judged = $0.entry { return true } else { return false } }
        XCTAssertEqual(judged.count, 1)
        // The pad shows the called dive and its own award, never another seat's.
        let screen = JudgePadScreen(viewModel: again)
        let surface = MemorySurface(width: 40, height: 9)
        screen.render(into: surface, rect: surface.bounds, context: RenderContext(localizer: localizer, glyphs: .unicode))
        XCTAssertTrue(surface.text.contains("Sent: 7.5 — waiting for the"), surface.text)
    }

    func testAnAwardAPadSendsAfterTheRefereeFilledTheSeatsInTakesItsPlace() throws {
        let journal = MeetJournal(directory: folder)
        try journal.append(at: "t") { lines in [try MeetState(lines: lines, path: "").call(diver: "Ada", round: 1)] }
        let dive = MeetState.CalledDive(diver: "Ada", round: 1, attempt: 1)
        for seat in 1...4 { try journal.append(at: "t") { lines in try MeetState(lines: lines, path: "").judge(seat: seat, dive: dive, award: 14) } }
        let (shell, screen, work) = makeShell()
        XCTAssertTrue(self.screen(shell).contains("On the pads: 1 7  2 7  3 7  4 7  5 …"), self.screen(shell))
        key(shell, .enter)                                       // seat 5 filled in as missing
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("J5 —"), self.screen(shell))
        // Seat 5 sends now, while the referee reads back.
        try journal.append(at: "t") { lines in try MeetState(lines: lines, path: "").judge(seat: 5, dive: dive, award: 19) }
        screen.viewModel.reload()
        XCTAssertTrue(work.waitUntilIdle())
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("Arrived from the pads since: seat 5: 9.5. Enter records."), self.screen(shell))
        XCTAssertTrue(self.screen(shell).contains("J5 9.5"), self.screen(shell))
        key(shell, .enter)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(screen.viewModel.meet?.state.awards.first?.awards, [14, 14, 14, 14, 19])
    }

    /// A pad's award is never typed over (13.3.2.7): the read-back shows the pads' awards, and
    /// its score is the one recorded. Typed over, it showed "J1 1" and a score the journal refused.
    func testThePadsAwardsStandInTheReadBackOverTypedOnes() throws {
        let journal = MeetJournal(directory: folder)
        try journal.append(at: "t") { lines in [try MeetState(lines: lines, path: "").call(diver: "Ada", round: 1)] }
        let dive = MeetState.CalledDive(diver: "Ada", round: 1, attempt: 1)
        for (seat, award) in [(1, 15), (2, 13), (3, 15)] {
            try journal.append(at: "t") { lines in try MeetState(lines: lines, path: "").judge(seat: seat, dive: dive, award: award) }
        }
        let (shell, screen, work) = makeShell()
        key(shell, .enter)
        key(shell, .control("u"))
        for c in "1 1 1 8 8" { key(shell, .character(c)) }
        // Seat 4 sends while the referee types its flash card.
        try journal.append(at: "t") { lines in try MeetState(lines: lines, path: "").judge(seat: 4, dive: dive, award: 18) }
        screen.viewModel.reload()
        XCTAssertTrue(work.waitUntilIdle())
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("J1 7.5  J2 6.5  J3 7.5  J4 9  J5 8"), self.screen(shell))
        key(shell, .enter)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(screen.viewModel.meet?.state.awards.first?.awards, [15, 13, 15, 18, 16])
    }

    /// A pad at its smallest (40 columns) shows every award and the score of the dive accepted
    /// last; a long name gives way (it cut the awards off: "Last: Zoë Ñúñez-Łukasiewicz 李, t…").
    func testAPadAtFortyColumnsShowsTheLastDivesAwardsWhole() throws {
        let journal = MeetJournal(directory: folder)
        let name = "Zoë Ñúñez-Łukasiewicz 李"
        try journal.append(.entered(try MeetSheetCSV.read("diver,club,round,code,height\n\(name),Z,1,105B,3", eventHeight: "3")), at: "t")
        try journal.append(.awarded(MeetAward(diver: name, round: 1, attempt: 1, awards: [15, 13, 15, 18, 14], call: .none)), at: "t")
        let localizer = Localizer(directory: Self.root.appendingPathComponent("Localization"), language: .fr)
        let work = BackgroundWork()
        let pad = MeetPadViewModel(directory: folder, seat: 1, localizer: localizer, work: work)
        pad.start()
        XCTAssertTrue(work.waitUntilIdle())
        let surface = MemorySurface(width: 40, height: 12)
        JudgePadScreen(viewModel: pad).render(into: surface, rect: surface.bounds, context: RenderContext(localizer: localizer, glyphs: .unicode))
        let bottom = surface.lines[11]
        XCTAssertTrue(bottom.hasSuffix("7,5 6,5 7,5 9 7 = 52,80"), bottom)
        XCTAssertTrue(bottom.contains("Zoë"), "as much of the name as fits: \(bottom)")
    }

    /// A late change that breaks a rule of the pack says so first on its line (a narrow screen
    /// cut it), and again where the reason is typed, before Enter records it.
    func testALateChangeThatBreaksARuleSaysSoUntilItIsRecorded() throws {
        let journal = MeetJournal(directory: folder)
        let sheet = "diver,club,round,code,height\nCat,C,1,105B,3\nCat,C,2,203C,3\nCat,C,3,305C,3\nCat,C,4,403B,3\nCat,C,5,5132D,3"
        try journal.append(.entered(try MeetSheetCSV.read(sheet, eventHeight: "3")), at: "t")
        try journal.append(.drawn(seed: 1, order: ["Cat", "Ada", "Bea"]), at: "t")
        let (shell, _, _) = makeShell()
        key(shell, .character("e"))
        type(shell, "5253B 3 3.2")
        XCTAssertTrue(self.screen(shell).contains(" On springboard, the 5 dives come from 5 different groups. (3.4.1)"), self.screen(shell))
        key(shell, .enter)
        XCTAssertTrue(self.screen(shell).contains("Why the change to 5253B:"), self.screen(shell))
        XCTAssertTrue(self.screen(shell).contains("(3.4.1)"), "said again before it is recorded: \(self.screen(shell))")
    }

    /// The referee's calls are keys of the read-back: where the footer has room, it shows them.
    func testTheReadBacksFooterShowsTheRefereesCallsWhereThereIsRoom() throws {
        let (shell, _, _) = makeShell()
        key(shell, .enter)
        type(shell, "7 7 7 7 7")
        key(shell, .enter)
        let footer = screen(shell, 200, 40).split(separator: "\n").last.map(String.init) ?? ""
        for hint in ["p position", "a arms", "s unsafe", "0 no call", "Esc cancel"] { XCTAssertTrue(footer.contains(hint), footer) }
        let narrow = screen(shell).split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(narrow.contains("Enter record") && narrow.contains("r re-start"), "the calls give way first: \(narrow)")
    }

    func testTheConsoleFitsEverySizeFromTheMinimumUp() {
        let (shell, _, _) = makeShell(.fr)
        for (width, height) in [(60, 20), (80, 24), (200, 60)] {
            let text = screen(shell, width, height)
            XCTAssertTrue(text.contains("Ada"), "\(width)×\(height)\n\(text)")
            XCTAssertTrue(text.split(separator: "\n").allSatisfy { String($0).displayWidth <= width })
        }
        XCTAssertTrue(screen(shell, 59, 19).contains("59×19"), "below the minimum the shell asks for more room")
    }
}
