import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// What a workout adds up to. Unknown values (no time in the file, no heart rate …) are nil,
/// never guessed.
public struct WorkoutSummary: Equatable, Sendable {
    public var points: Int
    /// Seconds since 1970 of the first timed point (or the file's declared start).
    public var start: Double?
    /// Last timestamp − first, pauses included.
    public var elapsedSeconds: Double?
    /// Elapsed minus pauses: segment breaks and still spells longer than 10 s.
    public var movingSeconds: Double?
    /// Haversine over consecutive positioned points of each segment.
    public var distanceMeters: Double
    /// Climbing counted once a rise exceeds the noise threshold; nil without elevations.
    public var ascentMeters: Double?
    public var heartRateMin: Double?
    public var heartRateAverage: Double?
    public var heartRateMax: Double?
    /// The maximum heart rate the zones are based on, and where it comes from.
    public var zoneMaximum: Double?
    public var zoneMaximumFromSettings: Bool
    /// Seconds (or, without time, points) in zones 1…5 (50–60 … 90–100 % of the maximum).
    public var zoneAmounts: [Double]
    /// True when `zoneAmounts` counts points because the file has no time.
    public var zonesCountPoints: Bool

    /// Average pace in seconds per kilometre over moving time.
    public var paceSecondsPerKilometre: Double? {
        guard let movingSeconds, distanceMeters > 0 else { return nil }
        return movingSeconds / (distanceMeters / 1000)
    }

    /// Average speed in km/h over moving time.
    public var speedKilometresPerHour: Double? {
        guard let movingSeconds, movingSeconds > 0 else { return nil }
        return distanceMeters / movingSeconds * 3.6
    }
}

/// A workout with its summary and the per-point values the map and the chart need.
public struct WorkoutAnalysis: Sendable {
    /// A gap or still spell longer than this is a pause.
    public static let pauseSeconds = 10.0
    /// Below this speed (m/s) a spell counts as standing still.
    public static let stillSpeed = 0.5
    /// Elevation changes smaller than this are noise.
    public static let ascentThreshold = 3.0

    public let workout: Workout
    public let summary: WorkoutSummary
    /// Distance covered up to each point (m).
    public let cumulativeDistance: [Float]
    /// True where the line must not be drawn from the previous point (segment break or pause).
    public let breakBefore: [Bool]

    /// The lowest to the highest heart rate sample, or nil without heart rate.
    public var heartRateRange: ClosedRange<Double>? {
        guard let low = summary.heartRateMin, let high = summary.heartRateMax else { return nil }
        return low...high
    }

