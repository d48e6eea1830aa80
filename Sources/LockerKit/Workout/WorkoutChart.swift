/// What the chart under the map plots for a workout: its heart rate when the file has it, else
/// its speed along the way (times and distances), else its altitude. A file with none of them
/// has no chart.
public struct WorkoutChart: Sendable {
    public enum Series: Equatable, Sendable {
        /// Beats per minute.
        case heartRate
        /// km/h, averaged over `speedWindowSeconds` around each point.
        case speed
        /// Metres above sea level.
        case altitude
    }

    public let series: Series
    /// The value at each point (NaN where the point has none).
    public let values: [Float]
    /// The lowest to the highest value.
    public let range: ClosedRange<Double>

    /// The speed at a point is the distance covered in this many seconds around it, so GPS
    /// jitter between two close points does not draw spikes.
    public static let speedWindowSeconds = 30.0

    /// The chart `analysis` can show, or nil when the file has no heart rate, no usable times
    /// with distances, and no altitude.
    static func make(workout w: Workout, cumulativeDistance: [Float], summary: WorkoutSummary, measuresMovement: Bool) -> WorkoutChart? {
        if let low = summary.heartRateMin, let high = summary.heartRateMax {
            return WorkoutChart(series: .heartRate, values: w.heartRate, range: low...high)
        }
        if measuresMovement, summary.clockProblem == nil, summary.elapsedSeconds.map({ $0 > 0 }) == true,
           let speeds = speeds(w, cumulativeDistance), let range = range(of: speeds), range.upperBound > 0 {
            return WorkoutChart(series: .speed, values: speeds, range: min(0, range.lowerBound)...range.upperBound)
        }
        if w.elevation.count == w.count, let range = range(of: w.elevation) {
            return WorkoutChart(series: .altitude, values: w.elevation, range: range)
        }
        return nil
    }

    /// km/h at each timed point over a window of `speedWindowSeconds` around it (two indices
    /// walk the points once); nil when times do not run forward.
    private static func speeds(_ w: Workout, _ cumulative: [Float]) -> [Float]? {
        let timed = (0..<w.count).filter { !w.time[$0].isNaN }
        guard timed.count > 1 else { return nil }
        for (a, b) in zip(timed, timed.dropFirst()) where w.time[b] < w.time[a] { return nil }
        var speeds = [Float](repeating: .nan, count: w.count)
        let half = speedWindowSeconds / 2
        var low = 0, high = 0
        for (position, i) in timed.enumerated() {
            while w.time[timed[low]] < w.time[i] - half { low += 1 }
            if high < position { high = position }
            while high + 1 < timed.count && w.time[timed[high + 1]] <= w.time[i] + half { high += 1 }
            let first = timed[low], last = timed[high]
            let seconds = w.time[last] - w.time[first]
            guard seconds > 0 else { continue }
            speeds[i] = Float(Double(cumulative[last] - cumulative[first]) / seconds * 3.6)
        }
        return speeds
    }

    private static func range(of values: [Float]) -> ClosedRange<Double>? {
        var low = Float.infinity, high = -Float.infinity
        for v in values where !v.isNaN {
            if v < low { low = v }
            if v > high { high = v }
        }
        return low <= high ? Double(low)...Double(high) : nil
    }
}
