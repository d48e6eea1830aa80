/// The judging panels of art. 5.2 and how each turns awards into a dive's score (art. 7.5–7.10).
public enum JudgingPanel: Int, CaseIterable, Sendable {
    /// Individual or team events at other meets: highest and lowest cancelled.
    case five = 5
    /// Individual or team events at Olympic Games, World Championships and World Cups: two highest
    /// and two lowest cancelled.
    case seven = 7
    /// Synchronised diving at other meets: 2 + 2 execution, 5 synchronisation.
    case nine = 9
    /// Synchronised diving at the major events: 3 + 3 execution, 5 synchronisation.
    case eleven = 11

    public var isSynchro: Bool { self == .nine || self == .eleven }

    /// The panel for a number of awards, or nil when no panel has that many judges.
    public init?(awards count: Int, synchro: Bool) {
        guard let panel = JudgingPanel(rawValue: count), panel.isSynchro == synchro else { return nil }
        self = panel
    }

    /// The judges' groups in the order awards are listed: each group's awards are ranked and
    /// cancelled separately, and a missing award is replaced from its own judge group.
    var groups: [AwardGroup] {
        switch self {
        case .five: return [AwardGroup(role: .execution, judges: 0..<5, replacementJudges: 0..<5, cancelledEachEnd: 1)]
        case .seven: return [AwardGroup(role: .execution, judges: 0..<7, replacementJudges: 0..<7, cancelledEachEnd: 2)]
        case .eleven:
            return [AwardGroup(role: .executionA, judges: 0..<3, replacementJudges: 0..<3, cancelledEachEnd: 1),
                    AwardGroup(role: .executionB, judges: 3..<6, replacementJudges: 3..<6, cancelledEachEnd: 1),
                    AwardGroup(role: .synchronisation, judges: 6..<11, replacementJudges: 6..<11, cancelledEachEnd: 1)]
        case .nine:
            // The four execution awards are ranked together, but a missing one is replaced by the
            // other judge watching the same diver (art. 7.10).
            return [AwardGroup(role: .execution, judges: 0..<4, replacementJudges: nil, cancelledEachEnd: 1),
                    AwardGroup(role: .synchronisation, judges: 4..<9, replacementJudges: 4..<9, cancelledEachEnd: 1)]
        }
    }
}

/// What a judge watches.
public enum JudgeRole: String, Sendable, Codable {
    case execution, executionA, executionB, synchronisation
}

struct AwardGroup {
    var role: JudgeRole
    var judges: Range<Int>
    /// Whose awards replace a missing one; nil means "the other judge of the same diver" (9 panel).
    var replacementJudges: Range<Int>?
    var cancelledEachEnd: Int
}

/// Why awards cannot be scored. Screens and the command line translate these.
public enum PanelScoreError: Error, Equatable, Sendable {
    /// No panel has this many judges (5 or 7; synchronised 9 or 11).
    case wrongCount(Int, synchro: Bool)
    /// An award that is not a number from 0 to 10 in half points (text as typed).
    case badAward(String)
    /// The degree of difficulty is not a positive number with at most one decimal.
    case badDifficulty(String)
    /// More than one award of a judge group is missing; the rules then need another judge.
    case tooManyMissing(JudgeRole)
}

/// One judge's award as scored: the value used (given or replaced) and whether it counted.
public struct ScoredAward: Equatable, Sendable, Codable {
    /// Judge number in the order the awards were listed, from 1.
    public var judge: Int
    public var role: JudgeRole
    /// The award in half points (15 = 7.5).
    public var halfPoints: Int
    /// True when the judge gave no award and it was replaced by the rounded average of art. 7.9/7.10.
    public var replaced: Bool
    public var cancelled: Bool

    public var value: Double { Double(halfPoints) / 2 }
}

/// The score of one dive by one panel, kept exactly (hundredths of a point).
public struct PanelScore: Equatable, Sendable {
    public var panel: JudgingPanel
    /// Degree of difficulty in tenths (2.8 = 28).
    public var difficultyTenths: Int
    public var awards: [ScoredAward]

