import FoundationEssentials

/// The six sanctions a referee or judge can give, with the stable keys the data files use.
public enum Sanction: String, CaseIterable, Codable, Sendable {
    /// Failed dive: 0 points.
    case failed
    /// The referee deducts 2 points from each judge's award.
    case deduct2 = "deduct-2"
    /// Maximum award 2 points.
    case max2 = "max-2"
    /// Maximum award 4½ points.
    case max4half = "max-4.5"
    /// The judge deducts ½ to 2 points.
    case deductHalfTo2 = "deduct-0.5-2"
    /// The judge deducts according to their own opinion.
    case judgeOpinion = "judge-opinion"
}

/// How a sanction is shown: a short label, a one-character glyph (and its ASCII stand-in), and a
/// sentence saying what it does.
public struct SanctionInfo: Codable, Equatable, Sendable {
    public var key: Sanction
    public var glyph: String
    public var ascii: String
    public var label: LocalizedText
    public var explanation: LocalizedText
}

/// One penalty of the World Aquatics diving rules: what happens, which sanction, whose call, and
/// where the rule book says so.
public struct Penalty: Codable, Equatable, Identifiable, Sendable {
    public var id: String
    /// Position in the original app's list (0…47); the display order.
    public var index: Int
    /// 2024 article numbers (body), e.g. "6.5.4".
    public var articles: [String]
    /// Numbers the 2024 penalty summary (article 10) prints where they differ from the body.
    public var summaryArticles: [String]
    /// FINA 2017–2021 "D" numbers.
    public var articles2017: [String]
    public var sanction: Sanction
    /// The referee applies it.
    public var referee: Bool
    /// A judge applies it.
    public var judge: Bool
    public var description: LocalizedText
}

/// Who applies a penalty, for filtering.
public enum PenaltyOwner: String, CaseIterable, Sendable {
    case any, referee, judge

    public func matches(_ penalty: Penalty) -> Bool {
        switch self {
        case .any: return true
        case .referee: return penalty.referee
        case .judge: return penalty.judge
        }
    }
}

/// The bundled penalty table (Data/diving/penalties.json), checked when loaded.
public struct PenaltyBook: Codable, Equatable, Sendable {
    public var format: String
    public var version: Int
    public var sanctions: [SanctionInfo]
    public var penalties: [Penalty]

    public func info(_ sanction: Sanction) -> SanctionInfo {
        sanctions.first { $0.key == sanction }!
    }

    /// Reads and checks the file: the right format, all six sanctions once, unique ids, each
    /// penalty with at least one owner and one article, every text in four languages.
    public static func load(from url: URL) throws -> PenaltyBook {
        let book = try DataFileError.decode(PenaltyBook.self, from: url)
        try book.validate(file: url.lastPathComponent)
        return book
    }

    func validate(file: String) throws {
        func fail(_ reason: String) -> DataFileError { DataFileError(file: file, reason: reason) }
        guard format == "locker-penalties", version == 1 else { throw fail("not a locker-penalties version 1 file") }
        guard sanctions.map(\.key) == Sanction.allCases else { throw fail("sanctions must be the six keys in order") }
        var seen = Set<String>()
        for (position, penalty) in penalties.enumerated() {
            guard seen.insert(penalty.id).inserted else { throw fail("duplicate id \(penalty.id)") }
            guard penalty.index == position else { throw fail("\(penalty.id) has index \(penalty.index), not its place \(position)") }
            guard penalty.referee || penalty.judge else { throw fail("\(penalty.id) has no owner") }
            guard !penalty.articles.isEmpty else { throw fail("\(penalty.id) has no article") }
            if let missing = penalty.description.missingLanguages.first {
                throw fail("\(penalty.id) has no \(missing.rawValue) description")
            }
        }
        for info in sanctions {
            if let missing = (info.label.missingLanguages + info.explanation.missingLanguages).first {
                throw fail("sanction \(info.key.rawValue) has no \(missing.rawValue) text")
            }
        }
    }
}
