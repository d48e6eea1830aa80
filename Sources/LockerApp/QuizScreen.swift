import LockerKit
import TerminalUI

/// The Quiz tab: start page (length, kind, history), one question at a time, the result with a
/// review list, each answer side by side with the right one, and the history of past quizzes.
public final class QuizScreen: Screen {
    public let tab = Tab.quiz
    let viewModel: QuizViewModel
    private var reviewList = ListState()
    private var historyList = ListState()
    private var abandonDialog: ConfirmDialog?
    private var listHeight = 10

    public init(viewModel: QuizViewModel) {
        self.viewModel = viewModel
    }

    /// The abandon question takes every key while it is open.
    public var capturesText: Bool { abandonDialog != nil }
    /// Quitting in the middle of a quiz asks first.
    public var hasUnsavedChanges: Bool { viewModel.isInProgress }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    // MARK: Keys

    public func handle(_ key: Key) -> Bool {
        if var dialog = abandonDialog {
            switch dialog.handle(key) {
            case .yes?: abandonDialog = nil; viewModel.abandon()
            case .no?: abandonDialog = nil
            case nil: abandonDialog = dialog
            }
            return true
        }
        switch viewModel.page {
        case .start: return handleStart(key)
        case .question: return handleQuestion(key)
        case .result: return handleResult(key)
        case .history: return handleHistory(key)
        }
    }

    private func handleStart(_ key: Key) -> Bool {
        switch key {
        case .left: viewModel.changeCount(by: -1)
        case .right: viewModel.changeCount(by: 1)
        case .up: viewModel.changeKind(by: -1)
        case .down: viewModel.changeKind(by: 1)
        case .enter: viewModel.start()
        case .character("h"): historyList.select(viewModel.history.quizzes.count - 1); viewModel.showHistory()
        case .escape:
            guard !viewModel.problems.isEmpty else { return false }
            viewModel.dismissProblems()
        default: return false
        }
        return true
    }

    private func handleQuestion(_ key: Key) -> Bool {
        guard let question = viewModel.currentQuestion else { return false }
        switch (key, question) {
        case (.enter, _): viewModel.submit()
        case (.escape, _):
            let l = viewModel.localizer
            abandonDialog = ConfirmDialog(title: l.t("Abandon the quiz?"),
                                          message: l.t("This quiz will not be counted or kept."),
                                          yesLabel: l.t("Abandon"), noLabel: l.t("Continue"))
        case (.character(let c), .penalty):
            if let index = "abcdef".firstIndex(of: c) {
                viewModel.pickSanction("abcdef".distance(from: "abcdef".startIndex, to: index))
            } else if c == "r" {
                viewModel.toggleReferee()
            } else if c == "j" {
                viewModel.toggleJudge()
            } else {
                return false
            }
        case (.character(let c), .bank(let id)):
            let isChoice = viewModel.bank?.question(id)?.kind == .choice
            if isChoice, let index = "abcd".firstIndex(of: c) {
                viewModel.pickChoice("abcd".distance(from: "abcd".startIndex, to: index))
            } else if !isChoice && (c == "t" || c == "f") {
                viewModel.pickTruth(c == "t")
            } else {
                return false
            }
        default:
            return false
        }
        return true
    }

    private func handleResult(_ key: Key) -> Bool {
        if viewModel.reviewing != nil {
            switch key {
            case .escape, .enter: viewModel.closeReview()
            case .left, .up: if let i = viewModel.reviewing, i > 0 { viewModel.openReview(i - 1) }
            case .right, .down: if let i = viewModel.reviewing { viewModel.openReview(i + 1) }
            default: return false
            }
            return true
        }
        let count = viewModel.shownRecord?.items.count ?? 0
        reviewList.setCount(count)
        if reviewList.handle(key, pageSize: listHeight) { return true }
        switch key {
        case .enter: viewModel.openReview(reviewList.selected)
        case .escape: viewModel.backToStart()
        case .character("h"): viewModel.showHistory()
        default: return false
        }
        return true
    }

    private func handleHistory(_ key: Key) -> Bool {
        historyList.setCount(viewModel.history.quizzes.count)
        if historyList.handle(key, pageSize: listHeight) { return true }
        switch key {
        case .enter:
            guard !viewModel.history.quizzes.isEmpty else { return false }
            reviewList = ListState()
            viewModel.openPast(historyList.selected)
        case .escape: viewModel.backToStart()
        default: return false
        }
        return true
    }

