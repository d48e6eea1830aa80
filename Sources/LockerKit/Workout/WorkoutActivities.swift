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
    /// timed neighbours while those two are close; returns their indexes. One pass over a window
    /// of the three latest timed points, so a million points need no index array.
    static func dropLoneWrongTimes(_ workout: inout Workout) -> [Int] {
        let time = workout.time
        func far(_ a: Int, _ b: Int) -> Bool { abs(time[a] - time[b]) > gapSeconds }
        var window: [Int] = []
        var firstThree: [Int] = []
        var dropped: [Int] = []
        for i in 0..<time.count where !time[i].isNaN {
            if firstThree.count < 3 { firstThree.append(i) }
            window.append(i)
            if window.count > 3 { window.removeFirst() }
            guard window.count == 3 else { continue }
            let (before, here, after) = (window[0], window[1], window[2])
            if dropped.last != before && far(here, before) && far(after, here) && !far(after, before) { dropped.append(here) }
        }
        guard window.count == 3 else { return [] }
        // The first or the last point alone far from the rest.
        for (edge, neighbour, next) in [(firstThree[0], firstThree[1], firstThree[2]), (window[2], window[1], window[0])]
        where !dropped.contains(neighbour) && !dropped.contains(next) && !dropped.contains(edge) {
            if far(edge, neighbour) && !far(neighbour, next) { dropped.append(edge) }
        }
        dropped.sort()
        for index in dropped { workout.time[index] = .nan }
        return dropped
    }
}
