/// Where a block or the year stands, told truthfully while marks are still missing: *passed*
/// only when every course it counts has a mark and the average reaches the pass mark (or when
/// nothing can change that any more: *secured*); otherwise how it is going and what is still
/// needed (docs/DATA-FORMATS.md, "Grades: pass or not").
public enum GradeStatus: String, Sendable, Codable, CaseIterable {
    /// Every course is marked and the average reaches the pass mark.
    case passed
    /// Marks are missing, but even 0 in every one of them keeps it at the pass mark or above.
    case secured
    /// Marks are missing; the average of those given reaches the pass mark, and some mark is
    /// still needed in the others (`needed`).
    case onTrack = "on_track"
    /// Marks are missing; the average of those given is below the pass mark, and a mark within
    /// the scale in the others can still bring it there (`needed`).
    case atRisk = "at_risk"
    /// Even full marks in every course still missing cannot bring it to the pass mark.
    case outOfReach = "out_of_reach"
    /// Every course is marked and the average is below the pass mark.
    case failed
    /// No course has a mark yet (`needed` is what every course would need).
    case notStarted = "not_started"

    /// Whether the result can no longer change for the better or the worse by marks to come.
    public var isFinal: Bool { self == .passed || self == .secured || self == .failed || self == .outOfReach }

    /// The year from its blocks: failed or out of reach as soon as one block is; passed when
    /// every block is; secured when every block is passed or secured; at risk when one block
    /// is; not started when no block has a mark; on track otherwise.
    public static func year(of blocks: [GradeStatus]) -> GradeStatus {
        guard !blocks.isEmpty else { return .notStarted }
        if blocks.contains(.failed) { return .failed }
        if blocks.contains(.outOfReach) { return .outOfReach }
        if blocks.allSatisfy({ $0 == .passed }) { return .passed }
        if blocks.allSatisfy({ $0 == .passed || $0 == .secured }) { return .secured }
        if blocks.contains(.atRisk) { return .atRisk }
        if blocks.allSatisfy({ $0 == .notStarted }) { return .notStarted }
        return .onTrack
    }

    /// The status word: "passed", "on track"…
    public func word(_ l: Localizer) -> String {
        switch self {
        case .passed: return l.t("passed")
        case .secured: return l.t("secured")
        case .onTrack: return l.t("on track")
        case .atRisk: return l.t("at risk")
        case .outOfReach: return l.t("out of reach")
        case .failed: return l.t("failed")
        case .notStarted: return l.t("no marks yet")
        }
    }

    /// The status with what it means for the marks still to come: "on track — needs 9.62 in
    /// every ungraded course". `needed` is the smallest uniform mark that passes; `unbounded`
    /// the mark it would take without the scale's bounds (for out of reach).
    public func sentence(needed: Double?, unbounded: Double? = nil, _ l: Localizer) -> String {
        let mark = GradeFormat.needed(needed ?? 0, l)
        switch self {
        case .passed: return l.t("passed — every course is marked")
        case .secured: return l.t("secured — passes even with 0 in every ungraded course")
        case .onTrack: return l.t("on track — needs {mark} in every ungraded course", ["mark": mark])
        case .atRisk: return l.t("at risk — needs {mark} in every ungraded course", ["mark": mark])
        case .outOfReach:
            if let unbounded { return l.t("out of reach — would need {mark} in every ungraded course", ["mark": GradeFormat.needed(unbounded, l)]) }
            return l.t("out of reach — nothing left to grade can bring it to the pass mark")
        case .failed: return l.t("failed — every course is marked and the average is below the pass mark")
        case .notStarted: return l.t("no marks yet — needs {mark} in every course", ["mark": mark])
        }
    }
}

/// A block's or the year's status with the mark still needed.
public struct GradeOutlook: Equatable, Sendable {
    public var status: GradeStatus
    /// The smallest mark that, given to every ungraded course, passes (nil when out of reach or
    /// nothing is left to grade).
    public var needed: Double?
    /// What that mark would be without the 0 … scale bounds (how far out of reach it is).
    public var unbounded: Double?

    public init(status: GradeStatus, needed: Double?, unbounded: Double? = nil) {
        self.status = status
        self.needed = needed
        self.unbounded = unbounded
    }
}

extension GradeBook {
    /// Every block's outlook, in the book's order, and the year's.
    public func outlook() -> (blocks: [GradeOutlook], year: GradeOutlook) {
        outlook(needs: needs(leverage: false))
    }

    /// The same from needs already solved.
    public func outlook(needs: GradeNeeds) -> (blocks: [GradeOutlook], year: GradeOutlook) {
        let outlooks = needs.blocks.map(outlook(of:))
        let status = GradeStatus.year(of: outlooks.map(\.status))
        let open = outlooks.filter { !$0.status.isFinal }
        let year = GradeOutlook(status: status, needed: status.isFinal ? (status == .secured ? 0 : nil) : open.compactMap(\.needed).max(),
                                unbounded: status == .outOfReach ? outlooks.filter { $0.status == .outOfReach }.compactMap(\.unbounded).max() : nil)
        return (outlooks, year)
    }

    /// One block's outlook, from what the solver counted: how many of its courses are marked,
    /// the average of those marks, and what the rest need.
    func outlook(of need: BlockNeed) -> GradeOutlook {
        if need.missing == 0 {
            guard let average = need.gradedAverage, need.marked > 0 else { return GradeOutlook(status: .notStarted, needed: nil) }
            return GradeOutlook(status: average >= passMark ? .passed : .failed, needed: nil)
        }
        switch need.status {
        case .secured: return GradeOutlook(status: .secured, needed: 0, unbounded: need.unbounded)
        case .impossible: return GradeOutlook(status: .outOfReach, needed: nil, unbounded: need.unbounded)
        case .reachable:
            let status: GradeStatus = need.marked == 0 ? .notStarted : ((need.gradedAverage ?? 0) >= passMark ? .onTrack : .atRisk)
            return GradeOutlook(status: status, needed: need.needed, unbounded: need.unbounded)
        }
    }
}