    // MARK: Hints

    public func footerHints(_ l: Localizer) -> [KeyHint] {
        switch viewModel.page {
        case .start:
            return [KeyHint("←→", l.t("questions")), KeyHint("↑↓", l.t("kind")), KeyHint("Enter", l.t("start")), KeyHint("h", l.t("history"))]
        case .question:
            switch viewModel.currentQuestion {
            case .penalty?: return [KeyHint("a-f", l.t("sanction")), KeyHint("r j", l.t("referee/judge")), KeyHint("Enter", l.t("next")), KeyHint("Esc", l.t("abandon"))]
            default: return [KeyHint("a-d t f", l.t("answer")), KeyHint("Enter", l.t("next")), KeyHint("Esc", l.t("abandon"))]
            }
        case .result:
            return viewModel.reviewing == nil
                ? [KeyHint("↑↓", l.t("move")), KeyHint("Enter", l.t("review")), KeyHint("Esc", l.t("back"))]
                : [KeyHint("←→", l.t("previous/next")), KeyHint("Esc", l.t("back"))]
        case .history:
            return [KeyHint("↑↓", l.t("move")), KeyHint("Enter", l.t("open")), KeyHint("Esc", l.t("back"))]
        }
    }

    public func helpSections(_ l: Localizer) -> [HelpSection] {
        [HelpSection(title: l.t("Quiz"), hints: [
            KeyHint("← →", l.t("Start page: number of questions, 5 to 40 by 5")),
            KeyHint("↑ ↓", l.t("Start page: kind of quiz")),
            KeyHint("Enter", l.t("Start; go to the next question; open a review")),
            KeyHint("h", l.t("History of finished quizzes")),
            KeyHint("a … f", l.t("Penalty question: pick a sanction (again to clear it)")),
            KeyHint("r j", l.t("Penalty question: referee, judge (one or both)")),
            KeyHint("a … d", l.t("Multiple choice: pick an answer")),
            KeyHint("t f", l.t("True / false")),
            KeyHint("Esc", l.t("Abandon the quiz (asks first); back from a page")),
        ])]
    }

    public func status(_ l: Localizer) -> String? {
        if let problem = viewModel.problems.last { return problem }
        if viewModel.page == .question {
            return l.t("Question {number} / {total} · {points} points",
                       ["number": String(viewModel.currentIndex + 1), "total": String(viewModel.questions.count), "points": String(viewModel.points)])
        }
        return nil
    }

