import XCTest
@testable import LockerKit

final class QuizTests: XCTestCase {
    var book: PenaltyBook!
    var bank: QuestionBank!
    var dir: URL!

    override func setUpWithError() throws {
        book = try PenaltyBook.load(from: packageRoot.appendingPathComponent("Data/diving/penalties.json"))
        bank = try QuestionBank.load(from: packageRoot.appendingPathComponent("Data/diving/questions.json"))
        dir = try makeTemporaryDirectory(self)
    }

    func makeModel() -> QuizViewModel {
        QuizViewModel(localizer: .english, penalties: book, bank: bank,
                      historyRepository: JSONRepository<QuizHistory>(url: dir.appendingPathComponent("quiz-history.json")),
                      leitnerRepository: JSONRepository<LeitnerBoxes>(url: dir.appendingPathComponent("quiz-leitner.json")))
    }

    func testScoringAllPartialCases() {
        let both = book.penalties.first { $0.referee && $0.judge }!      // truth R+J
        let referee = book.penalties.first { $0.referee && !$0.judge }!  // truth R
        let s = both.sanction
        XCTAssertEqual(QuizScoring.score(both, sanction: s, referee: true, judge: true), 10)
        XCTAssertEqual(QuizScoring.score(both, sanction: s, referee: true, judge: false), 5)
        XCTAssertEqual(QuizScoring.score(both, sanction: s, referee: false, judge: true), 5)
        XCTAssertEqual(QuizScoring.score(referee, sanction: referee.sanction, referee: true, judge: true), 5)
        XCTAssertEqual(QuizScoring.score(referee, sanction: referee.sanction, referee: false, judge: true), 0, "both flags wrong")
        XCTAssertEqual(QuizScoring.score(referee, sanction: referee.sanction, referee: true, judge: false), 10)
        let wrong = Sanction.allCases.first { $0 != s }!
        XCTAssertEqual(QuizScoring.score(both, sanction: wrong, referee: true, judge: true), 0, "wrong sanction scores nothing")
        XCTAssertTrue(QuizScoring.passed(points: 160, maxPoints: 200))
        XCTAssertFalse(QuizScoring.passed(points: 155, maxPoints: 200))
        XCTAssertEqual(QuizScoring.percent(points: 155, maxPoints: 200), 77)
    }

    func testBankIsValidAndAnswersScore() throws {
        XCTAssertGreaterThanOrEqual(bank.questions.count, 40)
        let choice = bank.questions.first { $0.kind == .choice }!
        guard case .index(let right) = choice.answer else { return XCTFail() }
        XCTAssertEqual(QuizScoring.score(choice, .choice(right)), 10)
        XCTAssertEqual(QuizScoring.score(choice, .choice((right + 1) % 4)), 0)
        let digest = try RulesDigest.load(from: packageRoot.appendingPathComponent("Data/diving/digest/en.md"))
        XCTAssertEqual(bank.questions.filter { digest.index(of: $0.article) == nil }.map(\.id), [], "every question's article is in the digest")
    }

    func testGatingSanctionToggleAndAFullQuizIsKept() throws {
        let model = makeModel()
        model.changeCount(by: -10)
        XCTAssertEqual(model.questionCount, 5, "clamped at 5")
        var rng = SeededRandomNumberGenerator(seed: 7)
        model.start(using: &rng)
        XCTAssertEqual(model.questions.count, 5)
        XCTAssertEqual(Set(model.questions).count, 5, "questions are distinct")
        XCTAssertFalse(model.submit())
        XCTAssertEqual(model.missing, [.sanction, .owner])
        model.pickSanction(2)
        model.pickSanction(2)
        XCTAssertNil(model.draft.sanction, "picking the lit sanction again clears it")
        model.pickSanction(0)
        model.pickSanction(4)
        XCTAssertEqual(model.draft.sanction, .deductHalfTo2, "picking one clears the others")
        XCTAssertFalse(model.submit())
        XCTAssertEqual(model.missing, [.owner])
        for _ in 0..<5 {
            guard case .penalty(let id) = model.currentQuestion!, let truth = model.penalty(id) else { return XCTFail() }
            model.pickSanction(Sanction.allCases.firstIndex(of: truth.sanction)!)
            if model.draft.sanction == nil { model.pickSanction(Sanction.allCases.firstIndex(of: truth.sanction)!) }
            model.toggleReferee()
            XCTAssertTrue(model.submit())
            XCTAssertNotNil(model.feedback, "right or wrong is told at once")
            model.continueAfterFeedback()
        }
        XCTAssertEqual(model.page, .result)
        let record = try XCTUnwrap(model.shownRecord)
        XCTAssertEqual(record.items.count, 5)
        XCTAssertEqual(model.history.quizzes.count, 1)
        let reloaded = makeModel()
        XCTAssertEqual(reloaded.history, model.history, "history round-trips through quiz-history.json")
        XCTAssertEqual(reloaded.leitner, model.leitner)
    }

