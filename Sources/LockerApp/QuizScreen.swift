import FoundationEssentials
import LockerKit
import TerminalUI

/// The Quiz tab: start page (length, kind, history), one question at a time, the result with a
/// review list, each answer side by side with the right one, and the history of past quizzes.
public final class QuizScreen: TabScreen {
    public let tab = Tab.quiz
    let viewModel: QuizViewModel
    private var reviewList = ListState()
    private var historyList = ListState()
    private var abandonDialog: ConfirmDialog?
    private var listHeight = 10

    public init(viewModel: QuizViewModel) {
        self.viewModel = viewModel
    }

    /// What the Quiz tab shows: one value, read from the view-model's page and the abandon
    /// question; the keys, the footer, `capturesText` and the drawing derive from it.
    enum Mode: Equatable { case start, question, feedback, abandoning, result, review(Int), history }

    var mode: Mode {
        if abandonDialog != nil { return .abandoning }
        switch viewModel.page {
        case .start: return .start
        case .question: return viewModel.feedback == nil ? .question : .feedback
        case .result: return viewModel.reviewing.map { .review($0) } ?? .result
        case .history: return .history
        }
    }

    /// The abandon question, drawn by the shell on the status line's rows.
    public var question: ConfirmDialog? { abandonDialog }

    /// The abandon question takes every key while it is open.
    public var capturesText: Bool { mode == .abandoning }
    /// Opens an article in the Rules tab (set by the tab registry); false when there is none.
    public var openArticle: ((String) -> Bool)?

    /// Quitting in the middle of a quiz asks first.
    /// Quitting during a quiz loses the quiz, not "changes": a quiz is kept once finished.
    public func unsavedWork(_ l: Localizer) -> String? {
        guard viewModel.isInProgress else { return nil }
        return l.n("The quiz under way is lost: {count} question of {total} answered, and an unfinished quiz is not kept.",
                   "The quiz under way is lost: {count} questions of {total} answered, and an unfinished quiz is not kept.",
                   count: viewModel.answered.count, ["total": String(viewModel.questions.count)])
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    // MARK: Keys

    /// The mode's table takes the key.
    public func handle(_ key: Key) -> Bool {
        message = nil
        return activeKeys(viewModel.localizer).handle(key)
    }

    /// A message about the last key (why a quiz cannot start).
    @Expiring private var message: String?
    public var messageExpiry: Date? { $message.expiresAt }

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [startKeys(l), questionKeys(l), feedbackKeys(l), abandonKeys(l), resultKeys(l), reviewKeys(l), historyKeys(l)]
    }

    /// The table of the mode; while the abandon question is open, its keys only.
    public func activeKeys(_ l: Localizer) -> KeyTable {
        switch mode {
        case .start: return startKeys(l)
        case .question: return questionKeys(l)
        case .feedback: return feedbackKeys(l)
        case .abandoning: return abandonKeys(l)
        case .result: return resultKeys(l)
        case .review: return reviewKeys(l)
        case .history: return historyKeys(l)
        }
    }

