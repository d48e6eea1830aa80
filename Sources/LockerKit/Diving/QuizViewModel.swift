import FoundationEssentials

/// The Quiz tab: choose a length and a kind, answer the questions one by one, see the result
/// and review every answer; finished quizzes are kept in a history, and penalties answered
/// wrongly come back sooner (Leitner boxes). An abandoned quiz is not kept.
public final class QuizViewModel: ViewModel {
    public enum Page: Equatable, Sendable { case start, question, result, history }

    /// What the current answer lacks before Enter can go on.
    public struct Missing: OptionSet, Equatable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let sanction = Missing(rawValue: 1)
        public static let owner = Missing(rawValue: 2)
        public static let choice = Missing(rawValue: 4)
    }

    /// The answer being built for the current question.
    public struct Draft: Equatable, Sendable {
        public var sanction: Sanction?
        public var referee = false
        public var judge = false
        public var choice: Int?
        public var truth: Bool?
    }

    public let localizer: Localizer
    public let penalties: PenaltyBook?
    public let bank: QuestionBank?
    private let historyRepository: any Repository<QuizHistory>
    private let leitnerRepository: any Repository<LeitnerBoxes>

    public private(set) var page = Page.start
    public private(set) var questionCount = 20
    public private(set) var kind = QuizKind.penalties
    public private(set) var history = QuizHistory()
    public private(set) var leitner = LeitnerBoxes()
    /// Translated messages about files that could not be read or written.
    public private(set) var problems: [String] = []

    // The quiz in progress.
    public private(set) var questions: [QuizQuestion] = []
    public private(set) var answered: [QuizItem] = []
    public private(set) var draft = Draft()
    public private(set) var missing: Missing = []
    /// The quiz the result page shows (just finished, or opened from the history).
    public private(set) var shownRecord: QuizRecord?
    /// The item of `shownRecord` being reviewed, if any.
    public private(set) var reviewing: Int?

    public static let countRange = 5...40
    public static let countStep = 5

    public init(localizer: Localizer, penalties: PenaltyBook?, bank: QuestionBank?,
                historyRepository: any Repository<QuizHistory>, leitnerRepository: any Repository<LeitnerBoxes>) {
        self.localizer = localizer
        self.penalties = penalties
        self.bank = bank
        self.historyRepository = historyRepository
        self.leitnerRepository = leitnerRepository
        super.init()
        switch historyRepository.load() {
        case .loaded(let stored): history = stored
        case .missing: break
        case .corrupt(let backup, _): problems.append(corruptMessage(backup))
        }
        switch leitnerRepository.load() {
        case .loaded(let stored): leitner = stored
        case .missing: break
        case .corrupt(let backup, _): problems.append(corruptMessage(backup))
        }
        refreshKeys()
    }

    private func corruptMessage(_ backup: URL?) -> String {
        localizer.t("A quiz file could not be read; it was kept as {file} and Locker starts afresh.",
                    ["file": backup?.lastPathComponent ?? "—"])
    }

    public var language: Language { localizer.language }
    public var currentIndex: Int { answered.count }
    public var currentQuestion: QuizQuestion? { questions.indices.contains(currentIndex) ? questions[currentIndex] : nil }
    public var points: Int { answered.reduce(0) { $0 + $1.points } }

    public func penalty(_ id: String) -> Penalty? { penalties?.penalties.first { $0.id == id } }

    /// How many questions of `kind` exist (for the weak questions: how many are due). Read on
    /// every frame of the start page, so it only counts what `refreshKeys` gathered.
    public func available(_ kind: QuizKind) -> Int { keys(of: kind).count }

    /// The Leitner keys ("p:…" for a penalty, "q:…" for a bank question) of each fixed kind,
    /// gathered once (the data does not change while Locker runs), and the weak ones, gathered
    /// again whenever the boxes change.
    private var fixedKeys: [QuizKind: [String]] = [:]
    private var weakKeys: [String] = []

    private func refreshKeys() {
        if fixedKeys.isEmpty {
            let penaltyKeys = (penalties?.penalties ?? []).map { "p:" + $0.id }
            let choiceKeys = (bank?.questions ?? []).filter { $0.kind == .choice }.map { "q:" + $0.id }
            let truthKeys = (bank?.questions ?? []).filter { $0.kind == .truefalse }.map { "q:" + $0.id }
            fixedKeys = [.penalties: penaltyKeys, .choice: choiceKeys, .trueFalse: truthKeys, .mixed: penaltyKeys + choiceKeys + truthKeys]
        }
        weakKeys = leitner.weak(among: fixedKeys[.mixed] ?? [])
    }

    private func keys(of kind: QuizKind) -> [String] {
        kind == .weak ? weakKeys : fixedKeys[kind] ?? []
    }

    // MARK: Start page

    public func changeCount(by steps: Int) {
        let next = min(max(questionCount + steps * QuizViewModel.countStep, QuizViewModel.countRange.lowerBound),
                       QuizViewModel.countRange.upperBound)
        guard next != questionCount else { return }
        questionCount = next
        notifyChanged()
    }

    /// The first or the last kind of quiz (Home, End).
    public func chooseKind(last: Bool) {
        kind = last ? QuizKind.allCases.last! : QuizKind.allCases.first!
        notifyChanged()
    }

    public func changeKind(by steps: Int) {
        let all = QuizKind.allCases
        kind = all[((all.firstIndex(of: kind)! + steps) % all.count + all.count) % all.count]
        notifyChanged()
    }

    /// Starts a quiz of `questionCount` distinct questions (fewer if fewer exist).
    public func start() {
        var rng = SystemRandomNumberGenerator()
        start(using: &rng)
    }

    public func start<R: RandomNumberGenerator>(using rng: inout R) {
        let keys = keys(of: kind)
        guard !keys.isEmpty else { return }
        let drawn = kind == .weak ? leitner.drawWeak(questionCount, from: keys, using: &rng) : leitner.draw(questionCount, from: keys, using: &rng)
        questions = drawn.map { key in
            key.hasPrefix("p:") ? .penalty(String(key.dropFirst(2))) : .bank(String(key.dropFirst(2)))
        }
        answered = []
        feedback = nil
        draft = Draft()
        missing = []
        page = .question
        notifyChanged()
    }

    // MARK: Answering

    /// Picks sanction `index` (data order 0…5); picking the lit one again clears it.
    public func pickSanction(_ index: Int) {
        guard case .penalty = currentQuestion, Sanction.allCases.indices.contains(index) else { return }
        let sanction = Sanction.allCases[index]
        draft.sanction = draft.sanction == sanction ? nil : sanction
        missing.remove(.sanction)
        notifyChanged()
    }

    public func toggleReferee() {
        guard case .penalty = currentQuestion else { return }
        draft.referee.toggle()
        missing.remove(.owner)
        notifyChanged()
    }

    public func toggleJudge() {
        guard case .penalty = currentQuestion else { return }
        draft.judge.toggle()
        missing.remove(.owner)
        notifyChanged()
    }

    /// Picks choice `index` (a…d) of a multiple-choice question.
    public func pickChoice(_ index: Int) {
        guard case .bank(let id) = currentQuestion, let q = bank?.question(id), q.kind == .choice, (0..<4).contains(index) else { return }
        draft.choice = draft.choice == index ? nil : index
        missing.remove(.choice)
        notifyChanged()
    }

    /// Answers a true/false statement.
    public func pickTruth(_ value: Bool) {
        guard case .bank(let id) = currentQuestion, let q = bank?.question(id), q.kind == .truefalse else { return }
        draft.truth = draft.truth == value ? nil : value
        missing.remove(.choice)
        notifyChanged()
    }

    /// Enter: goes on when the answer is complete; otherwise `missing` says what is lacking.
    @discardableResult
    public func submit() -> Bool {
        guard page == .question, let question = currentQuestion else { return false }
        var lacking: Missing = []
        let answer: QuizAnswer
        let points: Int
        switch question {
        case .penalty(let id):
            if draft.sanction == nil { lacking.insert(.sanction) }
            if !draft.referee && !draft.judge { lacking.insert(.owner) }
            guard lacking.isEmpty, let sanction = draft.sanction, let penalty = penalty(id) else { break }
            answer = .penalty(sanction: sanction, referee: draft.referee, judge: draft.judge)
            points = QuizScoring.score(penalty, sanction: sanction, referee: draft.referee, judge: draft.judge)
            return record(question, answer, points)
        case .bank(let id):
            guard let q = bank?.question(id) else { break }
            if q.kind == .choice, let choice = draft.choice {
                return record(question, .choice(choice), QuizScoring.score(q, .choice(choice)))
            }
            if q.kind == .truefalse, let truth = draft.truth {
                return record(question, .truth(truth), QuizScoring.score(q, .truth(truth)))
            }
            lacking.insert(.choice)
        }
        missing = lacking
        notifyChanged()
        return false
    }

    private func record(_ question: QuizQuestion, _ answer: QuizAnswer, _ points: Int) -> Bool {
        let item = QuizItem(question: question, answer: answer, points: points)
        answered.append(item)
        draft = Draft()
        missing = []
        if examMode {
            if answered.count == questions.count { finish() }
        } else {
            feedback = item   // right or wrong at once; Enter goes on
        }
        notifyChanged()
        return true
    }

    /// The answer just given, shown beside the right one until Enter (off in exam mode).
    public private(set) var feedback: QuizItem?

    /// Exam mode: nothing is revealed until the end, as in an exam. Kept with the history.
    public var examMode: Bool { history.examMode ?? false }

    /// Switches exam mode (on the start page) and remembers it.
    public func toggleExamMode() {
        history.examMode = !examMode
        saveFiles()
        notifyChanged()
    }

    /// Leaves the answer's feedback: the next question, or the result after the last one.
    public func continueAfterFeedback() {
        guard feedback != nil else { return }
        feedback = nil
        if answered.count == questions.count { finish() }
        notifyChanged()
    }

    private func finish() {
        // Whole seconds: what quiz-history.json keeps (ISO 8601), so a reloaded record is equal.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let record = QuizRecord(date: now, kind: kind, items: answered, points: points,
                                maxPoints: answered.count * QuizScoring.pointsPerQuestion)
        history.quizzes.append(record)
        boxMoves = [:]
        var verdicts: [(key: String, verdict: QuizVerdict)] = []
        for (index, item) in answered.enumerated() {
            let key: String
            switch item.question {
            case .penalty(let id): key = "p:" + id
            case .bank(let id): key = "q:" + id
            }
            let from = leitner.box(of: key)
            leitner.record(key, verdict: item.verdict)
            verdicts.append((key, item.verdict))
            let to = leitner.box(of: key)
            if from != to { boxMoves[index] = BoxMove(from: from, to: to) }
        }
        unsaved.records.append(record)
        unsaved.verdicts += verdicts.map { QuizAnswerVerdict(key: $0.key, verdict: $0.verdict) }
        saveFiles()
        refreshKeys()
        shownRecord = record
        reviewing = nil
        resultFromHistory = false
        questions = []
        answered = []
        page = .result
    }

    // MARK: Saving

    /// Where the quiz files are written: on a background thread once the app gives its
    /// `BackgroundWork` (so finishing a quiz or `x` never waits for the disk); at once without.
    public var work: BackgroundWork? {
        didSet {
            writer = work.map { work in
                SingleJob<Written>(work) { [weak self] result in
                    self?.written(result)
                    self?.notifyChanged()
                }
            }
        }
    }
    /// One write at a time; the next one takes whatever changed meanwhile.
    private var writer: SingleJob<Written>?
    /// What this run added that the files may not have yet: the quizzes finished and the
    /// answers given, written into another program's files if it changed them meanwhile.
    private var unsaved = Unsaved()

    private struct Unsaved: Sendable {
        var records: [QuizRecord] = []
        var verdicts: [QuizAnswerVerdict] = []
    }

    /// What a write of the quiz files carried of this run's quizzes and answers (`sent`) and
    /// did: the files' contents when another program's were found there (this run's quizzes
    /// and answers were then written into them).
    private struct Written: Sendable {
        var sent: Unsaved
        var history: QuizHistory?
        var leitner: LeitnerBoxes?
    }

    /// Whether a write of the quiz files is on its way.
    public var isSaving: Bool { writer?.isRunning ?? false }

    /// At quit: waits (a few seconds at most) for the write on its way and the next one.
    public func finishSaving() {
        work?.wait(until: { !self.isSaving }, seconds: 5)
    }

    /// Writes the history and the boxes as they are when the write starts.
    private func saveFiles() {
        guard let writer else { return written(Result(catching: writeAsNow())) }
        writer.request(makingWhenItStarts: { [unowned self] in
            let write = writeAsNow()
            return { _ in try write() }
        })
    }

    /// The write of the files as they are now, to run on any thread.
    private func writeAsNow() -> @Sendable () throws -> Written {
        let history = history, leitner = leitner, unsaved = unsaved
        let files = UncheckedSendable((historyRepository, leitnerRepository))
        return { try Self.write(history, leitner, unsaved, to: files.value.0, files.value.1) }
    }

    /// When another Locker (or another program) wrote a file since it was read, its quizzes
    /// and boxes stay and this run's are added to them, with this run's exam mode.
    private static func write(_ history: QuizHistory, _ leitner: LeitnerBoxes, _ unsaved: Unsaved,
                              to historyRepository: any Repository<QuizHistory>, _ leitnerRepository: any Repository<LeitnerBoxes>) throws -> Written {
        var written = Written(sent: unsaved)
        do {
            try historyRepository.save(history)
        } catch is FileChangedOnDisk {
            guard case .loaded(var theirs) = historyRepository.load() else { throw FileChangedOnDisk(url: URL(fileURLWithPath: "quiz-history.json")) }
            theirs.quizzes += unsaved.records
            theirs.examMode = history.examMode
            try historyRepository.save(theirs)
            written.history = theirs
        }
        guard !unsaved.verdicts.isEmpty else { return written }
        do {
            try leitnerRepository.save(leitner)
        } catch is FileChangedOnDisk {
            guard case .loaded(var theirs) = leitnerRepository.load() else { throw FileChangedOnDisk(url: URL(fileURLWithPath: "quiz-leitner.json")) }
            for answer in unsaved.verdicts { theirs.record(answer.key, verdict: answer.verdict) }
            try leitnerRepository.save(theirs)
            written.leitner = theirs
        }
        return written
    }

    /// A write's outcome, on the UI thread.
    private func written(_ result: Result<Written, Error>) {
        switch result {
        case .success(let written):
            unsaved.records.removeFirst(min(written.sent.records.count, unsaved.records.count))
            unsaved.verdicts.removeFirst(min(written.sent.verdicts.count, unsaved.verdicts.count))
            // Another program's files, with what this run did since the write started on top.
            if let theirs = written.history {
                let examMode = history.examMode
                history = theirs
                history.quizzes += unsaved.records
                history.examMode = examMode
            }
            if let theirs = written.leitner {
                leitner = theirs
                for answer in unsaved.verdicts { leitner.record(answer.key, verdict: answer.verdict) }
            }
        case .failure(let error):
            problems.append(localizer.t("The quiz could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)]))
        }
    }

    /// A question that changed Leitner box when the quiz ended.
    public struct BoxMove: Equatable, Sendable {
        public var from: Int
        public var to: Int
    }

    /// The questions of the quiz just finished (by item index) that moved box; empty for a
    /// quiz opened from the history.
    public private(set) var boxMoves: [Int: BoxMove] = [:]

    /// Esc (after confirmation): drops the quiz in progress; nothing is kept.
    public func abandon() {
        questions = []
        answered = []
        feedback = nil
        draft = Draft()
        missing = []
        page = .start
        notifyChanged()
    }

    public var isInProgress: Bool { page == .question && !questions.isEmpty }

    // MARK: Result, review, history

    public func openReview(_ index: Int) {
        guard let record = shownRecord, record.items.indices.contains(index) else { return }
        reviewing = index
        notifyChanged()
    }

    public func closeReview() {
        guard reviewing != nil else { return }
        reviewing = nil
        notifyChanged()
    }

    public func showHistory() {
        page = .history
        reviewing = nil
        notifyChanged()
    }

    /// Opens a past quiz (index into `history.quizzes`) on the result page.
    public func openPast(_ index: Int) {
        guard history.quizzes.indices.contains(index) else { return }
        shownRecord = history.quizzes[index]
        boxMoves = [:]
        reviewing = nil
        resultFromHistory = true
        page = .result
        notifyChanged()
    }

    /// Whether the result page shows a quiz opened from the history (Esc goes back there).
    public private(set) var resultFromHistory = false

    /// Leaves the result page: to the history it was opened from, else to the start page.
    public func backFromResult() {
        if resultFromHistory { showHistory() } else { backToStart() }
    }

    public func backToStart() {
        page = .start
        reviewing = nil
        notifyChanged()
    }

    public func dismissProblems() {
        guard !problems.isEmpty else { return }
        problems = []
        notifyChanged()
    }
}
