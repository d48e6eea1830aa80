/// "What do I need": the unknowns are the ungraded courses. For a block, the smallest mark that,
/// given to every ungraded course of the block, brings it to the pass mark.
public enum NeedStatus: String, Sendable, Codable {
    /// The block passes even with 0 everywhere still ungraded.
    case secured
    /// Some mark within the scale is enough.
    case reachable
    /// Even the full scale everywhere is not enough (or nothing is left to grade).
    case impossible
}

/// One unit's marks added up: the weighted sum and weight of its marks, the weight still
/// unmarked, and how many courses are marked or not.
public struct UnitTally: Sendable {
    public var graded = 0.0, gradedWeights = 0.0, weights = 0.0, unknown = 0.0
    public var marked = 0, missing = 0

    /// Σ(coef × mark) ÷ Σ coef over the marked courses; nil when none is.
    public var average: Double? { gradedWeights > 0 ? graded / gradedWeights : nil }

    /// The unit's status in the same terms as a block's: what one uniform mark in its
    /// unmarked courses would have to be for its average to reach `passMark`, against 0 …
    /// `scale`. One low mark of four is "at risk", not "out of reach".
    public func status(passMark: Double, scale: Double) -> GradeStatus {
        guard weights > 0, marked > 0 else { return .notStarted }
        guard unknown > 0 else { return (average ?? 0) >= passMark ? .passed : .failed }
        let needed = (passMark * weights - graded) / unknown
        if needed <= 0 { return .secured }
        if needed > scale { return .outOfReach }
        return (average ?? 0) >= passMark ? .onTrack : .atRisk
    }
}

/// What one block needs.
public struct BlockNeed: Equatable, Sendable {
    public var blockID: String
    public var status: NeedStatus
    /// The smallest uniform mark in 0 … scale that passes: 0 when secured, nil when impossible.
    public var needed: Double?
    /// The mark that would be needed without the 0 … scale bounds (nil when nothing is ungraded);
    /// shows how far out of reach an impossible block is.
    public var unbounded: Double?
    /// Courses of the block with a mark, and without one (counted once per unit).
    public var marked = 0
    public var missing = 0
    /// The block's average over the marks given (its units' averages weighted by coefficient).
    public var gradedAverage: Double?
}

/// How much one more point on an ungraded course raises a block's average (with every ungraded
/// course counted, as in the solver).
public struct CourseLeverage: Equatable, Sendable {
    public var courseID: String
    public var blockID: String
    public var pointsPerPoint: Double
}

/// The solver's answer for the whole year.
public struct GradeNeeds: Equatable, Sendable {
    public var blocks: [BlockNeed]
    public var leverage: [CourseLeverage]
    /// The year needs the largest of the blocks' marks; impossible when any block is.
    public var status: NeedStatus
    public var needed: Double?
}

extension GradeBook {
    /// Every unit's marks added up, in the order of `units`: one pass over the courses that
    /// the unit averages and every block's needs are then read from.
    public func tallies() -> [UnitTally] {
        units.map { unit in
            var tally = UnitTally()
            for course in unit.courses {
                tally.weights += course.coefficient
                if let mark = course.mark {
                    tally.graded += course.coefficient * mark
                    tally.gradedWeights += course.coefficient
                    if course.coefficient > 0 { tally.marked += 1 }
                } else {
                    tally.unknown += course.coefficient
                    if course.coefficient > 0 { tally.missing += 1 }
                }
            }
            return tally
        }
    }

    /// Each unit's place in `units` by id (the first of a repeated id).
    public func unitPositions() -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(units.count)
        for (position, unit) in units.enumerated() where positions[unit.id] == nil { positions[unit.id] = position }
        return positions
    }

    /// Solves "what do I need" for every block and the year; `leverage: false` skips the
    /// per-course effects (what the header needs after every slider step).
    /// `tallies` and `positions`, when the caller has them already (`tallies()` and
    /// `unitPositions()` of this book).
    public func needs(leverage withLeverage: Bool = true, tallies: [UnitTally]? = nil, positions: [String: Int]? = nil) -> GradeNeeds {
        var blockNeeds: [BlockNeed] = []
        var leverage: [CourseLeverage] = []
        let tallies = tallies ?? self.tallies(), positions = positions ?? unitPositions()
        for block in blocks {
            let (need, blockLeverage) = need(for: block, leverage: withLeverage, tallies: tallies, positions: positions)
            blockNeeds.append(need)
            leverage += blockLeverage
        }
        let status: NeedStatus
        let needed: Double?
        if blockNeeds.isEmpty || blockNeeds.contains(where: { $0.status == .impossible }) {
            status = .impossible
            needed = nil
        } else if blockNeeds.allSatisfy({ $0.status == .secured }) {
            status = .secured
            needed = 0
        } else {
            status = .reachable
            needed = blockNeeds.compactMap(\.needed).max()
        }
        return GradeNeeds(blocks: blockNeeds, leverage: leverage, status: status, needed: needed)
    }

    /// The block average as a function of one mark m given to every ungraded course is
    /// α + β·m (each unit average is linear in m, and so is their weighted mean).
    private func need(for block: GradeBlock, leverage withLeverage: Bool, tallies: [UnitTally],
                      positions: [String: Int]) -> (BlockNeed, [CourseLeverage]) {
        var seen = Set<String>(minimumCapacity: block.units.count)
        var alpha = 0.0, beta = 0.0, unitWeights = 0.0
        var marked = 0, missing = 0, gradedSum = 0.0, gradedUnitWeights = 0.0
        var perCourse: [(id: String, share: Double)] = []
        for id in block.units where seen.insert(id).inserted {
            guard let position = positions[id] else { continue }
            let unit = units[position], tally = tallies[position]
            marked += tally.marked
            missing += tally.missing
            if let average = tally.average {
                gradedSum += unit.coefficient * average
                gradedUnitWeights += unit.coefficient
            }
            guard tally.weights > 0 else { continue }   // a unit without courses has no average
            alpha += unit.coefficient * tally.graded / tally.weights
            beta += unit.coefficient * tally.unknown / tally.weights
            unitWeights += unit.coefficient
            if withLeverage {
                for course in unit.courses where course.mark == nil {
                    perCourse.append((course.id, unit.coefficient * course.coefficient / tally.weights))
                }
            }
        }
        func answer(_ status: NeedStatus, needed: Double?, unbounded: Double?) -> BlockNeed {
            BlockNeed(blockID: block.id, status: status, needed: needed, unbounded: unbounded, marked: marked, missing: missing,
                      gradedAverage: gradedUnitWeights > 0 ? gradedSum / gradedUnitWeights : nil)
        }
        guard unitWeights > 0 else { return (answer(.impossible, needed: nil, unbounded: nil), []) }
        alpha /= unitWeights
        beta /= unitWeights
        let leverage = perCourse.map { CourseLeverage(courseID: $0.id, blockID: block.id, pointsPerPoint: $0.share / unitWeights) }
        let tolerance = 1e-9
        guard beta > tolerance else {
            let status: NeedStatus = alpha >= passMark - tolerance ? .secured : .impossible
            return (answer(status, needed: status == .secured ? 0 : nil, unbounded: nil), leverage)
        }
        let m = (passMark - alpha) / beta
        if m <= tolerance { return (answer(.secured, needed: 0, unbounded: m), leverage) }
        if m > scale + tolerance { return (answer(.impossible, needed: nil, unbounded: m), leverage) }
        return (answer(.reachable, needed: min(m, scale), unbounded: m), leverage)
    }
}