    /// Issue 43, item 1: two Lockers open at once (two terminals) each finish a quiz; the
    /// second save keeps the first one's quiz instead of writing its older history over it.
    /// Plays a five-question quiz to its end, always answering the first sanction and the referee.
    func play(_ model: QuizViewModel, seed: UInt64) {
        model.changeCount(by: -10)
        var rng = SeededRandomNumberGenerator(seed: seed)
        model.start(using: &rng)
        for _ in 0..<5 {
            model.pickSanction(0)
            model.toggleReferee()
            _ = model.submit()
            model.continueAfterFeedback()
        }
    }

    func testAQuizFinishedElsewhereMeanwhileIsKept() throws {
        let first = makeModel(), second = makeModel()
        play(first, seed: 3)
        Thread.sleep(forTimeInterval: 0.01)
        play(second, seed: 4)
        XCTAssertTrue(second.problems.isEmpty, "\(second.problems)")
        let reloaded = makeModel()
        XCTAssertEqual(reloaded.history.quizzes.count, 2, "both quizzes are kept")
        XCTAssertEqual(reloaded.history.quizzes.map(\.date), first.history.quizzes.map(\.date) + [second.shownRecord!.date])
        XCTAssertEqual(second.history, reloaded.history, "the tab shows what the file holds")
    }

    /// Finishing a quiz (and `x`) leaves the disk to a background thread: the key's own work
    /// writes nothing, and the files are written off the UI thread, the first quiz's merge with
    /// another program's file included.
    func testFinishingAQuizWritesOffTheUIThread() throws {
        let history = ThreadRecordingRepository(JSONRepository<QuizHistory>(url: dir.appendingPathComponent("quiz-history.json")))
        let boxes = ThreadRecordingRepository(JSONRepository<LeitnerBoxes>(url: dir.appendingPathComponent("quiz-leitner.json")))
        let model = QuizViewModel(localizer: .english, penalties: book, bank: bank, historyRepository: history, leitnerRepository: boxes)
        let work = BackgroundWork()
        model.work = work
        play(model, seed: 3)
        XCTAssertEqual(model.page, .result)
        model.toggleExamMode()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(history.savesOnMainThread + boxes.savesOnMainThread, 0, "no write on the UI thread")
        XCTAssertEqual(history.saves, 2, "the finished quiz, then exam mode")
        XCTAssertEqual(boxes.saves, 1)
        XCTAssertTrue(model.problems.isEmpty, "\(model.problems)")
        let reloaded = makeModel()
        XCTAssertEqual(reloaded.history.quizzes.count, 1)
        XCTAssertEqual(reloaded.history.examMode, true)
    }

