/// Splits a file into the activities it holds: a GPX with three hikes recorded weeks apart, a
/// FIT multisport file with one session per sport. Each activity is a `Workout` of its own, so
/// nothing downstream ever sees a months-long elapsed time.
public enum WorkoutActivities {
    /// A jump in time longer than this (forwards or backwards) starts another activity.
    public static let gapSeconds = 3 * 3600.0

    /// The activities of `workout`, in file order (one when nothing splits it). A single point
    /// whose time is far from both neighbours, which agree with each other, has a wrong time:
    /// that time is dropped (the point stays) and counted in the activity's `ignoredTimes`.
    public static func split(_ workout: Workout) -> [Workout] {
        var workout = workout
        let ignored = dropLoneWrongTimes(&workout)
        workout.ignoredTimes = ignored.count
        var starts = [0]
        var kinds: [Int: String?] = [:]
        for start in workout.activityStarts where start.index > (starts.last ?? 0) && start.index < workout.count {
            starts.append(start.index)
            kinds[start.index] = start.kind
        }
        var previousTime = Double.nan
        for i in 0..<workout.count {
            let t = workout.time[i]
            guard !t.isNaN else { continue }
            if !previousTime.isNaN && abs(t - previousTime) > gapSeconds && i > (starts.last ?? 0) {
                starts.append(i)
            }
            previousTime = t
        }
        starts.sort()
        guard starts.count > 1 else { return [workout] }
        var activities: [Workout] = []
        for (n, first) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : workout.count
            var part = Workout(format: workout.format)
            part.name = workout.name
            part.kind = kinds[first].flatMap { $0 } ?? workout.kind
            part.declaredStart = n == 0 ? workout.declaredStart : nil
            part.latitude = Array(workout.latitude[first..<end])
            part.longitude = Array(workout.longitude[first..<end])
            part.time = Array(workout.time[first..<end])
            part.heartRate = Array(workout.heartRate[first..<end])
            part.elevation = Array(workout.elevation[first..<end])
            part.segment = Array(workout.segment[first..<end])
            part.deviceDistance = Array(workout.deviceDistance[first..<end])
            part.ignoredTimes = ignored.filter { (first..<end).contains($0) }.count
            activities.append(part)
        }
        return activities
    }

    /// Sets to NaN the time of each point that jumps more than `gapSeconds` away from both its
    /// timed neighbours while those two are close; returns their indexes.
    static func dropLoneWrongTimes(_ workout: inout Workout) -> [Int] {
        var timed: [Int] = []
        timed.reserveCapacity(workout.count)
        for i in 0..<workout.count where !workout.time[i].isNaN { timed.append(i) }
        guard timed.count >= 3 else { return [] }
        var dropped: [Int] = []
        for k in 1..<(timed.count - 1) {
            let before = workout.time[timed[k - 1]], here = workout.time[timed[k]], after = workout.time[timed[k + 1]]
            guard !before.isNaN else { continue }
            if abs(here - before) > gapSeconds && abs(after - here) > gapSeconds && abs(after - before) <= gapSeconds {
                workout.time[timed[k]] = .nan
                dropped.append(timed[k])
            }
        }
        // The first or last point alone far from the rest.
        for (edge, neighbour, next) in [(timed[0], timed[1], timed[2]), (timed[timed.count - 1], timed[timed.count - 2], timed[timed.count - 3])] {
            let a = workout.time[edge], b = workout.time[neighbour], c = workout.time[next]
            guard !a.isNaN, !b.isNaN, !c.isNaN else { continue }
            if abs(a - b) > gapSeconds && abs(b - c) <= gapSeconds {
                workout.time[edge] = .nan
                dropped.append(edge)
            }
        }
        return dropped
    }
}
