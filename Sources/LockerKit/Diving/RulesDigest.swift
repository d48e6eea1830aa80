import FoundationEssentials

/// One article of the rules: its number ("8.5.4"), title, depth (number of parts) and body.
public struct RuleArticle: Equatable, Sendable {
    public enum Block: Equatable, Sendable {
        case paragraph(String)
        case bullet(String)
    }

    public let number: String
    public var title: String
    public var blocks: [Block]
    /// 1 for a chapter ("8"), 2 for "8.5", 3 for "8.5.4" … (kept: the contents read it for every
    /// row of every frame).
    public let level: Int

    public init(number: String, title: String, blocks: [Block]) {
        self.number = number
        self.title = title
        self.blocks = blocks
        level = number.utf8.split(separator: UInt8(ascii: ".")).count
    }

    /// The body as plain text, blocks separated by newlines (bullets as "- …").
    public var bodyText: String {
        blocks.map { block in
            switch block {
            case .paragraph(let text): return text
            case .bullet(let text): return "- " + text
            }
        }.joined(separator: "\n")
    }
}

/// The rules digest of one language (Data/diving/digest/<lang>.md), articles in file order.
///
/// Format: a Markdown subset. `#… NUMBER TITLE` headings where the number of `#` equals the
/// number of parts of NUMBER; paragraphs separated by blank lines; bullets start with "- ";
/// `<!-- … -->` comment lines are ignored.
public struct RulesDigest: Equatable, Sendable {
    public var articles: [RuleArticle]
    private var positions: [String: Int]

    public init(articles: [RuleArticle]) {
        self.articles = articles
        positions = Dictionary(articles.enumerated().map { ($1.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The position of an article in `articles`, by number.
    public func index(of number: String) -> Int? { positions[number] }

    public func article(_ number: String) -> RuleArticle? { index(of: number).map { articles[$0] } }

    public static func load(from url: URL) throws -> RulesDigest {
        try parse(String(decoding: DataFileError.contents(of: url), as: UTF8.self), file: url.lastPathComponent)
    }

    public static func parse(_ text: String, file: String) throws -> RulesDigest {
        var articles: [RuleArticle] = []
        var paragraph: [String] = []
        func flush() {
            guard !paragraph.isEmpty, !articles.isEmpty else { paragraph = []; return }
            articles[articles.count - 1].blocks.append(.paragraph(paragraph.joined(separator: " ")))
            paragraph = []
        }
        for (offset, bytes) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let raw = Substring(bytes)
            let line = raw.trimmingSpaces
            let lineNumber = offset + 1
            if line.isEmpty { flush(); continue }
            if line.hasPrefix("<!--") { continue }
            if line.hasPrefix("#") {
                flush()
                let hashes = line.prefix { $0 == "#" }.count
                let rest = line.dropFirst(hashes).trimmingSpaces
                let number = String(rest.prefix { $0.isNumber || $0 == "." })
                let title = rest.dropFirst(number.count).trimmingSpaces
                let parts = number.split(separator: ".", omittingEmptySubsequences: false)
                guard !number.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
                    throw DataFileError(file: file, reason: "line \(lineNumber): a heading must start with an article number")
                }
                guard parts.count == hashes else {
                    throw DataFileError(file: file, reason: "line \(lineNumber): article \(number) needs \(parts.count) #")
                }
                articles.append(RuleArticle(number: number, title: title, blocks: []))
                continue
            }
            guard !articles.isEmpty else {
                throw DataFileError(file: file, reason: "line \(lineNumber): text before the first article")
            }
            if line.hasPrefix("- ") {
                flush()
                articles[articles.count - 1].blocks.append(.bullet(String(line.dropFirst(2))))
            } else {
                paragraph.append(line)
            }
        }
        flush()
        guard !articles.isEmpty else { throw DataFileError(file: file, reason: "no article found") }
        return RulesDigest(articles: articles)
    }
}
