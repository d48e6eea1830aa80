import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

final class QuizScreenTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func makeScreen(_ language: Language) throws -> (QuizScreen, Localizer) {
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quiz-view-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let model = QuizViewModel(
            localizer: localizer,
            penalties: try PenaltyBook.load(from: root.appendingPathComponent("Data/diving/penalties.json")),
            bank: try QuestionBank.load(from: root.appendingPathComponent("Data/diving/questions.json")),
            historyRepository: JSONRepository<QuizHistory>(url: dir.appendingPathComponent("h.json")),
            leitnerRepository: JSONRepository<LeitnerBoxes>(url: dir.appendingPathComponent("l.json")))
        return (QuizScreen(viewModel: model), localizer)
    }

    func render(_ screen: QuizScreen, _ localizer: Localizer, _ width: Int, _ height: Int) -> MemorySurface {
        let surface = MemorySurface(width: width, height: height)
        let context = RenderContext(localizer: localizer, glyphs: .unicode)
        screen.layout(surface.bounds, context: context)
        screen.render(into: surface, rect: surface.bounds, context: context)
        return surface
    }

    /// A fixed question so the golden text does not depend on chance.
    func startOnKnownQuestion(_ screen: QuizScreen) {
        var rng = SeededRandomNumberGenerator(seed: 11)
        screen.viewModel.start(using: &rng)
    }

    func testGoldenStartAndQuestionPages() throws {
        for language in [Language.en, .fr] {
            let (screen, localizer) = try makeScreen(language)
            assertGolden(render(screen, localizer, 80, 21), "quiz-start-\(language.rawValue)-80x24")
            assertGolden(render(screen, localizer, 120, 37), "quiz-start-\(language.rawValue)-120x40")
            startOnKnownQuestion(screen)
            _ = screen.handle(.character("b"))
            _ = screen.handle(.enter)   // refused: no owner
            assertGolden(render(screen, localizer, 80, 21), "quiz-question-\(language.rawValue)-80x24")
            assertGolden(render(screen, localizer, 120, 37), "quiz-question-\(language.rawValue)-120x40")
        }
    }

    /// Issue 28, items 10 and 11: the start page explains the scoring, the header reads as a
    /// score, and the footer offers exactly the answer keys of the question's kind.
    func testScoringIsExplainedAndTheFooterFitsTheQuestion() throws {
        let (screen, localizer) = try makeScreen(.en)
        XCTAssertTrue(render(screen, localizer, 120, 37).text.contains("80% of the maximum passes"))
        startOnKnownQuestion(screen)
        XCTAssertTrue(screen.status(localizer)?.hasSuffix("· total so far 0 / 0") ?? false, "\(String(describing: screen.status(localizer))) \(screen.viewModel.page)")
        screen.viewModel.abandon()
        screen.viewModel.changeKind(by: 2)   // true or false
        var rng = SeededRandomNumberGenerator(seed: 3)
        screen.viewModel.start(using: &rng)
        let footer = screen.activeKeys(localizer).footerHints.map(\.key)
        XCTAssertTrue(footer.contains("t f"), "\(footer)")
        XCTAssertFalse(footer.contains { $0.contains("a-d") || $0.contains("a-f") }, "\(footer)")
    }

    /// Issue 27, item 14: true and false are answered with the language's letters ("v f" for
    /// verdadero / falso), shown on the page and in the footer.
    /// Issue 43, item 9: after an answer, the feedback says which score is the question's and
    /// which the running total, why the sanction applies, and `o` opens the cited article; a
    /// chosen answer is not lit as right before it is checked; at 80 columns the right answer of
    /// a multiple-choice question is whole; quitting speaks of the quiz, not of "changes".
    func testFeedbackLeadsToTheArticleAndNothingIsCutOrMisleading() throws {
        let (screen, localizer) = try makeScreen(.en)
        var opened: [String] = []
        screen.openArticle = { opened.append($0); return true }
        startOnKnownQuestion(screen)
        _ = screen.handle(.character("a"))
        let chosen = render(screen, localizer, 80, 21)
        let lit = try XCTUnwrap((0..<21).lazy.compactMap { y in (0..<80).first { chosen.style(x: $0, y: y).role == .selection }.map { _ in y } }.first)
        XCTAssertFalse((0..<80).contains { chosen.style(x: $0, y: lit).role == .good || chosen.style(x: $0, y: lit).role == .active },
                       "a chosen answer is lit neutrally")
        _ = screen.handle(.character("r"))
        _ = screen.handle(.enter)
        let feedback = render(screen, localizer, 80, 21).text
        XCTAssertTrue(feedback.contains("this question "), feedback)
        XCTAssertTrue(screen.status(localizer)?.contains("total so far") ?? false, screen.status(localizer) ?? "")
        XCTAssertTrue(feedback.contains("Why "), "one line on why that sanction: \(feedback)")
        _ = screen.handle(.character("o"))
        XCTAssertEqual(opened.count, 1, "o opens the cited article")
        XCTAssertEqual(screen.unsavedWork(localizer), "The quiz under way is lost: 1 question of 20 answered, and an unfinished quiz is not kept.")

        // A multiple-choice question answered wrong: the right answer is whole at 80 columns.
        screen.viewModel.abandon()
        screen.viewModel.changeKind(by: 1)
        var rng = SeededRandomNumberGenerator(seed: 5)
        screen.viewModel.start(using: &rng)
        for _ in 0..<20 {
            guard case .bank(let id) = screen.viewModel.currentQuestion, let question = screen.viewModel.bank?.question(id),
                  case .index(let right) = question.answer else { return XCTFail() }
            _ = screen.handle(.character(Array("abcd")[(right + 1) % 4]))
            _ = screen.handle(.enter)
            let shown = render(screen, localizer, 80, 24).text.split(separator: "\n").joined(separator: " ")
                .split(whereSeparator: { $0 == " " }).joined(separator: " ")
            let answer = question.choices![right].text(.en).split(whereSeparator: { $0 == " " }).joined(separator: " ")
            let words = answer.split(separator: " ")
            XCTAssertTrue(words.allSatisfy { shown.contains($0) }, "\(answer) is whole: \(shown)")
            XCTAssertFalse(shown.contains("…"), "nothing cut: \(shown)")
            _ = screen.handle(.enter)
        }
    }

    func testTrueFalseKeysFollowTheLanguage() throws {
        let (screen, localizer) = try makeScreen(.es)
        screen.viewModel.changeKind(by: 2)   // true or false
        var rng = SeededRandomNumberGenerator(seed: 3)
        screen.viewModel.start(using: &rng)
        XCTAssertTrue(screen.activeKeys(localizer).footerHints.map(\.key).contains("v f"))
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("v  Verdadero"), render(screen, localizer, 80, 21).text)
        _ = screen.handle(.character("v"))
        XCTAssertEqual(screen.viewModel.draft.truth, true)
        _ = screen.handle(.character("f"))
        XCTAssertEqual(screen.viewModel.draft.truth, false)
    }

    func testEscAsksBeforeAbandoning() throws {
        let (screen, localizer) = try makeScreen(.en)
        startOnKnownQuestion(screen)
        XCTAssertNotNil(screen.unsavedWork(.english))
        _ = screen.handle(.escape)
        XCTAssertTrue(screen.capturesText)
        XCTAssertEqual(screen.question?.title, "Abandon the quiz?", "asked on the status line's rows, which the shell draws")
        _ = localizer
        _ = screen.handle(.character("n"))
        XCTAssertEqual(screen.viewModel.page, .question)
        _ = screen.handle(.escape)
        _ = screen.handle(.character("a"))   // "Abandon"'s first letter
        XCTAssertEqual(screen.viewModel.page, .start)
    }

    /// Issue 28, item 12: "My weak questions" is a kind on the start page with the number due;
    /// Enter with none due says why; the result page says which questions moved box.
    func testWeakQuestionsOnTheStartAndResultPages() throws {
        let (screen, localizer) = try makeScreen(.en)
        while screen.viewModel.kind != .weak { _ = screen.handle(.down) }
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("My weak questions  (0 due)"))
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.viewModel.page, .start)
        XCTAssertEqual(screen.status(localizer), "No weak questions yet: a question answered wrongly or partly comes here until you answer it right twice.")
        let (french, frLocalizer) = try makeScreen(.fr)
        while french.viewModel.kind != .weak { _ = french.handle(.down) }
        assertGolden(render(french, frLocalizer, 80, 21), "quiz-start-weak-fr-80x24")
        while screen.viewModel.kind != .penalties { _ = screen.handle(.down) }
        _ = screen.handle(.left); _ = screen.handle(.left); _ = screen.handle(.left)
        startOnKnownQuestion(screen)
        for _ in 0..<5 {
            _ = screen.handle(.character("a")); _ = screen.handle(.character("r")); _ = screen.handle(.enter)
            _ = screen.handle(.enter)
        }
        let result = render(screen, localizer, 80, 21).text
        XCTAssertTrue(result.contains("box 2 → 1"), result)
        _ = screen.handle(.escape)
        let start = render(screen, localizer, 80, 21).text
        XCTAssertTrue(start.range(of: #"My weak questions  \([1-5] due\)"#, options: .regularExpression) != nil, start)
    }

    func testResultReviewShowsBothAnswers() throws {
        let (screen, localizer) = try makeScreen(.en)
        _ = screen.handle(.left); _ = screen.handle(.left); _ = screen.handle(.left)
        startOnKnownQuestion(screen)
        for _ in 0..<5 {
            _ = screen.handle(.character("a")); _ = screen.handle(.character("r")); _ = screen.handle(.enter)
            XCTAssertNotNil(screen.viewModel.feedback, "right or wrong is shown at once")
            _ = screen.handle(.enter)
        }
        XCTAssertEqual(screen.viewModel.page, .result)
        let result = render(screen, localizer, 80, 21).text
        XCTAssertTrue(result.contains("Score ") && result.contains(" / 50 · "), result)
        _ = screen.handle(.enter)
        let review = render(screen, localizer, 80, 21).text
        XCTAssertTrue(review.contains("Your answer") && review.contains("Right answer"), review)
        XCTAssertTrue(review.contains("Article "), review)
        _ = screen.handle(.escape); _ = screen.handle(.character("h"))
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("10 %") || screen.viewModel.history.quizzes.count == 1)
    }

    /// Issue 28, item 13: the history is newest first; Enter opens a quiz and Esc returns to the
    /// history, not the start page; rows end with an ellipsis when cut.
    /// Issue 28, item 9: after each answer the screen says right or wrong, with the right
    /// answer and the article, until Enter; exam mode (x, remembered) keeps them to the end.
    func testRightOrWrongAtOnceUnlessInExamMode() throws {
        let (screen, localizer) = try makeScreen(.en)
        startOnKnownQuestion(screen)
        _ = screen.handle(.character("a")); _ = screen.handle(.character("r")); _ = screen.handle(.enter)
        let shownSurface = render(screen, localizer, 80, 21)
        let shown = shownSurface.text
        XCTAssertTrue(shown.contains("Right answer") && shown.contains("Article "), shown)
        assertGolden(shownSurface, "quiz-feedback-en-80x24")
        let (french, frLocalizer) = try makeScreen(.fr)
        startOnKnownQuestion(french)
        _ = french.handle(.character("a")); _ = french.handle(.character("r")); _ = french.handle(.enter)
        assertGolden(render(french, frLocalizer, 120, 37), "quiz-feedback-fr-120x40")
        XCTAssertTrue(shown.contains("Question 1 / 20 · "), shown)
        XCTAssertEqual(screen.activeKeys(localizer).footerHints.map(\.key).first, "Enter")
        _ = screen.handle(.character("b"))
        XCTAssertNil(screen.viewModel.draft.sanction, "answer keys wait for Enter")
        _ = screen.handle(.enter)
        XCTAssertNil(screen.viewModel.feedback)
        XCTAssertEqual(screen.viewModel.currentIndex, 1)
        screen.viewModel.abandon()
        _ = screen.handle(.character("x"))
        XCTAssertTrue(screen.viewModel.examMode)
        startOnKnownQuestion(screen)
        _ = screen.handle(.character("a")); _ = screen.handle(.character("r")); _ = screen.handle(.enter)
        XCTAssertNil(screen.viewModel.feedback, "exam mode tells nothing until the end")
        XCTAssertEqual(screen.viewModel.currentIndex, 1)
    }

    func testHistoryIsNewestFirstAndEscReturnsToIt() throws {
        let (screen, localizer) = try makeScreen(.en)
        _ = screen.handle(.left); _ = screen.handle(.left); _ = screen.handle(.left)   // 5 questions
        for answer in ["a", "b"] {
            startOnKnownQuestion(screen)
            for _ in 0..<5 {
                _ = screen.handle(.character(Character(answer))); _ = screen.handle(.character("r")); _ = screen.handle(.enter)
                _ = screen.handle(.enter)   // past the answer's feedback
            }
            _ = screen.handle(.escape)
        }
        let quizzes = screen.viewModel.history.quizzes
        XCTAssertEqual(quizzes.count, 2)
        _ = screen.handle(.character("h"))
        XCTAssertEqual(screen.viewModel.page, .history)
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.viewModel.shownRecord, quizzes.last, "the first row is the newest quiz")
        _ = screen.handle(.escape)
        XCTAssertEqual(screen.viewModel.page, .history, "Esc goes back to the history")
        let narrow = render(screen, localizer, 40, 21).lines.filter { $0.contains("%") }
        XCTAssertEqual(narrow.count, 2)
        XCTAssertTrue(narrow.allSatisfy { $0.hasSuffix("…") }, "\(narrow)")
    }
}
