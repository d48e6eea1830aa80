import Foundation
import XCTest
@testable import LockerKit

/// A meet's scores, places and journal: the rule book's worked examples to the hundredth
/// (competition.md §b.5), the referee's calls applied to each award before cancellation, shared
/// places, and a journal that detects any edit and loses no line.
final class MeetScoringTests: XCTestCase {
    /// Half points of "7.5" style awards; "-" is a missing award.
    func halves(_ text: String) -> [Int?] {
        text.split(separator: " ").map { $0 == "-" ? nil : Int((Double($0)! * 2).rounded()) }
    }

    func score(_ awards: String, dd: Int, synchro: Bool = false, call: RefereeCall = .none) throws -> String {
        PanelScore.formatHundredths(try MeetDiveScore.compute(given: halves(awards), call: call, difficultyTenths: dd, synchro: synchro).hundredths)
    }

    func testTheRuleBooksWorkedExamples() throws {
        XCTAssertEqual(try score("8.0 7.5 7.5 7.5 7.0", dd: 20), "45.00")
        XCTAssertEqual(try score("6.5 7.0 6.0 7.0 6.5", dd: 24), "48.00")
        XCTAssertEqual(try score("8.0 7.5 7.5 7.5 7.5 7.5 7.0", dd: 20), "45.00")
        XCTAssertEqual(try score("8.0 8.5 7.5 8.0 9.0 8.0 7.5", dd: 34), "81.60")
        // Synchro: 9 judges (2 + 2 execution pooled, 5 synchronisation), then 11 (3 + 3 + 5).
        XCTAssertEqual(try score("7.0 6.5 5.5 5.5 8.5 8.0 8.0 7.5 7.5", dd: 28, synchro: true), "59.64")
        XCTAssertEqual(try score("7.0 6.5 6.0 5.5 5.5 7.0 8.0 8.0 7.5 8.0 7.0", dd: 28, synchro: true), "59.64")
        XCTAssertEqual(try score("6.0 7.0 6.5 6.5 7.0 7.0 7.0 7.0 7.0", dd: 30, synchro: true), "61.20")
        // A synchro round 1 or 2 at the assigned DD of 2.0 (3.6.3).
        XCTAssertEqual(try score("7.0 7.5 7.0 7.0 7.5 8.0 8.0 7.5 8.0", dd: 20, synchro: true), "45.00")
    }

    func testTheRefereesCallsChangeEachAwardBeforeCancellation() throws {
        // A re-start: 2 off every award (6.5.1): 81.60 becomes 61.20; synchro 59.64 becomes 42.84.
        XCTAssertEqual(try score("8.0 8.5 7.5 8.0 9.0 8.0 7.5", dd: 34, call: RefereeCall(restart: true)), "61.20")
        XCTAssertEqual(try score("7.0 6.5 5.5 5.5 8.5 8.0 8.0 7.5 7.5", dd: 28, synchro: true, call: RefereeCall(restart: true)), "42.84")
        // Never below 0.
        XCTAssertEqual(try score("1.5 1.0 0.5 1.0 1.5", dd: 20, call: RefereeCall(restart: true)), "0.00")
        // A position other than announced: maximum 2 (6.4.13).
        XCTAssertEqual(try score("3.0 2.5 2.0 3.5 2.0", dd: 24, call: RefereeCall(capHalfPoints: 4)), "14.40")
        // The unsafe majority (8.5.4): every award above 2 becomes 2.
        XCTAssertEqual(try score("2.0 1.5 2.0 2.0 5.0 4.5 6.0", dd: 30, call: RefereeCall(unsafe: true)), "18.00")
        // Arms at entry: maximum 4½ (6.5.8).
        XCTAssertEqual(try score("6.0 5.0 4.5 5.5 6.0", dd: 20, call: RefereeCall(capHalfPoints: 9)), "27.00")
        // A failed dive scores nothing, whatever the awards.
        XCTAssertEqual(try score("7.0 7.0 7.0 7.0 7.0", dd: 20, call: RefereeCall(failedArticle: "6.4.12")), "0.00")
    }