    // MARK: Drawing

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let area = rect.inset(dx: 1, dy: 0)
        switch viewModel.page {
        case .start: renderStart(into: surface, rect: area, context: context)
        case .question: renderQuestion(into: surface, rect: area, context: context)
        case .result:
            if let index = viewModel.reviewing { renderReview(index, into: surface, rect: area, context: context) }
            else { renderResult(into: surface, rect: area, context: context) }
        case .history: renderHistory(into: surface, rect: area, context: context)
        }
        if let abandonDialog { abandonDialog.render(into: surface, area: rect) }
    }

    private func kindName(_ kind: QuizKind, _ l: Localizer) -> String {
        switch kind {
        case .penalties: return l.t("Penalties: sanction and who gives it")
        case .choice: return l.t("Multiple choice on the rules")
        case .trueFalse: return l.t("True or false on the rules")
        case .mixed: return l.t("Mixed")
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
            let label = "\(marker) \(kindName(kind, l))  (\(viewModel.available(kind)))"
            surface.write(label, x: rect.x + 16, y: y, style: selected ? Style(.active, [.bold]) : Style(.text), clip: rect)
            y += 1
        }
        y += 1
        let available = viewModel.available(viewModel.kind)
        if available < count {
            surface.write(l.t("Only {count} questions of this kind exist; the quiz will ask them all.", ["count": String(available)]),
                          x: rect.x, y: y, style: Style(.warn), clip: rect)
            y += 1
        }
        surface.write(l.t("Enter starts · h shows the {count} finished quizzes", ["count": String(viewModel.history.quizzes.count)]),
                      x: rect.x, y: y + 1, style: Style(.muted), clip: rect)
    }

    private func chip(_ key: String, _ label: String, lit: Bool) -> [Span] {
        [Span(key, Style(.key, [.bold])), Span(" "), Span(" \(label) ", lit ? Style(.active, [.bold]) : Style(.muted)), Span("  ")]
    }

    private func renderQuestion(into surface: Surface, rect: Rect, context: RenderContext) {
        guard let question = viewModel.currentQuestion else { return }
        let l = context.localizer
        var y = rect.y + 1
        let header = l.t("Question {number} / {total}", ["number": String(viewModel.currentIndex + 1), "total": String(viewModel.questions.count)])
            + " · " + l.t("{points} points", ["points": String(viewModel.points)])
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
                surface.write(chip("t", l.t("True"), lit: draft.truth == true) + chip("f", l.t("False"), lit: draft.truth == false),
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
        let x = surface.write(l.t("{points} / {max} points", ["points": String(record.points), "max": String(record.maxPoints)]) + " · \(record.percent) % · ",
                              x: rect.x, y: y, style: Style(.title, [.bold]), clip: rect)
        surface.write(verdict, x: x, y: y, style: record.passed ? Style(.good, [.bold]) : Style(.bad, [.bold]), clip: rect)
        y += 1
        surface.write(LocalTime.minutes(record.date) + " · " + kindName(record.kind, l), x: rect.x, y: y, style: Style(.muted), clip: rect)
        y += 2
        surface.write(l.t("Review: Enter opens an answer beside the right one"), x: rect.x, y: y, style: Style(.muted), clip: rect)
        y += 1
        let listRect = Rect(x: rect.x, y: y, width: rect.width, height: rect.maxY - y)
        listHeight = listRect.height
        reviewList.setCount(record.items.count)
        ListView().render(&reviewList, into: surface, rect: listRect) { index, _ in
            let item = record.items[index]
            return [self.verdictMark(item.verdict, context.glyphs), Span(" \(index + 1). "),
                    Span(self.questionText(item.question).truncated(toWidth: listRect.width - 8, ellipsis: context.glyphs.ellipsis))]
        }
    }

    private func renderReview(_ index: Int, into surface: Surface, rect: Rect, context: RenderContext) {
        guard let record = viewModel.shownRecord, record.items.indices.contains(index) else { return }
        let l = context.localizer
        let item = record.items[index]
        var y = rect.y + 1
        let verdictText: String
        switch item.verdict {
        case .right: verdictText = l.t("right")
        case .partial: verdictText = l.t("partly right")
        case .wrong: verdictText = l.t("wrong")
        }
        var x = surface.write(l.t("Question {number} / {total}", ["number": String(index + 1), "total": String(record.items.count)]) + " · ",
                              x: rect.x, y: y, style: Style(.accent, [.bold]), clip: rect)
        x = surface.write([verdictMark(item.verdict, context.glyphs)], x: x, y: y, clip: rect)
        surface.write(" " + verdictText + " · " + l.t("{points} points", ["points": String(item.points)]), x: x, y: y, style: Style(.text, [.bold]), clip: rect)
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
        func row(_ label: String, _ mine: String, _ right: String) {
            guard y < rect.maxY else { return }
            surface.write(label, x: rect.x, y: y, style: Style(.muted), clip: rect)
            surface.write(mine.truncated(toWidth: column - 2), x: rect.x + labelWidth, y: y, style: mine == right ? Style(.good) : Style(.bad, [.bold]), clip: rect)
            surface.write(right.truncated(toWidth: column - 2), x: rect.x + labelWidth + column, y: y, style: Style(.good, [.bold]), clip: rect)
            y += 1
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
            surface.write(l.t("Article {number}", ["number": article]), x: rect.x, y: y, style: Style(.accent), clip: rect)
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
        let listRect = Rect(x: rect.x, y: rect.y + 3, width: rect.width, height: rect.height - 3)
        listHeight = listRect.height
        historyList.setCount(quizzes.count)
        ListView().render(&historyList, into: surface, rect: listRect) { index, _ in
            let record = quizzes[index]
            let result = record.passed ? self.verdictMark(.right, context.glyphs) : self.verdictMark(.wrong, context.glyphs)
            let questions = l.n("{count} question", "{count} questions", count: record.items.count)
            return [result, Span(" " + LocalTime.minutes(record.date) + "  "),
                    Span("\(record.points)/\(record.maxPoints)  \(record.percent) %  ", Style(.text, [.bold])),
                    Span(questions + " · " + self.kindName(record.kind, l), Style(.muted))]
        }
    }
}

private extension String {
    /// Swaps the triangle arrows for ASCII ones when asked.
    func replacingASCII(_ ascii: Bool) -> String {
        ascii ? replacing("◀", with: "<").replacing("▶", with: ">") : self
    }
}