    func testHistoryFileUsesNamedFields() throws {
        let item = QuizItem(question: .penalty("double-bounce"), answer: .penalty(sanction: .failed, referee: true, judge: false), points: 5)
        let json = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        XCTAssertTrue(json.contains(#""question":{"penalty":"double-bounce"}"#), json)
        XCTAssertTrue(json.contains(#""sanction":"failed""#), json)
        let bank = QuizItem(question: .bank("scale"), answer: .choice(2), points: 10)
        XCTAssertEqual(try JSONDecoder().decode(QuizItem.self, from: JSONEncoder().encode(bank)), bank)
        XCTAssertThrowsError(try JSONDecoder().decode(QuizQuestion.self, from: Data("{}".utf8)))
    }

    func testAbandonedQuizIsNotKept() {
        let model = makeModel()
        var rng = SeededRandomNumberGenerator(seed: 1)
        model.start(using: &rng)
        model.pickSanction(0); model.toggleJudge(); model.submit()
        model.abandon()
        XCTAssertEqual(model.page, .start)
        XCTAssertTrue(model.history.quizzes.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("quiz-history.json").path))
    }

    func testLeitnerBringsWrongAnswersBackSooner() {
        var boxes = LeitnerBoxes()
        boxes.record("p:wrong", verdict: .wrong)
        boxes.record("p:right", verdict: .right)
        boxes.record("p:right", verdict: .right)
        XCTAssertEqual(boxes.box(of: "p:wrong"), 1)
        XCTAssertEqual(boxes.box(of: "p:new"), 2)
        XCTAssertEqual(boxes.box(of: "p:right"), 4)
        boxes.record("p:right", verdict: .partial)
        XCTAssertEqual(boxes.box(of: "p:right"), 3)
        XCTAssertGreaterThan(boxes.weight(of: "p:wrong"), boxes.weight(of: "p:new"))
        var rng = SeededRandomNumberGenerator(seed: 42)
        var firsts: [String: Int] = [:]
        for _ in 0..<2000 {
            let drawn = boxes.draw(1, from: ["p:wrong", "p:new", "p:right"], using: &rng)
            firsts[drawn[0], default: 0] += 1
        }
        XCTAssertGreaterThan(firsts["p:wrong"]!, firsts["p:new"]!)
        XCTAssertGreaterThan(firsts["p:new"]!, firsts["p:right"]!)
        let all = boxes.draw(10, from: ["a", "b", "c"], using: &rng)
        XCTAssertEqual(Set(all).count, 3, "never more than exist, never twice")
    }

    /// Issue 28, item 12: the questions answered wrongly come back as "my weak questions",
    /// the lowest box first; the count due is known before starting; the finished quiz says
    /// which questions moved box.
    func testWeakQuestionsComeFromTheLowestBoxes() throws {
        let model = makeModel()
        while model.kind != .weak { model.changeKind(by: 1) }
        XCTAssertEqual(model.available(.weak), 0, "nothing is weak before a quiz")
        model.start()
        XCTAssertEqual(model.page, .start, "no quiz without weak questions")
        while model.kind != .penalties { model.changeKind(by: 1) }
        model.changeCount(by: -10)
        var rng = SeededRandomNumberGenerator(seed: 3)
        model.start(using: &rng)
        var wrong: [QuizQuestion] = []
        for index in 0..<5 {
            guard case .penalty(let id) = model.currentQuestion!, let truth = model.penalty(id) else { return XCTFail() }
            let right = Sanction.allCases.firstIndex(of: truth.sanction)!
            // The first two wrong, the others right.
            model.pickSanction(index < 2 ? (right + 1) % Sanction.allCases.count : right)
            if truth.referee { model.toggleReferee() }
            if truth.judge { model.toggleJudge() }
            if index < 2 { wrong.append(model.currentQuestion!) }
            XCTAssertTrue(model.submit())
            model.continueAfterFeedback()
        }
        XCTAssertEqual(model.boxMoves[0], .init(from: 2, to: 1))
        XCTAssertEqual(model.boxMoves[4], .init(from: 2, to: 3))
        XCTAssertEqual(model.boxMoves.count, 5)
        XCTAssertEqual(model.available(.weak), 2, "two answered wrongly are due")
        while model.kind != .weak { model.changeKind(by: 1) }
        model.changeCount(by: 1)
        model.start(using: &rng)
        XCTAssertEqual(Set(model.questions), Set(wrong), "only the weak questions, never more than are due")
        model.openPast(0)
        XCTAssertTrue(model.boxMoves.isEmpty, "a quiz from the history does not claim moves")
    }

    func testMixedAndBankQuestionsGateOnAnAnswer() {
        let model = makeModel()
        model.changeKind(by: 2)
        XCTAssertEqual(model.kind, .trueFalse)
        var rng = SeededRandomNumberGenerator(seed: 3)
        model.start(using: &rng)
        XCTAssertFalse(model.submit())
        XCTAssertEqual(model.missing, [.choice])
        model.pickTruth(true)
        XCTAssertTrue(model.submit())
        model.changeKind(by: 1)
        XCTAssertEqual(model.kind, .mixed)
        XCTAssertEqual(model.available(.mixed), 48 + model.available(.choice) + model.available(.trueFalse))
    }

    func testCorruptHistoryIsKeptAsideAndReported() throws {
        try Data("{ nope".utf8).write(to: dir.appendingPathComponent("quiz-history.json"))
        try Data("[]".utf8).write(to: dir.appendingPathComponent("quiz-leitner.json"))
        let model = makeModel()
        XCTAssertEqual(model.problems.count, 2)
        XCTAssertTrue(model.problems[0].contains("quiz-history.json.corrupt-"), model.problems[0])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertEqual(files.filter { $0.contains(".corrupt-") }.count, 2)
    }
}
