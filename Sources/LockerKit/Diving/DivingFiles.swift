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

    /// Starts decoding the files of `directory` (the bundled `Data/diving`).
    public init(directory: URL, language: Language) {
        penalties = Prefetch { PenaltyBook.loaded(from: directory.appendingPathComponent("penalties.json")) }
        questions = Prefetch { QuestionBank.loaded(from: directory.appendingPathComponent("questions.json")) }
        digestLanguage = language
        digest = Prefetch { RulesDigest.loaded(from: directory.appendingPathComponent("digest/\(language.rawValue).md")) }
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
