import FoundationEssentials

/// The user's own copy of the official rule book, split by article number
/// (`locker rules import FILE.pdf`), stored in the data directory as official-rules.json.
public struct OfficialRules: Codable, Equatable, Sendable {
    public struct Article: Codable, Equatable, Sendable {
        public var number: String
        public var text: String
    }

    public var format = "locker-official-rules"
    public var version = 1
    /// The imported file's name.
    public var source: String
    public var importedAt: Date
    public var articles: [Article]

    public func text(of number: String) -> String? { articles.first { $0.number == number }?.text }

    /// Why an import did not happen; nothing stored before is touched in any case.
    public enum ImportError: Error, Equatable {
        /// `pdftotext` (Debian package poppler-utils) is not installed.
        case converterMissing
        /// The file could not be read as a PDF (pdftotext's own message).
        case unreadable(String)
        /// The text has no numbered articles at all.
        case noArticles
        /// Some articles, but too few of the rule book's to be one (count found).
        case notARuleBook(Int)
    }

    /// Splits the text of a rule book (pdftotext -layout output) into articles.
    ///
    /// An article starts at a line that begins, in the first column, with a number such as
    /// "6.5.4" followed by two spaces; indented lines continue it. Page headers (far-indented
    /// lines) and footers ("… 133" at the end of a line after a wide gap) are dropped. When a
    /// number appears more than once (contents, summaries), the longest text wins.
    public static func split(_ text: String) -> [Article] {
        var found: [String: String] = [:]
        var order: [String] = []
        var current: String?
        var buffer: [String] = []
        func finish() {
            guard let number = current else { return }
            let body = buffer.joined(separator: "\n").trimmingSpaces
            if body.count > (found[number]?.count ?? -1) {
                if found[number] == nil { order.append(number) }
                found[number] = body
            }
            current = nil
            buffer = []
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(raw.filter { $0 != "\u{0C}" })
            while line.last == " " { line = line.dropLast() }
            if line.isEmpty { if current != nil { buffer.append("") }; continue }
            let indent = line.prefix { $0 == " " }.count
            if indent >= 40 { continue }                       // running page header
            if indent == 0 {
                if isFooter(line) { continue }
                if let (number, rest) = articleStart(line) {
                    finish()
                    current = number
                    buffer = [rest]
                } else {
                    finish()                                    // a chapter title or other text
                }
                continue
            }
            if current != nil { buffer.append(line.trimmingSpaces) }
        }
        finish()
        return order.map { Article(number: $0, text: tidy(found[$0]!)) }
    }

    static func articleStart(_ line: Substring) -> (String, String)? {
        let number = line.prefix { $0.isNumber || $0 == "." }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.count <= 5, parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 }) else { return nil }
        let rest = line.dropFirst(number.count)
        guard rest.hasPrefix("  ") || rest.isEmpty else { return nil }
        return (String(number), rest.trimmingSpaces)
    }

    static func isFooter(_ line: Substring) -> Bool {
        guard let last = line.split(separator: " ").last, last.allSatisfy(\.isNumber) else { return false }
        return line.contains("     ")
    }

    /// Joins wrapped lines into paragraphs, and hyphenated words broken across two lines; bullets
    /// ("•") start a new line.
    static func tidy(_ text: String) -> String {
        var paragraphs: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty {
                if !current.isEmpty { paragraphs.append(current); current = "" }
            } else if trimmed.hasPrefix("•") || trimmed.hasPrefix("-") {
                if !current.isEmpty { paragraphs.append(current) }
                current = "- " + trimmed.drop { $0 == "•" || $0 == "-" || $0 == " " }
            } else if current.hasSuffix("-"), current.dropLast().last?.isLetter == true, trimmed.first?.isLowercase == true {
                // A hyphenated word the PDF broke after its hyphen ("take-" / "off") is one word
                // again, with its hyphen: the rule book breaks lines only at hyphens it prints.
                current += trimmed
            } else {
                current += current.isEmpty ? trimmed : " " + trimmed
            }
        }
        if !current.isEmpty { paragraphs.append(current) }
        return paragraphs.joined(separator: "\n")
    }

    /// Builds the stored copy from a rule book's text, checking that it is one: at least 20 of
    /// the digest's article numbers must be found.
    public static func make(fromText text: String, source: String, digest: RulesDigest,
                            now: Date = Date()) throws -> OfficialRules {
        let articles = split(text)
        guard !articles.isEmpty else { throw ImportError.noArticles }
        let known = articles.filter { digest.index(of: $0.number) != nil }.count
        guard known >= 20 else { throw ImportError.notARuleBook(known) }
        return OfficialRules(source: source, importedAt: now, articles: articles)
    }

    /// Runs `pdftotext -layout FILE -` and returns its text.
    public static func extractText(fromPDF path: String) throws -> String {
        guard let converter = ExternalCommand.find("pdftotext") else { throw ImportError.converterMissing }
        let result = try ExternalCommand.run(converter, ["-layout", "-enc", "UTF-8", path, "-"])
        guard result.status == 0 else {
            let message = result.stderr.split(separator: "\n").first.map(String.init) ?? "exit status \(result.status)"
            throw ImportError.unreadable(message)
        }
        return result.stdout
    }
}