    public var kept: [ScoredAward] { awards.filter { !$0.cancelled } }
    /// Sum of the awards that count, in half points.
    public var keptHalfPoints: Int { kept.reduce(0) { $0 + $1.halfPoints } }
    /// The dive's score in hundredths of a point: kept awards × DD, and × 3/5 for synchro.
    public var hundredths: Int {
        // halfPoints/2 × tenths/10 × 100 = halfPoints × tenths × 5; synchro × 3/5 gives × 3.
        keptHalfPoints * difficultyTenths * (panel.isSynchro ? 3 : 5)
    }
    public var score: Double { Double(hundredths) / 100 }

    /// Scores `awards` (nil = the judge gave none) with `difficulty` on the panel their count
    /// implies.
    public static func compute(difficulty: String, awards: [Double?], synchro: Bool) throws -> PanelScore {
        guard let tenths = parseTenths(difficulty) else { throw PanelScoreError.badDifficulty(difficulty) }
        return try compute(difficultyTenths: tenths, awards: awards, synchro: synchro)
    }

    /// Scores `awards` (nil = the judge gave none) with a DD given in tenths.
    public static func compute(difficultyTenths tenths: Int, awards: [Double?], synchro: Bool) throws -> PanelScore {
        guard let panel = JudgingPanel(awards: awards.count, synchro: synchro) else {
            throw PanelScoreError.wrongCount(awards.count, synchro: synchro)
        }
        var halves: [Int?] = []
        for award in awards {
            guard let award else { halves.append(nil); continue }
            guard let half = halfPoints(award) else { throw PanelScoreError.badAward(NumberText.compact(award)) }
            halves.append(half)
        }
        return try compute(panel: panel, difficultyTenths: tenths, halfPoints: halves)
    }

