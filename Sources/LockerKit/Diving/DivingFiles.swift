import Dispatch
import FoundationEssentials

/// The bundled diving files a start may show at once — the penalty table (Penalties and Quiz),
/// the question bank (Quiz) and the rules digest of the start language (Rules) — each decoded on
/// another core from the moment this is made (`Prefetch`). The program makes it before it
/// parses its command line, so the first frame of those tabs does not wait for their file, and
/// a tab shown later finds its file decoded (docs/PERFORMANCE.md, "First frame").
public final class DivingFiles: Sendable {
    public let penalties: Prefetch<Result<PenaltyBook, DataFileError>>
    public let questions: Prefetch<Result<QuestionBank, DataFileError>>
    /// The language of `digest`; another language's digest is read when asked for.
    public let digestLanguage: Language
    public let digest: Prefetch<Result<RulesDigest, DataFileError>>

    /// Starts decoding the files of `directory` (the bundled `Data/diving`): the digest on one
    /// queue, the penalty table then the question bank (which Quiz needs both of) on another, so
    /// Rules never waits for the Quiz files nor Quiz for the digest. Both queues run at utility
    /// priority: on two cores, three threads above the UI thread's priority slowed its command
    /// line parsing more than the early decoding saved (docs/PERFORMANCE.md, "First frame").
    public init(directory: URL, language: Language) {
        let rules = DispatchQueue(label: "locker.diving-files.rules", qos: .utility)
        let quiz = DispatchQueue(label: "locker.diving-files.quiz", qos: .utility)
        digestLanguage = language
        digest = Prefetch(on: rules) { RulesDigest.loaded(from: directory.appendingPathComponent("digest/\(language.rawValue).md")) }
        penalties = Prefetch(on: quiz) { PenaltyBook.loaded(from: directory.appendingPathComponent("penalties.json")) }
        questions = Prefetch(on: quiz) { QuestionBank.loaded(from: directory.appendingPathComponent("questions.json")) }
    }
}

extension PenaltyBook {
    /// The table, or why it cannot be used.
    public static func loaded(from url: URL) -> Result<PenaltyBook, DataFileError> {
        DataFileError.result(file: url.lastPathComponent) { try load(from: url) }
    }
}

extension QuestionBank {
    /// The bank, or why it cannot be used.
    public static func loaded(from url: URL) -> Result<QuestionBank, DataFileError> {
        DataFileError.result(file: url.lastPathComponent) { try load(from: url) }
    }
}

extension RulesDigest {
    /// The digest, or why it cannot be used.
    public static func loaded(from url: URL) -> Result<RulesDigest, DataFileError> {
        DataFileError.result(file: url.lastPathComponent) { try load(from: url) }
    }
}
