import FoundationEssentials

/// What a quiz asks about.
public enum QuizKind: String, Codable, CaseIterable, Sendable {
    /// Like the original app: a penalty's description; choose its sanction and owners.
    case penalties
    /// Four-choice questions from the question bank.
    case choice
    /// True/false statements from the question bank.
    case trueFalse = "true-false"
    /// A mix of the three.
    case mixed
    /// Questions of any kind answered wrongly or partly and not learnt since (Leitner boxes 1
    /// and 2), lowest box first.
    case weak

    /// The kind as the Quiz tab and `locker quiz history` name it.
    public func name(_ l: Localizer) -> String {
        switch self {
        case .penalties: return l.t("Penalties: sanction and who gives it")
        case .choice: return l.t("Multiple choice on the rules")
        case .trueFalse: return l.t("True or false on the rules")
        case .mixed: return l.t("Mixed")
        case .weak: return l.t("My weak questions")
        }
    }
}

/// A question of the bundled bank (Data/diving/questions.json).
public struct BankQuestion: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable { case choice, truefalse }
    /// The right answer: a choice index or a truth value.
    public enum Answer: Codable, Equatable, Sendable {
        case index(Int)
        case truth(Bool)

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let truth = try? container.decode(Bool.self) { self = .truth(truth); return }
            self = .index(try container.decode(Int.self))
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .index(let i): try container.encode(i)
            case .truth(let t): try container.encode(t)
            }
        }
    }

    public var id: String
    public var kind: Kind
    public var article: String
    public var prompt: LocalizedText
    public var choices: [LocalizedText]?
    public var answer: Answer
    public var explanation: LocalizedText
}

/// The question bank, checked when loaded.
public struct QuestionBank: Codable, Equatable, Sendable {
    public var format: String
    public var version: Int
    public var questions: [BankQuestion]

    public func question(_ id: String) -> BankQuestion? { questions.first { $0.id == id } }

    public static func load(from url: URL) throws -> QuestionBank {
        let name = url.lastPathComponent
        let bank = try DataFileError.decode(QuestionBank.self, from: url)
        guard bank.format == "locker-questions", bank.version == 1 else {
            throw DataFileError(file: name, reason: "not a locker-questions version 1 file")
        }
        var seen = Set<String>()
        for q in bank.questions {
            guard seen.insert(q.id).inserted else { throw DataFileError(file: name, reason: "duplicate id \(q.id)") }
            switch (q.kind, q.answer) {
            case (.choice, .index(let i)):
                guard let choices = q.choices, choices.count == 4, (0..<4).contains(i) else {
                    throw DataFileError(file: name, reason: "\(q.id): a choice question needs 4 choices and an answer 0…3")
                }
            case (.truefalse, .truth): break
            default: throw DataFileError(file: name, reason: "\(q.id): the answer does not fit the kind")
            }
            let texts = [q.prompt, q.explanation] + (q.choices ?? [])
            if let missing = texts.flatMap(\.missingLanguages).first {
                throw DataFileError(file: name, reason: "\(q.id) has no \(missing.rawValue) text")
            }
        }
        return bank
    }
}

/// One question as asked in a quiz (by stable id, so history survives data updates).
/// Stored as `{"penalty": "double-bounce"}` or `{"bank": "scale-very-good"}`.
public enum QuizQuestion: Codable, Equatable, Hashable, Sendable {
    case penalty(String)
    case bank(String)

    enum CodingKeys: String, CodingKey { case penalty, bank }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let id = try container.decodeIfPresent(String.self, forKey: .penalty) {
            self = .penalty(id)
        } else if let id = try container.decodeIfPresent(String.self, forKey: .bank) {
            self = .bank(id)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "a question needs \"penalty\" or \"bank\""))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .penalty(let id): try container.encode(id, forKey: .penalty)
        case .bank(let id): try container.encode(id, forKey: .bank)
        }
    }
}

/// What the user answered. Stored as `{"sanction": "failed", "referee": true, "judge": false}`,
/// `{"choice": 2}` or `{"truth": true}`.
public enum QuizAnswer: Codable, Equatable, Sendable {
    case penalty(sanction: Sanction, referee: Bool, judge: Bool)
    case choice(Int)
    case truth(Bool)

    enum CodingKeys: String, CodingKey { case sanction, referee, judge, choice, truth }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let sanction = try container.decodeIfPresent(Sanction.self, forKey: .sanction) {
            self = .penalty(sanction: sanction, referee: try container.decode(Bool.self, forKey: .referee),
                            judge: try container.decode(Bool.self, forKey: .judge))
        } else if let choice = try container.decodeIfPresent(Int.self, forKey: .choice) {
            self = .choice(choice)
        } else if let truth = try container.decodeIfPresent(Bool.self, forKey: .truth) {
            self = .truth(truth)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "an answer needs \"sanction\", \"choice\" or \"truth\""))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .penalty(let sanction, let referee, let judge):
            try container.encode(sanction, forKey: .sanction)
            try container.encode(referee, forKey: .referee)
            try container.encode(judge, forKey: .judge)
        case .choice(let index): try container.encode(index, forKey: .choice)
        case .truth(let value): try container.encode(value, forKey: .truth)
        }
    }
}