    /// Parses a comma or space separated list of awards; `-`, `x` or an empty item is a missing award.
    /// A half may be written `½`, as on a flash card ("7½", "½").
    public static func parseAwards(_ text: String) throws -> [Double?] {
        let text = Self.spellingOutHalves(text)
        let words = text.split(whereSeparator: \.isWhitespace)
        if words.isEmpty { return [] }
        let items: [Substring]
        if text.contains(";") {
            // Semicolons part the awards; a comma inside one is a decimal comma ("7,5; 8").
            items = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ";" })
        } else if words.count > 1 {
            // Blanks part the awards, and a comma ending a word too ("8, 7.5, 7"); a comma
            // inside a word is a decimal comma, as fr, es and it write it ("8 7,5 7,5").
            items = words.flatMap { word -> [Substring] in
                word.hasSuffix(",") ? word.dropLast().split(separator: ",", omittingEmptySubsequences: false) : [word]
            }
        } else {
            // One word: commas part the awards, and "8,,7" has a missing award in the middle.
            items = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," })
        }
        return try items.map { item in
            let trimmed = item.filter { !$0.isWhitespace }
            if trimmed.isEmpty || trimmed == "-" || trimmed.lowercased() == "x" || trimmed == "—" { return nil }
            // Plain decimals only: "7", "7.5", "7,5", "10.0" (not "0x7", "7e0", "+7" or ",5",
            // which Double would also read).
            let plain = trimmed.replacing(",", with: ".")
            let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), (1...2).contains(parts[0].count), parts.count == 1 || (1...2).contains(parts[1].count),
                  parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
                  let value = Double(plain), let half = halfPoints(value) else {
                throw PanelScoreError.badAward(String(trimmed))
            }
            return Double(half) / 2
        }
    }

    static func compute(panel: JudgingPanel, difficultyTenths: Int, halfPoints given: [Int?]) throws -> PanelScore {
        var awards = given.enumerated().map { index, half in
            ScoredAward(judge: index + 1, role: .execution, halfPoints: half ?? 0, replaced: half == nil, cancelled: false)
        }
        for group in panel.groups {
            for judge in group.judges { awards[judge].role = group.role }
            let missing = group.judges.filter { given[$0] == nil }
            if missing.isEmpty { continue }
            for judge in missing {
                let sources: [Int]
                if let replacement = group.replacementJudges {
                    sources = replacement.filter { $0 != judge }
                } else {
                    // 9 panel: judges 1–2 watch diver A, 3–4 diver B.
                    sources = [judge % 2 == 0 ? judge + 1 : judge - 1]
                }
                let present = sources.compactMap { given[$0] }
                // One replacement per group: with two missing the average would rest on too few judges.
                guard missing.count == 1 || (group.replacementJudges == nil && present.count == sources.count) else {
                    throw PanelScoreError.tooManyMissing(group.role)
                }
                guard !present.isEmpty else { throw PanelScoreError.tooManyMissing(group.role) }
                awards[judge].halfPoints = roundedAverage(halfPoints: present)
            }
        }
        for group in panel.groups {
            // Stable ranking by value then judge number: of several equal awards, the first
            // listed ones are cancelled at the low end and the last listed at the high end.
            let ranked = group.judges.sorted { (awards[$0].halfPoints, $0) < (awards[$1].halfPoints, $1) }
            for judge in ranked.prefix(group.cancelledEachEnd) + ranked.suffix(group.cancelledEachEnd) {
                awards[judge].cancelled = true
            }
        }
        return PanelScore(panel: panel, difficultyTenths: difficultyTenths, awards: awards)
    }

    /// The average of awards rounded as art. 7.9 says: a fraction of .01–.24 down to the whole
    /// point, .25–.74 to the half point, .75 and more up to the next whole point.
    static func roundedAverage(halfPoints values: [Int]) -> Int {
        // Work in hundredths of a point to stay exact: average = sum/2/count.
        let hundredths = (values.reduce(0, +) * 50 * 2 + values.count) / (2 * values.count)  // rounded to nearest hundredth
        let whole = hundredths / 100
        let fraction = hundredths % 100
        switch fraction {
        case ..<25: return whole * 2
        case ..<75: return whole * 2 + 1
        default: return whole * 2 + 2
        }
    }

    /// An award as half points, or nil when it is not 0…10 in steps of 0.5.
    static func halfPoints(_ value: Double) -> Int? {
        let doubled = value * 2
        guard doubled.isFinite, doubled == doubled.rounded(), (0...20).contains(doubled) else { return nil }
        return Int(doubled)
    }

    /// "2.8" or "2,8" as 28 tenths; nil for zero, negatives, more than one decimal or more than 9.9.
    public static func parseTenths(_ text: String) -> Int? {
        let cleaned = text.filter { !$0.isWhitespace }.replacing(",", with: ".")
        guard let value = Double(cleaned), value.isFinite else { return nil }
        let tenths = (value * 10).rounded()
        guard abs(tenths - value * 10) < 1e-6, tenths >= 1, tenths <= 99 else { return nil }
        return Int(tenths)
    }

    /// `text` with each `½` written as a decimal: "7½" → "7.5", "½" → "0.5".
    static func spellingOutHalves(_ text: String) -> String {
        guard text.contains("½") else { return text }
        var plain = ""
        var previous: Character = " "
        for character in text {
            if character == "½" { plain += previous.isNumber ? ".5" : "0.5" } else { plain.append(character) }
            previous = character
        }
        return plain
    }

    /// Half points as an award is written: 15 → "7.5", 14 → "7".
    public static func formatHalfPoints(_ value: Int) -> String {
        value % 2 == 0 ? "\(value / 2)" : "\(value / 2).5"
    }

    /// Hundredths of a point as "59.64".
    public static func formatHundredths(_ value: Int) -> String {
        let cents = value % 100
        return "\(value / 100)." + (cents < 10 ? "0" : "") + "\(cents)"
    }
}