    public init(_ workout: Workout, maxHeartRate: Int? = nil) {
        self.workout = workout
        let n = workout.count
        var cumulative = [Float](repeating: 0, count: n)
        var breaks = [Bool](repeating: false, count: n)
        var distance = 0.0
        var lastPositioned = -1
        var firstTime = Double.nan, lastTime = Double.nan
        var hrMin = Double.infinity, hrMax = -Double.infinity, hrSum = 0.0, hrCount = 0
        var ascent = 0.0, hasElevation = false, reference = Double.nan
        // Moving time: sum of time steps, minus segment breaks and still spells over 10 s.
        var moving = 0.0
        var stillSpell = 0.0
        var previousTimed = -1
        let lat = workout.latitude, lon = workout.longitude, time = workout.time, hr = workout.heartRate, ele = workout.elevation, seg = workout.segment
        for i in 0..<n {
            let newSegment = i > 0 && seg[i] != seg[i - 1]
            if newSegment { breaks[i] = true }
            var step = 0.0
            if !lat[i].isNaN && !lon[i].isNaN {
                if lastPositioned >= 0 && seg[lastPositioned] == seg[i] {
                    step = GreatCircle.meters(lat[lastPositioned], lon[lastPositioned], lat[i], lon[i])
                    distance += step
                } else if lastPositioned >= 0 {
                    breaks[i] = true
                }
                lastPositioned = i
            }
            cumulative[i] = Float(distance)
            let t = time[i]
            if !t.isNaN {
                if firstTime.isNaN { firstTime = t }
                lastTime = t
                if previousTimed >= 0 && seg[previousTimed] == seg[i] {
                    let dt = t - time[previousTimed]
                    if dt > 0 {
                        let still = Double(cumulative[i] - cumulative[previousTimed]) / dt < WorkoutAnalysis.stillSpeed
                        if still {
                            stillSpell += dt
                            // A long gap without movement (a device pause) also breaks the line.
                            if dt > WorkoutAnalysis.pauseSeconds { breaks[i] = true }
                        } else {
                            moving += WorkoutAnalysis.movingPart(ofStillSpell: stillSpell) + dt
                            stillSpell = 0
                        }
                    }
                } else if previousTimed >= 0 {
                    moving += WorkoutAnalysis.movingPart(ofStillSpell: stillSpell)
                    stillSpell = 0
                }
                previousTimed = i
            }
            let h = Double(hr[i])
            if !h.isNaN {
                hrMin = min(hrMin, h); hrMax = max(hrMax, h); hrSum += h; hrCount += 1
            }
            let e = Double(ele[i])
            if !e.isNaN {
                hasElevation = true
                if reference.isNaN { reference = e }
                else if e - reference >= WorkoutAnalysis.ascentThreshold { ascent += e - reference; reference = e }
                else if reference - e >= WorkoutAnalysis.ascentThreshold { reference = e }
            }
        }
        moving += WorkoutAnalysis.movingPart(ofStillSpell: stillSpell)
        let hasTime = !firstTime.isNaN
        let zoneMax: Double? = maxHeartRate.map(Double.init) ?? (hrCount > 0 ? hrMax : nil)
        var zones = [Double](repeating: 0, count: 5)
        if let zoneMax, zoneMax > 0 {
            for i in 0..<n {
                let h = Double(hr[i])
                guard !h.isNaN, let zone = WorkoutAnalysis.zone(of: h, maximum: zoneMax) else { continue }
                if hasTime {
                    // The time to the next timed point of the same segment counts in this point's zone.
                    guard !time[i].isNaN, i + 1 < n, !time[i + 1].isNaN, seg[i + 1] == seg[i], !breaks[i + 1] else { continue }
                    let dt = time[i + 1] - time[i]
                    if dt > 0 && dt <= WorkoutAnalysis.pauseSeconds { zones[zone] += dt }
                } else {
                    zones[zone] += 1
                }
            }
        }
        summary = WorkoutSummary(
            points: n,
            start: hasTime ? firstTime : workout.declaredStart,
            elapsedSeconds: hasTime ? lastTime - firstTime : nil,
            movingSeconds: hasTime ? moving : nil,
            distanceMeters: distance,
            ascentMeters: hasElevation ? ascent : nil,
            heartRateMin: hrCount > 0 ? hrMin : nil,
            heartRateAverage: hrCount > 0 ? hrSum / Double(hrCount) : nil,
            heartRateMax: hrCount > 0 ? hrMax : nil,
            zoneMaximum: zoneMax,
            zoneMaximumFromSettings: maxHeartRate != nil,
            zoneAmounts: zones,
            zonesCountPoints: !hasTime)
        cumulativeDistance = cumulative
        breakBefore = breaks
    }

    /// A still spell up to 10 s is part of moving time (a red light); a longer one is a pause.
    static func movingPart(ofStillSpell seconds: Double) -> Double {
        seconds <= pauseSeconds ? seconds : 0
    }

    /// Zone 0…4 for 50–60 … 90–100 % of `maximum` (above 100 % counts in the top zone); nil below 50 %.
    public static func zone(of heartRate: Double, maximum: Double) -> Int? {
        let share = heartRate / maximum
        guard share >= 0.5 else { return nil }
        return min(4, Int((share - 0.5) * 10))
    }
}
