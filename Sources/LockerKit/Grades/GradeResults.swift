/// How an average stands against the pass mark.
public enum GradeStanding: String, Sendable, Codable {
    /// At or above the pass mark.
    case pass
    /// Below the pass mark by at most 2 points.
    case atRisk
    /// More than 2 points below the pass mark.
    case fail
    /// Nothing graded yet.
    case ungraded

    /// How far below the pass mark still counts as "at risk".
    public static let riskBand = 2.0

    /// The year's standing from its blocks': pass when every block passes, else the worst one
    /// (ungraded while some block has no mark and none is failing).
    public static func year(of blocks: Set<GradeStanding>) -> GradeStanding {
        if blocks.contains(.fail) { return .fail }
        if blocks.contains(.atRisk) { return .atRisk }
        return blocks == [.pass] ? .pass : .ungraded
    }

    public init(average: Double?, passMark: Double) {
        guard let average else { self = .ungraded; return }
        if average >= passMark { self = .pass }
        else if average >= passMark - GradeStanding.riskBand { self = .atRisk }
        else { self = .fail }
    }
}

/// The averages of design §6, computed from a `GradeBook` (never stored).
extension GradeBook {
    /// Σ(weight × value) / Σ weight over the pairs that have a value; nil when none has.
    static func weightedMean<S: Sequence>(_ pairs: S) -> Double? where S.Element == (weight: Double, value: Double?) {
        var weighted = 0.0, weights = 0.0
        for pair in pairs {
            guard let value = pair.value else { continue }
            weighted += pair.weight * value
            weights += pair.weight
        }
        return weights > 0 ? weighted / weights : nil
    }

    /// Σ(coef × mark) / Σ coef over graded courses; nil when no course is graded.
    public static func average(of courses: [GradeCourse]) -> Double? {
        weightedMean(courses.lazy.map { (weight: $0.coefficient, value: $0.mark) })
    }

    public func average(ofUnit unit: GradeUnit) -> Double? { GradeBook.average(of: unit.courses) }

    /// The units' averages weighted by unit coefficient, skipping ungraded units.
    public func average(ofBlock block: GradeBlock) -> Double? {
        GradeBook.weightedMean(block.units.lazy.compactMap(unit).map { (weight: $0.coefficient, value: average(ofUnit: $0)) })
    }

    /// A block passes when its average is at least the pass mark.
    public func passes(_ block: GradeBlock) -> Bool {
        guard let average = average(ofBlock: block) else { return false }
        return average >= passMark
    }

    /// The year is passed when every block passes (and there is at least one block).
    public var passed: Bool { !blocks.isEmpty && blocks.allSatisfy(passes) }

    public func standing(_ average: Double?) -> GradeStanding { GradeStanding(average: average, passMark: passMark) }

    /// The year's standing: pass when every block passes, else the worst block's standing
    /// (ungraded while some block has no mark and none is failing).
    public var yearStanding: GradeStanding {
        GradeStanding.year(of: Set(blocks.map { standing(average(ofBlock: $0)) }))
    }
}