/// How an answer was judged.
/// One answer's verdict on a question (its Leitner key, "p:…" or "q:…").
public struct QuizAnswerVerdict: Equatable, Sendable {
    public var key: String
    public var verdict: QuizVerdict
}

public enum QuizVerdict: String, Codable, Sendable {
    case right, partial, wrong

    public init(points: Int) { self = points >= 10 ? .right : points > 0 ? .partial : .wrong }
}

/// The scoring rules of the original app.
public enum QuizScoring {
    public static let pointsPerQuestion = 10

    /// Sanction right and both owner flags right: 10; sanction right and one flag right: 5;
    /// otherwise 0.
    public static func score(_ penalty: Penalty, sanction: Sanction, referee: Bool, judge: Bool) -> Int {
        guard sanction == penalty.sanction else { return 0 }
        let flagsRight = (referee == penalty.referee ? 1 : 0) + (judge == penalty.judge ? 1 : 0)
        return flagsRight == 2 ? 10 : flagsRight == 1 ? 5 : 0
    }

    public static func score(_ question: BankQuestion, _ answer: QuizAnswer) -> Int {
        switch (question.answer, answer) {
        case (.index(let right), .choice(let given)): return right == given ? 10 : 0
        case (.truth(let right), .truth(let given)): return right == given ? 10 : 0
        default: return 0
        }
    }

    /// Passed at 80 % or more.
    public static func passed(points: Int, maxPoints: Int) -> Bool { maxPoints > 0 && points * 100 >= 80 * maxPoints }

    /// The whole-number percentage, rounded down as the original app did.
    public static func percent(points: Int, maxPoints: Int) -> Int { maxPoints > 0 ? points * 100 / maxPoints : 0 }
}

/// One answered question of a finished quiz.
public struct QuizItem: Codable, Equatable, Sendable {
    public var question: QuizQuestion
    public var answer: QuizAnswer
    public var points: Int
    public var verdict: QuizVerdict { QuizVerdict(points: points) }
}

/// A finished quiz as kept in quiz-history.json.
public struct QuizRecord: Codable, Equatable, Sendable {
    public var date: Date
    public var kind: QuizKind
    public var items: [QuizItem]
    public var points: Int
    public var maxPoints: Int
    public var percent: Int { QuizScoring.percent(points: points, maxPoints: maxPoints) }
    public var passed: Bool { QuizScoring.passed(points: points, maxPoints: maxPoints) }
}

/// quiz-history.json: every finished quiz, oldest first.
public struct QuizHistory: Codable, Equatable, Sendable {
    public var format = "locker-quiz-history"
    public var version = 1
    public var quizzes: [QuizRecord] = []
    /// The exam mode chosen on the start page (right or wrong told only at the end); nil (an
    /// older file) is off.
    public var examMode: Bool?
    public init() {}
}

/// Leitner boxes for penalties (quiz-leitner.json): box 1 comes back most often, box 5 least.
/// A penalty never asked is in box 2, so a penalty answered wrongly (back to box 1) comes back
/// sooner than new ones; a right answer moves it up one box, a partly right one down one.
public struct LeitnerBoxes: Codable, Equatable, Sendable {
    public var format = "locker-quiz-leitner"
    public var version = 1
    public var boxes: [String: Int] = [:]
    public init() {}

    public static let newBox = 2

    public func box(of id: String) -> Int { boxes[id] ?? LeitnerBoxes.newBox }

    /// Relative chance of being asked: 16 for box 1 down to 1 for box 5.
    public func weight(of id: String) -> Int { 1 << (5 - min(max(box(of: id), 1), 5)) }

    /// The boxes of weak questions: answered wrongly or partly, not yet answered right twice.
    public static let weakBoxes = 1...2

    /// The ids of `ids` that were answered and sit in a weak box (a question never asked is
    /// not weak), lowest box first.
    public func weak(among ids: [String]) -> [String] {
        ids.filter { id in boxes[id].map(LeitnerBoxes.weakBoxes.contains) ?? false }
            .sorted { box(of: $0) < box(of: $1) }
    }

    /// Up to `count` weak ids of `ids`: the lowest box first, in random order within a box.
    public func drawWeak<R: RandomNumberGenerator>(_ count: Int, from ids: [String], using rng: inout R) -> [String] {
        let weak = weak(among: ids)
        var drawn: [String] = []
        for box in LeitnerBoxes.weakBoxes {
            drawn += weak.filter { self.box(of: $0) == box }.shuffled(using: &rng)
        }
        return Array(drawn.prefix(count))
    }

    public mutating func record(_ id: String, verdict: QuizVerdict) {
        let current = box(of: id)
        switch verdict {
        case .right: boxes[id] = min(5, current + 1)
        case .partial: boxes[id] = max(1, current - 1)
        case .wrong: boxes[id] = 1
        }
    }

    /// `count` distinct ids drawn at random, each with its Leitner weight.
    public func draw<R: RandomNumberGenerator>(_ count: Int, from ids: [String], using rng: inout R) -> [String] {
        var pool = ids
        var drawn: [String] = []
        while drawn.count < count, !pool.isEmpty {
            let total = pool.reduce(0) { $0 + weight(of: $1) }
            var ticket = Int.random(in: 0..<total, using: &rng)
            let index = pool.firstIndex { id in
                ticket -= weight(of: id)
                return ticket < 0
            }!
            drawn.append(pool.remove(at: index))
        }
        return drawn
    }
}