    func testAMissingAwardIsTheRoundedAverageAtTheEdgesOfItsRounding() throws {
        // 7.0 7.5 7.5 7.0 → 7.25 → 7.5 (.25 goes to the half); 7.5 8.0 8.0 8.0 → 7.875 → 8.0 (.75 up).
        let quarter = try MeetDiveScore.compute(given: halves("7.0 7.5 - 7.5 7.0"), call: .none, difficultyTenths: 20, synchro: false)
        XCTAssertEqual(quarter.panel.awards[2].halfPoints, 15)
        let threeQuarters = try MeetDiveScore.compute(given: halves("7.5 8.0 - 8.0 8.0"), call: .none, difficultyTenths: 20, synchro: false)
        XCTAssertEqual(threeQuarters.panel.awards[2].halfPoints, 16)
        // .24 drops to the whole point, .74 to the half: 7.0 7.0 7.0 7.0 7.5 7.0 → 7.083 → 7.0.
        let low = try MeetDiveScore.compute(given: halves("7.0 7.0 7.0 - 7.0 7.5 7.0"), call: .none, difficultyTenths: 20, synchro: false)
        XCTAssertEqual(low.panel.awards[3].halfPoints, 14)
        let high = try MeetDiveScore.compute(given: halves("7.0 7.5 7.5 - 7.5"), call: .none, difficultyTenths: 20, synchro: false)
        XCTAssertEqual(high.panel.awards[3].halfPoints, 15, "7.375 → 7.5")
    }
}

final class MeetJournalTests: XCTestCase {
    var folder: URL!

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("meet-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func meet(judges: Int = 5) throws -> MeetJournal {
        let journal = MeetJournal(directory: folder)
        try journal.create(MeetSetup(format: 1, event: "Women 3 m", pack: "wa2024-individual-women", judges: judges, synchro: false, height: "3"),
                           at: "2026-12-01T09:00:00Z")
        let sheets = """
            diver,club,round,code,height
            Ada,Club A,1,105B,3
            Ada,Club A,2,5253B,3
            Bea,Club B,1,105B,3
            Bea,Club B,2,5253B,3
            Cat,Club C,1,105B,3
            Cat,Club C,2,5253B,3
            """
        try journal.append(.entered(try MeetSheetCSV.read(sheets, eventHeight: "3")), at: "2026-12-01T09:01:00Z")
        return journal
    }

    func award(_ journal: MeetJournal, _ diver: String, _ round: Int, _ awards: [Int?], attempt: Int = 1) throws {
        let entry = MeetAward(diver: diver, round: round, attempt: attempt, awards: awards, call: .none)
        try journal.append(.awarded(entry), at: "2026-12-01T10:00:00Z") { lines in
            try MeetState(lines: lines, path: self.folder.path).check(entry)
        }
    }

    func state(_ journal: MeetJournal) throws -> MeetState {
        try MeetState(lines: try journal.read().lines, path: folder.path)
    }

    func testEqualTotalsSharePlaceAndTheNextIsSkipped() throws {
        let journal = try meet()
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        try award(journal, "Bea", 1, [14, 14, 14, 14, 14])
        try award(journal, "Cat", 1, [12, 12, 12, 12, 12])
        let results = try state(journal).results()
        XCTAssertEqual(results.rows.map(\.place), [1, 1, 3])
        XCTAssertEqual(results.rows.map(\.diver), ["Ada", "Bea", "Cat"], "equal totals in running order")
        XCTAssertEqual(results.rows[0].totalHundredths, 5040, "7 × 3 × 2.4 = 50.40")
    }