    /// The start page: length and kind of the quiz.
    private func startKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "quiz-start", title: l.t("Train on the diving rules"), [
            KeyBinding([.left, .right], help: l.t("Start page: number of questions, 5 to 40 by 5"),
                       footer: l.t("questions"), footerKeys: "←→") { key in
                self.viewModel.changeCount(by: key == .left ? -1 : 1)
                return true
            },
            KeyBinding([.up, .down, .home, .end, .character("k"), .character("j"), .character("g"), .character("G")],
                       help: l.t("Start page: kind of quiz; Home and End the first and the last"), footer: l.t("kind"), footerKeys: "↑↓") { key in
                switch ViMoves.arrow(for: key) {
                case .home: self.viewModel.chooseKind(last: false)
                case .end: self.viewModel.chooseKind(last: true)
                default: self.viewModel.changeKind(by: ViMoves.arrow(for: key) == .up ? -1 : 1)
                }
                return true
            },
            KeyBinding([.enter], help: l.t("Start; go to the next question; open a review"), footer: l.t("start")) {
                guard self.viewModel.available(self.viewModel.kind) > 0 else {
                    self.message = self.viewModel.kind == .weak
                        ? l.t("No weak questions yet: a question answered wrongly or partly comes here until you answer it right twice.")
                        : l.t("There are no questions of this kind.")
                    return
                }
                self.viewModel.start()
            },
            KeyBinding([.character("h")], help: l.t("History of finished quizzes"), footer: l.t("history")) {
                self.historyList.select(0)   // newest first
                self.viewModel.showHistory()
            },
            KeyBinding([.character("x")], help: l.t("Exam mode: right or wrong told only at the end (on or off, remembered)"),
                       footer: l.t("exam mode")) {
                self.viewModel.toggleExamMode()
            },
            KeyBinding([.escape], help: l.t("Hide the message about a quiz file")) { _ in
                guard !self.viewModel.problems.isEmpty else { return false }
                self.viewModel.dismissProblems()
                return true
            },
        ])
    }

    /// One question: the answer keys of its kind, then go on or abandon. Nothing works when
    /// there is no current question.
    private func questionKeys(_ l: Localizer) -> KeyTable {
        let penalty = isPenaltyQuestion
        return KeyTable(id: "quiz-question", title: l.t("Quiz"), [
            KeyBinding(matching: { self.isPenaltyQuestion && Self.letterIndex($0, in: "abcdef") != nil }, "a … f",
                       help: l.t("Penalty question: pick a sanction (again to clear it)"),
                       footer: penalty ? l.t("sanction") : nil, footerKeys: "a-f") { key in
                self.viewModel.pickSanction(Self.letterIndex(key, in: "abcdef")!)
                return true
            },
            KeyBinding(matching: { self.isPenaltyQuestion && ($0 == .character("r") || $0 == .character("j")) }, names: [.character("r"), .character("j")],
                       help: l.t("Penalty question: referee, judge (one or both)"),
                       footer: penalty ? l.t("referee/judge") : nil, footerKeys: "r j") { key in
                if key == .character("r") { self.viewModel.toggleReferee() } else { self.viewModel.toggleJudge() }
                return true
            },
            KeyBinding(matching: { self.bankQuestionIsChoice == true && Self.letterIndex($0, in: "abcd") != nil }, "a … d",
                       help: l.t("Multiple choice: pick an answer"),
                       footer: self.bankQuestionIsChoice == true ? l.t("answer") : nil, footerKeys: "a-d") { key in
                self.viewModel.pickChoice(Self.letterIndex(key, in: "abcd")!)
                return true
            },
            KeyBinding(matching: { self.bankQuestionIsChoice == false && Self.truth(of: $0, l) != nil }, Self.truthKeys(l).joined(separator: " "),
                       help: l.t("True / false"), footer: self.bankQuestionIsChoice == false ? l.t("true/false") : nil,
                       footerKeys: Self.truthKeys(l).joined(separator: " ")) { key in
                self.viewModel.pickTruth(Self.truth(of: key, l)!)
                return true
            },
            KeyBinding([.enter], help: l.t("Start; go to the next question; open a review"), footer: l.t("next")) { _ in
                guard self.viewModel.currentQuestion != nil else { return false }
                self.viewModel.submit()
                return true
            },
            KeyBinding([.escape], help: l.t("Abandon the quiz (asks first); back from a page"), footer: l.t("abandon")) { _ in
                guard self.viewModel.currentQuestion != nil else { return false }
                self.askToAbandon(l)
                return true
            },
        ])
    }

    /// Opens the abandon question (Esc during a question or its feedback).
    private func askToAbandon(_ l: Localizer) {
        abandonDialog = ConfirmDialog(title: l.t("Abandon the quiz?"), message: l.t("This quiz will not be counted or kept."),
                                      yesLabel: l.t("Abandon"), noLabel: l.t("Continue"))
    }

    /// After an answer (outside exam mode): right or wrong is shown; Enter goes on.
    private func feedbackKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "quiz-feedback", title: l.t("Your answer") + " / " + l.t("Right answer"), [
            KeyBinding([.enter], help: l.t("Go on to the next question (or the result)"), footer: l.t("next")) {
                self.viewModel.continueAfterFeedback()
            },
            openArticleKey([.character("o")], l),
            KeyBinding([.escape], help: l.t("Abandon the quiz (asks first); back from a page"), footer: l.t("abandon")) {
                self.askToAbandon(l)
            },
        ])
    }

    /// The abandon question (a `ConfirmDialog`, which takes the keys itself in `handle`).
    private func abandonKeys(_ l: Localizer) -> KeyTable {
        .question(id: "quiz-abandon", title: l.t("Abandon the quiz?"), l, yesHelp: l.t("Abandon"), yesFooter: l.t("Abandon"),
                  noHelp: l.t("Continue"), noFooter: l.t("Continue"), dialog: { self.abandonDialog }, store: { self.abandonDialog = $0 }) { answer in
            self.abandonDialog = nil
            if answer == .yes { self.viewModel.abandon() }
        }
    }

    /// The result page's list of answers.
    private func resultKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "quiz-result", title: l.t("Review: Enter opens an answer beside the right one"), [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys, help: l.t("Move; Home and End jump to the ends"),
                       footer: l.t("move"), footerKeys: "↑↓") { key in
                self.reviewList.setCount(self.viewModel.shownRecord?.items.count ?? 0)
                return self.reviewList.handle(key, pageSize: self.listHeight)
            },
            KeyBinding([.enter], help: l.t("Start; go to the next question; open a review"), footer: l.t("review")) {
                self.reviewList.setCount(self.viewModel.shownRecord?.items.count ?? 0)
                self.viewModel.openReview(self.reviewList.selected)
            },
            KeyBinding([.escape], help: l.t("Abandon the quiz (asks first); back from a page"), footer: l.t("back")) {
                self.viewModel.backFromResult()
            },
            KeyBinding([.character("h")], help: l.t("History of finished quizzes")) {
                if !self.viewModel.resultFromHistory { self.historyList.select(0) }
                self.viewModel.showHistory()
            },
        ])
    }

    /// One answer beside the right one.
    private func reviewKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "quiz-review", title: l.t("Your answer") + " / " + l.t("Right answer"), [
            KeyBinding([.left, .right, .up, .down], help: l.t("Previous / next answer"),
                       footer: l.t("previous/next"), footerKeys: "←→") { key in
                guard let index = self.viewModel.reviewing else { return true }
                if key == .left || key == .up {
                    if index > 0 { self.viewModel.openReview(index - 1) }
                } else {
                    self.viewModel.openReview(index + 1)
                }
                return true
            },
            openArticleKey([.enter, .character("o")], l),
            KeyBinding([.escape], help: l.t("Back to the list"), footer: l.t("back")) {
                self.viewModel.closeReview()
            },
        ])
    }

    /// The history of finished quizzes.
    private func historyKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "quiz-history", title: l.t("Finished quizzes"), [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys, help: l.t("Move; Home and End jump to the ends"),
                       footer: l.t("move"), footerKeys: "↑↓") { key in
                self.historyList.setCount(self.viewModel.history.quizzes.count)
                return self.historyList.handle(key, pageSize: self.listHeight)
            },
            KeyBinding([.enter], help: l.t("Open the chosen quiz"), footer: l.t("open")) { _ in
                self.historyList.setCount(self.viewModel.history.quizzes.count)
                guard !self.viewModel.history.quizzes.isEmpty else { return false }
                self.reviewList = ListState()
                self.viewModel.openPast(self.viewModel.history.quizzes.count - 1 - self.historyList.selected)
                return true
            }.disabled {
                self.viewModel.history.quizzes.isEmpty ? l.t("No finished quiz yet.") : nil
            },
            KeyBinding([.escape], help: l.t("Abandon the quiz (asks first); back from a page"), footer: l.t("back")) {
                self.viewModel.backToStart()
            },
        ])
    }

    private var isPenaltyQuestion: Bool {
        if case .penalty? = viewModel.currentQuestion { return true }
        return false
    }

    /// For a bank question, whether it is multiple choice (else true / false); nil otherwise.
    private var bankQuestionIsChoice: Bool? {
        guard case .bank(let id)? = viewModel.currentQuestion else { return nil }
        return viewModel.bank?.question(id)?.kind == .choice
    }

    /// The position of a letter key in `letters` ("abcdef"), nil for any other key.
    private static func letterIndex(_ key: Key, in letters: String) -> Int? {
        guard let c = key.character, let index = letters.firstIndex(of: c) else { return nil }
        return letters.distance(from: letters.startIndex, to: index)
    }

    private var toldShellProblems = 0

    /// A quiz just finished may still be on its way to disk at quit: the app waits for it.
    public var idleWork: IdleWork? { viewModel.isSaving ? IdleWork(.beforeQuit) { self.viewModel.finishSaving() } : nil }

    /// The quiz files set aside while loading (history, Leitner boxes), once.
    public func takeEffects() -> ScreenEffects {
        let new = Array(viewModel.problems.dropFirst(toldShellProblems))
        toldShellProblems = viewModel.problems.count
        return ScreenEffects(notices: new)
    }

    public func status(_ l: Localizer) -> String? {
        if let message { return message }
        if let problem = viewModel.problems.last { return problem }
        if viewModel.page == .question {
            // While an answer's feedback shows, the question is the one just answered.
            let number = viewModel.feedback == nil ? viewModel.currentIndex + 1 : viewModel.currentIndex
            return l.t("Question {number} / {total}", ["number": String(number), "total": String(viewModel.questions.count)])
                + " · " + scoreText(l)
        }
        return nil
    }

    // MARK: Drawing

    /// The result's review list starts below four lines of score, date and hint; the history's
    /// below its title.
    private static func reviewListRect(_ area: Rect) -> Rect { Rect(x: area.x, y: area.y + 5, width: area.width, height: area.height - 5) }
    private static func historyListRect(_ area: Rect) -> Rect { Rect(x: area.x, y: area.y + 3, width: area.width, height: area.height - 3) }

    public func layout(_ area: Rect, context: RenderContext) {
        let inner = area.inset(dx: 1, dy: 0)
        switch viewModel.page {
        case .result:
            listHeight = Self.reviewListRect(inner).height
            reviewList.setCount(viewModel.shownRecord?.items.count ?? 0)
            reviewList.scrollToSelection(height: listHeight)
        case .history:
            listHeight = Self.historyListRect(inner).height
            historyList.setCount(viewModel.history.quizzes.count)
            historyList.scrollToSelection(height: listHeight)
        case .start, .question:
            break
        }
    }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let area = rect.inset(dx: 1, dy: 0)
        switch viewModel.page {
        case .start: renderStart(into: surface, rect: area, context: context)
        case .question:
            if let item = viewModel.feedback {
                renderAnswer(item, number: viewModel.answered.count, total: viewModel.questions.count, into: surface, rect: area, context: context)
                surface.write(context.localizer.t("Enter goes on."), x: area.x, y: area.maxY - 1, style: Style(.muted), clip: area)
            } else {
                renderQuestion(into: surface, rect: area, context: context)
            }
        case .result:
            if let index = viewModel.reviewing, let record = viewModel.shownRecord, record.items.indices.contains(index) {
                renderAnswer(record.items[index], number: index + 1, total: record.items.count, into: surface, rect: area, context: context)
            }
            else { renderResult(into: surface, rect: area, context: context) }
        case .history: renderHistory(into: surface, rect: area, context: context)
        }

    }

    private func renderStart(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        var y = rect.y + 1
        surface.write(l.t("Train on the diving rules"), x: rect.x, y: y, style: Style(.title, [.bold]), clip: rect)
        y += 2
        let count = viewModel.questionCount
        surface.write(l.t("Questions:") + " ", x: rect.x, y: y, style: Style(.muted), clip: rect)
        let countText = "◀ \(count) ▶".replacingASCII(context.glyphs.ascii)
        surface.write(countText, x: rect.x + 16, y: y, style: Style(.accent, [.bold]), clip: rect)
        surface.parkCursor(x: rect.x + 18, y: y)
        y += 2
        surface.write(l.t("Kind:"), x: rect.x, y: y, style: Style(.muted), clip: rect)
        for kind in QuizKind.allCases {
            let selected = kind == viewModel.kind
            let marker = selected ? context.glyphs.pointer : " "
            let count = viewModel.available(kind)
            let label = "\(marker) \(kind.name(l))  (" + (kind == .weak ? l.n("{count} due", "{count} due", count: count) : String(count)) + ")"
            surface.write(label, x: rect.x + 16, y: y, style: selected ? Style(.active, [.bold]) : Style(.text), clip: rect)
            y += 1
        }
        y += 1
        let available = viewModel.available(viewModel.kind)
        if viewModel.kind == .weak {
            for line in WordWrap.wrap(l.t("Questions answered wrongly or partly come here, the lowest box first, until answered right twice."), width: rect.width) {
                surface.write(line, x: rect.x, y: y, style: Style(.muted), clip: rect)
                y += 1
            }
        } else if available < count {
            surface.write(l.n("Only {count} question of this kind exists; the quiz will ask it.", "Only {count} questions of this kind exist; the quiz will ask them all.", count: available),
                          x: rect.x, y: y, style: Style(.warn), clip: rect)
            y += 1
        }
        let exam = viewModel.examMode ? l.t("on: right or wrong is told at the end") : l.t("off: right or wrong is told after each answer")
        surface.write(l.t("Exam mode:"), x: rect.x, y: y, style: Style(.muted), clip: rect)
        surface.write(exam + "  (x)", x: rect.x + 16, y: y, style: viewModel.examMode ? Style(.active, [.bold]) : Style(.text), clip: rect)
        y += 2
        // How a question is scored, before the first one.
        for line in WordWrap.wrap(l.t("Scoring: a penalty question gives 10 for the right sanction with referee and judge both right, 5 for the right sanction with one of the two right, 0 otherwise; other questions give 10 or 0. 80% of the maximum passes."), width: rect.width) {
            surface.write(line, x: rect.x, y: y, style: Style(.text), clip: rect)
            y += 1
        }
        let finished = viewModel.history.quizzes.count
        surface.write(finished == 0 ? l.t("Enter starts · no finished quiz yet")
                          : l.n("Enter starts · h shows the {count} finished quiz", "Enter starts · h shows the {count} finished quizzes", count: finished),
                      x: rect.x, y: y + 1, style: Style(.muted), clip: rect)
    }

    /// The running score as a score ("total so far 25 / 30"), not as "points", which on the
    /// question page name sanctions; a question's own is "this question 5 / 10".
    private func scoreText(_ l: Localizer) -> String {
        l.t("total so far {points} / {max}", ["points": String(viewModel.points),
                                               "max": String(viewModel.currentIndex * QuizScoring.pointsPerQuestion)])
    }

    /// A key and its answer; a chosen one is lit in the selection's colour, not the colour of a
    /// right answer, which it is not known to be until it is checked.
    private func chip(_ key: String, _ label: String, lit: Bool) -> [Span] {
        [Span(key, Style(.key, [.bold])), Span(" "), Span(" \(label) ", lit ? Style(.selection, [.bold]) : Style(.muted)), Span("  ")]
    }

    /// The article a question cites (a penalty's first), which `o` opens in the Rules tab.
    private func citedArticle(_ question: QuizQuestion) -> String? {
        switch question {
        case .penalty(let id): return viewModel.penalty(id)?.articles.first
        case .bank(let id): return viewModel.bank?.question(id)?.article
        }
    }

    /// The answer shown (its feedback, or the one opened in the review).
    private var shownAnswer: QuizItem? {
        if let feedback = viewModel.feedback { return feedback }
        if let index = viewModel.reviewing, let items = viewModel.shownRecord?.items, items.indices.contains(index) { return items[index] }
        return nil
    }

    /// `o` (and Enter in the review): the cited article in the Rules tab, as in Penalties.
    private func openArticleKey(_ keys: [Key], _ l: Localizer) -> KeyBinding {
        KeyBinding(keys, help: l.t("Open the article the question cites in the Rules tab"), footer: l.t("open article"), footerKeys: "o") { _ in
            guard let item = self.shownAnswer, let number = self.citedArticle(item.question), let open = self.openArticle else { return false }
            if !open(number) { self.message = l.t("There is no article {number} in the digest.", ["number": number]) }
            return true
        }
    }

    private func renderQuestion(into surface: Surface, rect: Rect, context: RenderContext) {
        guard let question = viewModel.currentQuestion else { return }
        let l = context.localizer
        var y = rect.y + 1
        let header = l.t("Question {number} / {total}", ["number": String(viewModel.currentIndex + 1), "total": String(viewModel.questions.count)])
            + " · " + scoreText(l)
        surface.write(header, x: rect.x, y: y, style: Style(.accent, [.bold]), clip: rect)
        y += 2
        func paragraph(_ text: String, _ style: Style) {
            for line in WordWrap.wrap(text, width: rect.width) where y < rect.maxY {
                surface.write(line, x: rect.x, y: y, style: style, clip: rect)
                y += 1
            }
        }
        let draft = viewModel.draft
        switch question {
        case .penalty(let id):
            guard let penalty = viewModel.penalty(id), let book = viewModel.penalties else { return }
            paragraph(penalty.description.text(viewModel.language), Style(.title, [.bold]))
            y += 1
            surface.write(l.t("Sanction"), x: rect.x, y: y, style: Style(.muted), clip: rect)
            y += 1
            let keys = Array("abcdef")
            var spans: [[Span]] = [[], []]
            let labels = Sanction.allCases.map { sanction -> String in
                let info = book.info(sanction)
                return (context.glyphs.ascii ? info.ascii : info.glyph) + " " + info.label.text(viewModel.language)
            }
            // Two rows of three, in columns, like the original app's buttons.
            let widths = (0..<3).map { column in max(labels[column].displayWidth, labels[column + 3].displayWidth) }
            for (i, sanction) in Sanction.allCases.enumerated() {
                spans[i / 3] += chip(String(keys[i]), labels[i].padded(toWidth: widths[i % 3]), lit: draft.sanction == sanction)
            }
            for row in spans { surface.write(row, x: rect.x + 2, y: y, clip: rect); y += 1 }
            y += 1
            surface.write(l.t("Who gives it"), x: rect.x, y: y, style: Style(.muted), clip: rect)
            y += 1
            let referee = (draft.referee ? context.glyphs.check : " ") + " " + l.t("Referee")
            let judge = (draft.judge ? context.glyphs.check : " ") + " " + l.t("Judge")
            surface.write(chip("r", referee, lit: draft.referee) + chip("j", judge, lit: draft.judge), x: rect.x + 2, y: y, clip: rect)
            surface.parkCursor(x: rect.x + 2, y: y)
            y += 2
        case .bank(let id):
            guard let q = viewModel.bank?.question(id) else { return }
            paragraph(q.prompt.text(viewModel.language), Style(.title, [.bold]))
            y += 1
            if q.kind == .choice {
                for (i, choice) in (q.choices ?? []).enumerated() where y < rect.maxY {
                    let key = String(Array("abcd")[i])
                    surface.write(chip(key, choice.text(viewModel.language), lit: draft.choice == i), x: rect.x + 2, y: y, clip: rect)
                    if draft.choice == i { surface.parkCursor(x: rect.x + 2, y: y) }
                    y += 1
                }
            } else {
                let keys = Self.truthKeys(l)
                surface.write(chip(keys[0], l.t("True"), lit: draft.truth == true) + chip(keys[1], l.t("False"), lit: draft.truth == false),
                              x: rect.x + 2, y: y, clip: rect)
                y += 1
            }
            y += 1
        }
        if !viewModel.missing.isEmpty {
            let hint: String
            if viewModel.missing.contains(.sanction) && viewModel.missing.contains(.owner) {
                hint = l.t("Choose a sanction (a–f) and who gives it: referee (r), judge (j) or both.")
            } else if viewModel.missing.contains(.sanction) {
                hint = l.t("Choose a sanction (a–f) first.")
            } else if viewModel.missing.contains(.owner) {
                hint = l.t("Choose who gives it: referee (r), judge (j) or both.")
            } else {
                hint = l.t("Choose an answer first.")
            }
            paragraph(hint, Style(.warn, [.bold]))
        }
    }

    private func verdictMark(_ verdict: QuizVerdict, _ glyphs: Glyphs) -> Span {
        switch verdict {
        case .right: return Span(glyphs.check, Style(.good, [.bold]))
        case .partial: return Span(glyphs.warning, Style(.warn, [.bold]))
        case .wrong: return Span(glyphs.cross, Style(.bad, [.bold]))
        }
    }

    private func questionText(_ question: QuizQuestion) -> String {
        switch question {
        case .penalty(let id): return viewModel.penalty(id)?.description.text(viewModel.language) ?? id
        case .bank(let id): return viewModel.bank?.question(id)?.prompt.text(viewModel.language) ?? id
        }
    }

    private func renderResult(into surface: Surface, rect: Rect, context: RenderContext) {
        guard let record = viewModel.shownRecord else { return }
        let l = context.localizer
        var y = rect.y + 1
        let verdict = record.passed ? context.glyphs.check + " " + l.t("Passed") : context.glyphs.cross + " " + l.t("Failed")
        let x = surface.write(l.t("Score {points} / {max}", ["points": String(record.points), "max": String(record.maxPoints)]) + " · \(record.percent) % · ",
                              x: rect.x, y: y, style: Style(.title, [.bold]), clip: rect)
        surface.write(verdict, x: x, y: y, style: record.passed ? Style(.good, [.bold]) : Style(.bad, [.bold]), clip: rect)
        y += 1
        surface.write(LocalTime.minutes(record.date) + " · " + record.kind.name(l), x: rect.x, y: y, style: Style(.muted), clip: rect)
        y += 2
        surface.write(l.t("Review: Enter opens an answer beside the right one"), x: rect.x, y: y, style: Style(.muted), clip: rect)
        let listRect = Self.reviewListRect(rect)
        // The quiz just finished says which questions changed Leitner box ("box 2 → 3").
        let moves = viewModel.boxMoves
        let moveWidth = moves.values.map { Self.moveText($0, l).displayWidth + 2 }.max() ?? 0
        ListView().render(reviewList, into: surface, rect: listRect) { index, _ in
            let item = record.items[index]
            let lead = " \(index + 1). "
            var spans = [self.verdictMark(item.verdict, context.glyphs), Span(lead)]
            let room = listRect.width - 2 - lead.displayWidth - moveWidth - (record.items.count > listRect.height ? 1 : 0)
            let question = self.questionText(item.question).truncated(toWidth: max(1, room), ellipsis: context.glyphs.ellipsis)
            spans.append(Span(question))
            if let move = moves[index] {
                spans.append(Span(String(repeating: " ", count: max(2, room - question.displayWidth + 2))))
                spans.append(Span(Self.moveText(move, l), Style(move.to > move.from ? .good : .bad)))
            }
            return spans
        }
    }

    /// The keys for true and false in the interface language ("v f" in fr, es and it: vrai,
    /// verdadero, vero); `t` and `f` answer in every language too.
    static func truthKeys(_ l: Localizer) -> [String] {
        [l.t("t", context: "key for true"), l.t("f", context: "key for false")]
    }

    /// The answer a key gives to a true/false statement, or nil.
    static func truth(of key: Key, _ l: Localizer) -> Bool? {
        guard case .character(let c) = key else { return nil }
        let keys = truthKeys(l)
        if String(c) == keys[0] || c == "t" { return true }
        if String(c) == keys[1] || c == "f" { return false }
        return nil
    }

    /// "box 2 → 3": where a question went in the Leitner boxes.
    private static func moveText(_ move: QuizViewModel.BoxMove, _ l: Localizer) -> String {
        l.t("box {from} → {to}", ["from": String(move.from), "to": String(move.to)])
    }

    /// One answer beside the right one: in a review, and after each answer outside exam mode.
    private func renderAnswer(_ item: QuizItem, number: Int, total: Int, into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        var y = rect.y + 1
        let verdictText: String
        switch item.verdict {
        case .right: verdictText = l.t("right")
        case .partial: verdictText = l.t("partly right")
        case .wrong: verdictText = l.t("wrong")
        }
        var x = surface.write(l.t("Question {number} / {total}", ["number": String(number), "total": String(total)]) + " · ",
                              x: rect.x, y: y, style: Style(.accent, [.bold]), clip: rect)
        x = surface.write([verdictMark(item.verdict, context.glyphs)], x: x, y: y, clip: rect)
        // The answer's score, not "points": on this page points are what a sanction deducts.
        surface.write(" " + verdictText + " · " + l.t("this question {points} / {max}", ["points": String(item.points), "max": String(QuizScoring.pointsPerQuestion)]),
                      x: x, y: y, style: Style(.text, [.bold]), clip: rect)
        y += 2
        for line in WordWrap.wrap(questionText(item.question), width: rect.width) where y < rect.maxY {
            surface.write(line, x: rect.x, y: y, style: Style(.title, [.bold]), clip: rect)
            y += 1
        }
        y += 1
        let labelWidth = 14
        let column = max(16, (rect.width - labelWidth) / 2)
        surface.write(l.t("Your answer"), x: rect.x + labelWidth, y: y, style: Style(.muted, [.underline]), clip: rect)
        surface.write(l.t("Right answer"), x: rect.x + labelWidth + column, y: y, style: Style(.muted, [.underline]), clip: rect)
        y += 1
        // Each answer wraps in its column: the right one is never cut.
        func row(_ label: String, _ mine: String, _ right: String) {
            guard y < rect.maxY else { return }
            surface.write(label, x: rect.x, y: y, style: Style(.muted), clip: rect)
            let mineLines = WordWrap.wrap(mine, width: column - 2), rightLines = WordWrap.wrap(right, width: column - 2)
            for i in 0..<max(mineLines.count, rightLines.count) where y < rect.maxY {
                if i < mineLines.count {
                    surface.write(mineLines[i], x: rect.x + labelWidth, y: y, style: mine == right ? Style(.good) : Style(.bad, [.bold]), clip: rect)
                }
                if i < rightLines.count {
                    surface.write(rightLines[i], x: rect.x + labelWidth + column, y: y, style: Style(.good, [.bold]), clip: rect)
                }
                y += 1
            }
        }
        let yes = context.glyphs.check, no = context.glyphs.ascii ? "-" : "·"
        var article: String?
        var explanation: String?
        switch (item.question, item.answer) {
        case (.penalty(let id), .penalty(let sanction, let referee, let judge)):
            guard let penalty = viewModel.penalty(id), let book = viewModel.penalties else { break }
            let name = { (s: Sanction) in (context.glyphs.ascii ? book.info(s).ascii : book.info(s).glyph) + " " + book.info(s).label.text(self.viewModel.language) }
            row(l.t("Sanction"), name(sanction), name(penalty.sanction))
            row(l.t("Referee"), referee ? yes : no, penalty.referee ? yes : no)
            row(l.t("Judge"), judge ? yes : no, penalty.judge ? yes : no)
            article = penalty.articles.joined(separator: ", ")
            // Why: the articles that give this sanction for it, and what the sanction does.
            explanation = l.t("Why {sanction}: art. {articles}. {meaning}",
                              ["sanction": book.info(penalty.sanction).label.text(viewModel.language), "articles": article ?? "",
                               "meaning": book.info(penalty.sanction).explanation.text(viewModel.language)])
        case (.bank(let id), let answer):
            guard let q = viewModel.bank?.question(id) else { break }
            func text(_ a: BankQuestion.Answer) -> String {
                switch a {
                case .index(let i): return "\(Array("abcd")[i])) " + (q.choices?[i].text(viewModel.language) ?? "")
                case .truth(let t): return t ? l.t("True") : l.t("False")
                }
            }
            let mine: String
            switch answer {
            case .choice(let i): mine = text(.index(i))
            case .truth(let t): mine = text(.truth(t))
            case .penalty: mine = "?"
            }
            row(l.t("Answer"), mine, text(q.answer))
            article = q.article
            explanation = q.explanation.text(viewModel.language)
        default:
            break
        }
        y += 1
        if let article, y < rect.maxY {
            surface.write(l.t("Article {number}", ["number": article]) + (openArticle == nil ? "" : "  " + l.t("(o opens it)")),
                          x: rect.x, y: y, style: Style(.accent), clip: rect)
            y += 1
        }
        if let explanation {
            for line in WordWrap.wrap(explanation, width: rect.width) where y < rect.maxY {
                surface.write(line, x: rect.x, y: y, style: Style(.muted), clip: rect)
                y += 1
            }
        }
    }

    private func renderHistory(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let quizzes = viewModel.history.quizzes
        surface.write(l.t("Finished quizzes"), x: rect.x, y: rect.y + 1, style: Style(.title, [.bold]), clip: rect)
        guard !quizzes.isEmpty else {
            surface.write(l.t("No finished quiz yet."), x: rect.x, y: rect.y + 3, style: Style(.muted), clip: rect)
            return
        }
        let listRect = Self.historyListRect(rect)
        ListView().render(historyList, into: surface, rect: listRect) { row, _ in
            // Newest first: the last quiz kept is the first row.
            let record = quizzes[quizzes.count - 1 - row]
            let result = record.passed ? self.verdictMark(.right, context.glyphs) : self.verdictMark(.wrong, context.glyphs)
            let questions = l.n("{count} question", "{count} questions", count: record.items.count)
            let lead = " " + LocalTime.minutes(record.date) + "  "
            let score = "\(record.points)/\(record.maxPoints)  \(record.percent) %  "
            let room = listRect.width - 1 - result.text.displayWidth - lead.displayWidth - score.displayWidth - (quizzes.count > listRect.height ? 1 : 0)
            return [result, Span(lead), Span(score, Style(.text, [.bold])),
                    Span((questions + " · " + record.kind.name(l)).truncated(toWidth: max(1, room), ellipsis: context.glyphs.ellipsis), Style(.muted))]
        }
    }
}

private extension String {
    /// Swaps the triangle arrows for ASCII ones when asked.
    func replacingASCII(_ ascii: Bool) -> String {
        ascii ? replacing("◀", with: "<").replacing("▶", with: ">") : self
    }
}
