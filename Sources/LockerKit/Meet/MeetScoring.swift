/// What the referee decided about one dive, as it changes each judge's award before the
/// panel cancels any (art. 7.5–7.8 after 6.4, 6.5 and 8.5.4).
public struct RefereeCall: Equatable, Sendable, Codable {
    /// A re-start (6.5.1, 6.5.2, 9.6): two points off every award, never below 0.
    public var restart: Bool
    /// The highest award that counts, in half points: 4 for a position other than announced
    /// (6.4.13, "maximum 2"), 9 for arms wrong at entry (6.5.8, "maximum 4½").
    public var capHalfPoints: Int?
    /// The unsafe-dive majority (8.5.4): every award above 2 becomes 2.
    public var unsafe: Bool
    /// The article of a failed dive (6.4.8, 6.5.4 …): every award is 0.
    public var failedArticle: String?

    public init(restart: Bool = false, capHalfPoints: Int? = nil, unsafe: Bool = false, failedArticle: String? = nil) {
        self.restart = restart
        self.capHalfPoints = capHalfPoints
        self.unsafe = unsafe
        self.failedArticle = failedArticle
    }

    /// No decision: the awards count as given.
    public static let none = RefereeCall()

    public var isNone: Bool { self == .none }

    /// `award` (half points) as the panel counts it after this call; nil (no award) stays nil
    /// and is replaced later from the other judges (7.9, 7.10), whose awards were changed alike.
    public func apply(_ award: Int?) -> Int? {
        guard var value = award else { return nil }
        if failedArticle != nil { return 0 }
        if restart { value = max(0, value - 4) }
        if let cap = capHalfPoints { value = min(value, cap) }
        if unsafe { value = min(value, 4) }
        return value
    }
}

/// One dive's awards and the referee's call, scored exactly: the awards as given (half points,
/// nil for a judge who gave none), as counted after the call, and the panel's score.
public struct MeetDiveScore: Equatable, Sendable {
    public var given: [Int?]
    public var call: RefereeCall
    public var panel: PanelScore

    /// The dive's points in hundredths; 0 for a failed dive.
    public var hundredths: Int { call.failedArticle != nil ? 0 : panel.hundredths }

    /// Scores `given` (half points) with `difficultyTenths` on the panel their count implies.
    public static func compute(given: [Int?], call: RefereeCall, difficultyTenths: Int, synchro: Bool) throws -> MeetDiveScore {
        let counted = given.map { call.apply($0).map { Double($0) / 2 } }
        let panel = try PanelScore.compute(difficultyTenths: difficultyTenths, awards: counted, synchro: synchro)
        return MeetDiveScore(given: given, call: call, panel: panel)
    }
}