    func testARefusedAwardLeavesTheJournalAsItWas() throws {
        let journal = try meet()
        let before = try Data(contentsOf: journal.url)
        XCTAssertThrowsError(try award(journal, "Nobody", 1, [14, 14, 14, 14, 14])) { XCTAssertEqual($0 as? MeetError, .noSuchDiver("Nobody")) }
        XCTAssertThrowsError(try award(journal, "Ada", 9, [14, 14, 14, 14, 14]))
        XCTAssertThrowsError(try award(journal, "Ada", 1, [14, 14, 14, 14])) {
            XCTAssertEqual($0 as? MeetError, .wrongNumberOfAwards(given: 4, judges: 5))
        }
        XCTAssertThrowsError(try award(journal, "Ada", 1, [14, 14, 14, 14, 14], attempt: 2))
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        XCTAssertThrowsError(try award(journal, "ada", 1, [10, 10, 10, 10, 10])) {
            XCTAssertEqual($0 as? MeetError, .alreadyAwarded(diver: "Ada", round: 1, attempt: 1))
        }
        XCTAssertEqual(try journal.read().lines.count, before.split(separator: 0x0A).count + 1)
    }

    func testARedoneAttemptCountsAndTheFirstAwardsStay() throws {
        let journal = try meet()
        try award(journal, "Ada", 1, [10, 10, 10, 10, 10])
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14], attempt: 2)
        let state = try state(journal)
        XCTAssertEqual(state.awards.filter { $0.diver == "Ada" }.count, 2)
        let ada = try XCTUnwrap(try state.results().rows.first { $0.diver == "Ada" })
        XCTAssertEqual(ada.dives[0].attempts, 2)
        XCTAssertEqual(ada.totalHundredths, 5040)
    }

    func testAnyEditRemovalOrReorderingOfTheJournalIsDetected() throws {
        let journal = try meet()
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        try award(journal, "Bea", 1, [12, 12, 12, 12, 12])
        let text = try String(contentsOf: journal.url, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.count, 5, "created, entered, two awards, and the empty text after the last newline")
        let edited = lines[2].replacingOccurrences(of: "14", with: "20")
        XCTAssertNotEqual(edited, lines[2])
        for (name, altered) in [("an edited award", Array(lines[0..<2]) + [edited] + Array(lines[3...])),
                                ("a removed line", Array(lines[0..<2]) + Array(lines[3...])),
                                ("two lines swapped", [lines[0], lines[2], lines[1]] + Array(lines[3...]))] {
            try altered.joined(separator: "\n").write(to: journal.url, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try journal.read(), name) { error in
                guard case MeetJournalError.altered = error else { return XCTFail("\(name): \(error)") }
            }
        }
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try lines.joined(separator: "\n").write(to: journal.url, atomically: true, encoding: .utf8)
        XCTAssertEqual(try journal.read().lines.count, 4)
    }

    func testALineCutOffByACrashIsReportedThenSetAsideNeverDroppedWithTheRest() throws {
        let journal = try meet()
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        let whole = try Data(contentsOf: journal.url)
        // A crash in the middle of writing the next line.
        let handle = try FileHandle(forWritingTo: journal.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"hash":"12ab"#.utf8))
        try handle.close()
        let read = try journal.read()
        XCTAssertEqual(read.lines.count, 3, "every whole line is kept")
        XCTAssertEqual(read.torn, #"{"hash":"12ab"#)
        try award(journal, "Bea", 1, [12, 12, 12, 12, 12])
        let after = try journal.read()
        XCTAssertNil(after.torn)
        XCTAssertEqual(after.lines.count, 4)
        XCTAssertTrue(try Data(contentsOf: journal.url).starts(with: whole))
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("journal.torn-") }
        XCTAssertEqual(aside.count, 1, "the cut-off line is kept beside the journal")
    }

    func testAJournalOfANewerFormatIsRefusedUntouched() throws {
        let journal = MeetJournal(directory: folder)
        try journal.create(MeetSetup(format: 99, event: "Later", pack: "custom", judges: 5, synchro: false, height: nil), at: "2030-01-01T00:00:00Z")
        let before = try Data(contentsOf: journal.url)
        XCTAssertThrowsError(try state(journal)) { XCTAssertEqual($0 as? MeetError, .journal(.newerFormat(path: self.folder.path))) }
        XCTAssertEqual(try Data(contentsOf: journal.url), before)
    }

    func testUndoTakesBackTheLatestDecisionAndRedoPutsItBackAsNewLines() throws {
        let journal = try meet()
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        try award(journal, "Bea", 1, [12, 12, 12, 12, 12])
        let undo = { try journal.append(at: "t") { lines in [try MeetState(lines: lines, path: "").undo()] } }
        let redo = { try journal.append(at: "t") { lines in [try MeetState(lines: lines, path: "").redo()] } }
        XCTAssertEqual(try undo().lines[0].entry, .undone(seq: 4), "Bea's awards, the latest")
        XCTAssertEqual(try state(journal).awards.map(\.diver), ["Ada"])
        XCTAssertEqual(try undo().lines[0].entry, .undone(seq: 3))
        XCTAssertEqual(try state(journal).awards, [])
        XCTAssertEqual(try redo().lines[0].entry, .redone(seq: 3), "the latest undone comes back first")
        XCTAssertEqual(try state(journal).awards.map(\.diver), ["Ada"])
        // A new decision ends what can be redone.
        try award(journal, "Cat", 1, [10, 10, 10, 10, 10])
        XCTAssertThrowsError(try redo()) { XCTAssertEqual($0 as? MeetError, .nothingToRedo) }
        XCTAssertEqual(try state(journal).awards.map(\.diver), ["Ada", "Cat"])
        XCTAssertEqual(try journal.read().lines.count, 8, "nothing was deleted: every undo and redo is a line")
        // An undo checked against a stale state is refused under the lock (two consoles at once).
        let stale = try state(journal)
        _ = try undo()
        XCTAssertThrowsError(try journal.append(try stale.undo(), at: "t") { lines in
            try MeetState(lines: lines, path: "").checkUndoRedo(try stale.undo())
        }) { XCTAssertEqual($0 as? MeetError, .nothingToUndo) }
    }

    func testAWithdrawnDiverIsCalledNoMoreAndKeepsTheDivesDone() throws {
        let journal = try meet()
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        try journal.append(.withdrawn(diver: "ada", reason: "injury"), at: "t") { lines in
            try MeetState(lines: lines, path: "").checkWithdrawal(diver: "ada", reason: "injury")
        }
        let withdrawn = try state(journal)
        XCTAssertEqual(withdrawn.withdrawal(of: "Ada"), "injury")
        XCTAssertEqual(withdrawn.callOrder.map(\.diver), ["Ada", "Bea", "Cat", "Bea", "Cat"], "her round 1 stays; round 2 is not called")
        XCTAssertThrowsError(try withdrawn.check(MeetAward(diver: "Ada", round: 2, attempt: 1, awards: [10, 10, 10, 10, 10], call: .none))) {
            XCTAssertEqual($0 as? MeetError, .withdrawn("Ada"))
        }
        XCTAssertThrowsError(try withdrawn.checkWithdrawal(diver: "Ada", reason: "again")) { XCTAssertEqual($0 as? MeetError, .withdrawn("Ada")) }
        XCTAssertThrowsError(try withdrawn.checkWithdrawal(diver: "Bea", reason: "  ")) { XCTAssertEqual($0 as? MeetError, .reasonMissing) }
        let results = try withdrawn.results()
        XCTAssertEqual(results.rows.first { $0.diver == "Ada" }?.totalHundredths, 5040)
        XCTAssertEqual(results.rows.first { $0.diver == "Ada" }?.withdrawn, true)
        // Behind Bea now, she is not told what she needs for 1st: she dives no more.
        try award(journal, "Bea", 1, [18, 18, 18, 18, 18])
        let later = try state(journal).results()
        let ada = try XCTUnwrap(later.rows.first { $0.diver == "Ada" })
        XCTAssertEqual(ada.place, 2)
        XCTAssertEqual(later.needs(ada), MeetResults.Needs(first: nil, third: nil, cut: nil))
    }

    func testALateChangeReplacesTheDiveUntilItHasAwards() throws {
        let journal = try meet()
        let dive = PlannedDive(round: 2, code: "405B", height: "3", ddTenths: 30)
        try journal.append(.changed(diver: "Bea", dive: dive, reason: "coach"), at: "t") { lines in
            try MeetState(lines: lines, path: "").checkChange(diver: "Bea", dive: dive, reason: "coach")
        }
        let changed = try state(journal)
        XCTAssertEqual(changed.entrant("Bea")?.dives.last, dive)
        XCTAssertEqual(changed.changes.first?.before.code, "5253B")
        try award(journal, "Ada", 1, [14, 14, 14, 14, 14])
        XCTAssertThrowsError(try state(journal).checkChange(diver: "Ada", dive: PlannedDive(round: 1, code: "101A", height: "3", ddTenths: 14), reason: "late")) {
            XCTAssertEqual($0 as? MeetError, .changeAfterDiving(diver: "Ada", round: 1))
        }
    }

    func testWhatEachDiverNeedsForFirstThirdAndTheCut() throws {
        let journal = MeetJournal(directory: folder)
        try journal.create(MeetSetup(format: 1, event: "Women 3 m", pack: "custom", judges: 5, synchro: false, height: "3", cut: 2), at: "t")
        let sheets = "diver,club,round,code,height\nAda,,1,105B,3\nBea,,1,105B,3\nCat,,1,105B,3\nDee,,1,105B,3"
        try journal.append(.entered(try MeetSheetCSV.read(sheets, eventHeight: "3")), at: "t")
        try award(journal, "Ada", 1, [16, 16, 16, 16, 16])   // 57.60
        try award(journal, "Bea", 1, [14, 14, 14, 14, 14])   // 50.40
        try award(journal, "Cat", 1, [14, 14, 14, 14, 14])   // 50.40
        try award(journal, "Dee", 1, [10, 10, 10, 10, 10])   // 36.00
        let results = try state(journal).results()
        XCTAssertEqual(results.rows.map(\.place), [1, 2, 2, 4])
        XCTAssertEqual(results.needs(results.rows[0]), MeetResults.Needs(first: nil, third: nil, cut: nil))
        XCTAssertEqual(results.needs(results.rows[1]), MeetResults.Needs(first: 720, third: nil, cut: nil), "tied at 2nd: inside the cut")
        XCTAssertEqual(results.needs(results.rows[3]), MeetResults.Needs(first: 2160, third: 1440, cut: 1440))
        // The next phase: the best 2 and everyone tied with the 2nd, in reverse ranking order, the tie drawn.
        let order = MeetPhase.reverseRankingOrder(results, top: 2, seed: 5)
        XCTAssertEqual(order.count, 3)
        XCTAssertEqual(Set(order.prefix(2)), ["Bea", "Cat"])
        XCTAssertEqual(order.last, "Ada")
        XCTAssertEqual(MeetPhase.reverseRankingOrder(results, top: 2, seed: 5), order, "the seed draws the same order again")
    }

    func testAnEntryOfANewerLockerIsSaidSoNotCalledAnAlteration() throws {
        let journal = try meet()
        // A line whose hash holds but whose kind this Locker does not know.
        let rest = #"{"at":"t","entry":{"kind":"judged"},"prev":"\#(try journal.read().lines.last!.hash)","seq":3}"#
        let hash = SHA256.hex(SHA256.hash(Array(rest.utf8)))
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data((#"{"hash":"\#(hash)","# + rest.dropFirst() + "\n").utf8))
        try handle.close()
        XCTAssertThrowsError(try journal.read()) { XCTAssertEqual($0 as? MeetJournalError, .newerFormat(path: self.folder.path)) }
    }

    func testADiveTypedAsOnASheetFillsItsDDAndFlagsAClaimThatDiffers() {
        let typed = try? MeetDiveEntry.parse("5253b 3", eventHeight: nil).get()
        XCTAssertEqual(typed?.code.text, "5253B")
        XCTAssertEqual(typed?.ddTenths, 34)
        XCTAssertEqual(typed?.claimMismatch, false)
        XCTAssertEqual(try? MeetDiveEntry.parse("5253B 3 3.0", eventHeight: nil).get().claimMismatch, true)
        XCTAssertEqual(try? MeetDiveEntry.parse("5253B 3,4", eventHeight: "3").get().claimedTenths, 34, "the event's height, a claimed DD")
        XCTAssertEqual(try? MeetDiveEntry.parse("5253B 7.5", eventHeight: "3").get().height, .m7_5, "7.5 is a height")
        XCTAssertEqual(MeetDiveEntry.parse("", eventHeight: nil), .failure(.empty))
        XCTAssertEqual(MeetDiveEntry.parse("5253B", eventHeight: nil), .failure(.noHeight))
        XCTAssertEqual(MeetDiveEntry.parse("5253B 4", eventHeight: nil), .failure(.badHeight("4")))
        XCTAssertEqual(MeetDiveEntry.parse("5253B 3 99", eventHeight: nil), .failure(.badClaim("99")))
        guard case .failure(.notADive) = MeetDiveEntry.parse("9999Z 3", eventHeight: nil) else { return XCTFail("not a dive") }
    }

    func testAwardsThePanelCannotScoreAreRefusedBeforeTheyAreWritten() throws {
        let journal = try meet()
        let before = try Data(contentsOf: journal.url)
        XCTAssertThrowsError(try award(journal, "Ada", 1, [nil, nil, nil, nil, nil])) {
            XCTAssertEqual($0 as? MeetError, .unscoreable(.tooManyMissing(.execution)))
        }
        XCTAssertEqual(try Data(contentsOf: journal.url), before, "nothing the results could not replay is written")
        XCTAssertNoThrow(try state(journal).results())
    }

    func testALateChangeToAHeightTheEventIsNotDivedAtIsRefused() throws {
        let journal = try meet()
        let platform = PlannedDive(round: 2, code: "5253B", height: "10", ddTenths: 32)
        XCTAssertThrowsError(try state(journal).checkChange(diver: "Bea", dive: platform, reason: "coach")) {
            XCTAssertEqual($0 as? MeetError, .wrongHeight(code: "5253B", height: "10", event: "3"))
        }
        XCTAssertEqual(MeetDiveEntry.parse("5253B 2", eventHeight: "3"), .failure(.badHeight("2")), "a bare 2 is no DD")
        XCTAssertEqual(MeetDiveEntry.parse("5253B 3 3.2 extra", eventHeight: "3"), .failure(.extra("extra")))
    }

    func testPadsSendTheCalledDivesAwardsOnceAndTheRefereeAcceptsThemAll() throws {
        let journal = try meet()
        let append = { (prepare: @escaping (MeetState) throws -> [MeetEntry]) in
            try journal.append(at: "t") { lines in try prepare(try MeetState(lines: lines, path: "")) }
        }
        let ada = MeetState.CalledDive(diver: "Ada", round: 1, attempt: 1)
        XCTAssertThrowsError(try append { try $0.judge(seat: 1, dive: ada, award: 14) }) {
            XCTAssertEqual($0 as? MeetError, .notCalled(diver: "Ada", round: 1), "nothing is called yet")
        }
        try append { [try $0.call(diver: "ada", round: 1)] }
        XCTAssertEqual(try state(journal).calledOnPads, ada)
        for seat in 1...4 { try append { try $0.judge(seat: seat, dive: ada, award: 14 + seat % 2) } }
        XCTAssertEqual(try append { try $0.judge(seat: 2, dive: ada, award: 14) }.lines, [], "a resend after a dropped link adds nothing")
        XCTAssertThrowsError(try append { try $0.judge(seat: 2, dive: ada, award: 16) }) {
            XCTAssertEqual($0 as? MeetError, .alreadyJudged(seat: 2, award: 14))
        }
        XCTAssertThrowsError(try append { try $0.judge(seat: 6, dive: ada, award: 14) }) { XCTAssertEqual($0 as? MeetError, .noSuchSeat(6)) }
        XCTAssertThrowsError(try append { try $0.judge(seat: 5, dive: ada, award: 21) }) { XCTAssertEqual($0 as? MeetError, .badAward("10.5")) }
        XCTAssertThrowsError(try state(journal).acceptedAwards(typed: [:], missing: [])) { XCTAssertEqual($0 as? MeetError, .silentSeats([5])) }
        let accepted = try state(journal).acceptedAwards(typed: [3: 12], missing: [5])
        XCTAssertEqual(accepted.awards, [15, 14, 12, 14, nil], "the pads' awards, a flash card for seat 3, seat 5 missing")
        try append { state in [.awarded(MeetAward(diver: "Ada", round: 1, attempt: 1, awards: accepted.awards, call: .none))] }
        XCTAssertThrowsError(try append { try $0.judge(seat: 5, dive: ada, award: 14) }) {
            XCTAssertEqual($0 as? MeetError, .alreadyAccepted(diver: "Ada", round: 1))
        }
        // The feed: one line for the accepted dive, with the total and place right after it.
        let feed = MeetFeed.lines(try journal.read().lines)
        XCTAssertEqual(feed.map(\.kind), ["accepted"])
        XCTAssertEqual(feed.first?.diver, "Ada")
        XCTAssertEqual(feed.first?.place, 1)
        // A dive with its awards is called again only as its void attempt's redo, attempt 2.
        XCTAssertThrowsError(try state(journal).call(diver: "Ada", round: 1)) {
            XCTAssertEqual($0 as? MeetError, .calledWithAwards(diver: "Ada", round: 1))
        }
        XCTAssertEqual(try state(journal).call(diver: "Ada", round: 1, redo: true), .called(diver: "Ada", round: 1, attempt: 2))
        // The pads' awards are the judges': accepted awards that differ from one are refused.
        try append { [try $0.call(diver: "Bea", round: 1)] }
        let bea = MeetState.CalledDive(diver: "Bea", round: 1, attempt: 1)
        try append { try $0.judge(seat: 1, dive: bea, award: 18) }
        XCTAssertThrowsError(try state(journal).check(MeetAward(diver: "Bea", round: 1, attempt: 1, awards: [4, 14, 14, 14, 14], call: .none))) {
            XCTAssertEqual($0 as? MeetError, .padDisagrees(seat: 1, sent: 18))
        }
        XCTAssertThrowsError(try state(journal).check(MeetAward(diver: "Bea", round: 1, attempt: 1, awards: [nil, 14, 14, 14, 14], call: .none))) {
            XCTAssertEqual($0 as? MeetError, .padDisagrees(seat: 1, sent: 18), "an award sent after the referee filled the seat in as missing")
        }
    }

    func testASeatOrTheLeadIsHeldByOneProcessAtATime() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = try MeetLock.claim(MeetLock.seat(3), in: folder)
        XCTAssertNotNil(first)
        XCTAssertNil(try MeetLock.claim(MeetLock.seat(3), in: folder), "the seat is taken")
        XCTAssertNotNil(try MeetLock.claim(MeetLock.seat(4), in: folder))
        withExtendedLifetime(first) {}
        var held: MeetLock? = try MeetLock.claim(MeetLock.referee, in: folder)
        XCTAssertNotNil(held)
        held = nil
        XCTAssertNotNil(try MeetLock.claim(MeetLock.referee, in: folder), "released when its holder goes")
    }

    func testResultsJSONWritesExactDecimals() throws {
        let journal = MeetJournal(directory: folder)
        try journal.create(MeetSetup(format: 1, event: "Synchro 3 m", pack: "wa2024-synchro-women", judges: 9, synchro: true, height: "3"),
                           at: "2026-12-01T09:00:00Z")
        try journal.append(.entered([MeetEntrant(diver: "Ada / Bea", club: "Club A", dives: [PlannedDive(round: 3, code: "305C", height: "3", ddTenths: 28)])]),
                           at: "2026-12-01T09:01:00Z")
        let awards = [14, 13, 11, 11, 17, 16, 16, 15, 15].map { Optional($0) }
        try journal.append(.awarded(MeetAward(diver: "Ada / Bea", round: 3, attempt: 1, awards: awards, call: .none)), at: "2026-12-01T10:00:00Z")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(MeetResultsJSON(try state(journal).results())), as: UTF8.self)
        XCTAssertTrue(text.contains(#""score":59.64"#), text)
        XCTAssertTrue(text.contains(#""total":59.64"#), text)
        XCTAssertFalse(text.contains("59.639"), text)
    }
}

/// The rule packs as shipped: each loads, and every fixture of Data/diving/meet-packs/fixtures.json
/// (at least one valid and one invalid sheet for every rule of every pack) gets exactly the
/// answer it names.
final class MeetPackTests: XCTestCase {
    struct Fixture: Decodable {
        struct Dive: Decodable { var round: Int; var code: String; var height: String }
        var pack: String
        var height: String?
        var sheet: [Dive]
        var valid: Bool
        var breaks: String?
        var article: String?
        var rule: Int
        var note: String?
    }

    var directory: URL { MeetPack.directory(packageRoot) }

    func testEveryPackLoadsAndEveryFixtureGetsItsAnswer() throws {
        let packs = Dictionary(uniqueKeysWithValues: try MeetPack.all(in: directory).map { ($0.id, $0) })
        XCTAssertEqual(Set(packs.keys), ["wa2024-individual-women", "wa2024-individual-men", "wa2024-synchro-women", "wa2024-synchro-men",
                                         "wa2024-synchro-mixed", "wa2024-mixed-team", "wa2024-age-a-girls", "wa2024-age-a-boys",
                                         "wa2024-age-b-girls", "wa2024-age-b-boys", "wa2024-age-c-girls", "wa2024-age-c-boys", "custom"])
        let fixtures = try JSONDecoder().decode([Fixture].self, from: Data(contentsOf: directory.appendingPathComponent("fixtures.json")))
        var covered: Set<String> = []
        for fixture in fixtures {
            let pack = try XCTUnwrap(packs[fixture.pack], fixture.pack)
            let dives = try fixture.sheet.map { dive -> PlannedDive in
                let height = try XCTUnwrap(DiveHeight(parsing: dive.height))
                let dd = try DegreeOfDifficulty.compute(try DiveCode(parsing: dive.code), height: height).tenths
                return PlannedDive(round: dive.round, code: dive.code, height: dive.height, ddTenths: pack.ddTenths(round: dive.round, formula: dd))
            }
            let errors = pack.check(MeetEntrant(diver: "A", club: "", dives: dives), height: fixture.height, language: .en)
            let about = "\(fixture.pack) rule \(fixture.rule): \(fixture.note ?? "")"
            if fixture.valid {
                XCTAssertEqual(errors.map(\.article), [], about)
            } else {
                XCTAssertEqual(errors.map(\.rule), [fixture.breaks ?? ""], about)
                XCTAssertEqual(errors.map(\.article), [fixture.article ?? ""], about)
            }
            covered.insert("\(fixture.pack) \(fixture.rule) \(fixture.valid)")
        }
        for pack in packs.values {
            for index in pack.rules.indices {
                XCTAssertTrue(covered.contains("\(pack.id) \(index) true") && covered.contains("\(pack.id) \(index) false"),
                              "\(pack.id) rule \(index) has a valid and an invalid sheet")
            }
        }
    }

    func testSynchroRoundsOneAndTwoAreDivedAtTheAssignedDD() throws {
        let pack = try MeetPack.load("wa2024-synchro-women", from: directory)
        XCTAssertEqual(pack.ddTenths(round: 1, formula: 28), 20)
        XCTAssertEqual(pack.ddTenths(round: 2, formula: 31), 20)
        XCTAssertEqual(pack.ddTenths(round: 3, formula: 28), 28)
    }

    func testAnUnknownPackOrRuleKindIsRefusedWhole() throws {
        XCTAssertThrowsError(try MeetPack.load("no-such-pack", from: directory)) { XCTAssertEqual($0 as? MeetPack.LoadError, .unknown("no-such-pack")) }
        XCTAssertThrowsError(try MeetPack.load("../etc/passwd", from: directory))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("packs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = try String(contentsOf: directory.appendingPathComponent("custom.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"kind\": \"groups\"", with: "\"kind\": \"vibes\"")
        try text.write(to: folder.appendingPathComponent("custom.json"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try MeetPack.load("custom", from: folder))
    }
}
