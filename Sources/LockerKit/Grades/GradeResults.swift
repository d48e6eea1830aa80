/// How one mark or average stands against the pass mark (its colour); whether a block or the
/// year is passed is `GradeStatus`, which also counts the marks still missing.
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

    public init(average: Double?, passMark: Double) {
        guard let average else { self = .ungraded; return }
        if average >= passMark { self = .pass }
        else if average >= passMark - GradeStanding.riskBand { self = .atRisk }
        else { self = .fail }
    }
}

/// The averages of docs/DATA-FORMATS.md §6 (grades.json), computed from a `GradeBook` (never stored).
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

    /// A block is passed when every course it counts has a mark and its average reaches the
    /// pass mark (`GradeStatus`).
    public func passes(_ block: GradeBlock) -> Bool {
        guard let index = blocks.firstIndex(where: { $0.id == block.id }) else { return false }
        return outlook().blocks[index].status == .passed
    }

    /// The year is passed when every block is (and there is at least one block).
    public var passed: Bool { outlook().year.status == .passed }

    public func standing(_ average: Double?) -> GradeStanding { GradeStanding(average: average, passMark: passMark) }
}
