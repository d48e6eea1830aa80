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

    public init(average: Double?, passMark: Double) {
        guard let average else { self = .ungraded; return }
        if average >= passMark { self = .pass }
        else if average >= passMark - GradeStanding.riskBand { self = .atRisk }
        else { self = .fail }
    }
}

/// The averages of design §6, computed from a `GradeBook` (never stored).
extension GradeBook {
    /// Σ(coef × mark) / Σ coef over graded courses; nil when no course is graded.
    public static func average(of courses: [GradeCourse]) -> Double? {
        var weighted = 0.0, weights = 0.0
        for course in courses {
            guard let mark = course.mark else { continue }
            weighted += course.coefficient * mark
            weights += course.coefficient
        }
        return weights > 0 ? weighted / weights : nil
    }

    public func average(ofUnit unit: GradeUnit) -> Double? { GradeBook.average(of: unit.courses) }

    /// The units' averages weighted by unit coefficient, skipping ungraded units.
    public func average(ofBlock block: GradeBlock) -> Double? {
        var weighted = 0.0, weights = 0.0
        for id in block.units {
            guard let unit = unit(id), let average = average(ofUnit: unit) else { continue }
            weighted += unit.coefficient * average
            weights += unit.coefficient
        }
        return weights > 0 ? weighted / weights : nil
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
        let standings = Set(blocks.map { standing(average(ofBlock: $0)) })
        if standings.contains(.fail) { return .fail }
        if standings.contains(.atRisk) { return .atRisk }
        return standings == [.pass] ? .pass : .ungraded
    }
}
