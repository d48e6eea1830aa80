import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Where a summary's distance comes from.
public enum DistanceSource: String, Equatable, Sendable {
    /// Haversine along the recorded positions.
    case route
    /// The device's own distance at each point (no positions: a treadmill, a pool).
    case device
    /// The totals the device wrote for the whole file (laps, sessions), nothing per point.
    case declared
    /// Neither positions nor distances: unknown.
    case none
}

/// Why the times in a file cannot be trusted for speed, pace and moving time.
public enum ClockProblem: String, Equatable, Sendable {
    /// Every timed point carries the same time.
    case sameTime = "same-time"
    /// More than a tenth of the steps go back in time.
    case runsBackwards = "runs-backwards"
    /// Distance over moving time would be faster than anything on the ground (over 400 km/h).
    case impossibleSpeed = "impossible-speed"
    /// The dates are before 1990 or in the future: the device's clock was not set. Durations
    /// still count; the start date is unknown.
    case dateOutOfRange = "date-out-of-range"
}

/// What a workout adds up to. Unknown values (no time in the file, no heart rate, a broken
/// clock …) are nil, never guessed.
public struct WorkoutSummary: Equatable, Sendable {
    public var points: Int
    /// Seconds since 1970 of the earliest timed point (or the file's declared start); nil when
    /// the clock cannot be trusted for dates.
    public var start: Double?
    /// Latest timestamp − earliest, pauses included.
    public var elapsedSeconds: Double?
    /// Elapsed minus pauses: segment breaks and still spells longer than 10 s.
    public var movingSeconds: Double?
    /// Metres, from `distanceSource`; nil when the file has neither positions nor distances.
    public var distanceMeters: Double?
    public var distanceSource: DistanceSource
    /// Set when the timestamps are broken; the figures they would give are then nil.
    public var clockProblem: ClockProblem?
    /// Climbing counted once a rise exceeds the noise threshold; nil without elevations.
    public var ascentMeters: Double?
    public var heartRateMin: Double?
    public var heartRateAverage: Double?
    public var heartRateMax: Double?
    /// The maximum heart rate the zones are based on, and where it comes from.
    public var zoneMaximum: Double?
    public var zoneMaximumFromSettings: Bool
    /// Seconds (or, without trustworthy time, points) in zones 1…5 (50–60 … 90–100 % of the maximum).
    public var zoneAmounts: [Double]
    /// True when `zoneAmounts` counts points because the file has no (trustworthy) time.
    public var zonesCountPoints: Bool

    /// Average pace in seconds per kilometre over moving time.
    public var paceSecondsPerKilometre: Double? {
        guard let movingSeconds, movingSeconds > 0, let distanceMeters, distanceMeters > 0 else { return nil }
        return movingSeconds / (distanceMeters / 1000)
    }

    /// Average speed in km/h over moving time.
    public var speedKilometresPerHour: Double? {
        guard let movingSeconds, movingSeconds > 0, let distanceMeters else { return nil }
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
    /// Faster than this on average (m/s, 400 km/h) means the timestamps are wrong.
    public static let impossibleSpeed = 400 / 3.6
    /// Earliest believable date (1990-01-01, just after the FIT epoch).
    public static let earliestDate = 631_152_000.0

    public let workout: Workout
    public let summary: WorkoutSummary
    /// Distance covered up to each point (m), along the route or from the device.
    public let cumulativeDistance: [Float]
    /// True where the line must not be drawn from the previous point (segment break or pause).
    public let breakBefore: [Bool]

    /// The lowest to the highest heart rate sample, or nil without heart rate.
    public var heartRateRange: ClosedRange<Double>? {
        guard let low = summary.heartRateMin, let high = summary.heartRateMax else { return nil }
        return low...high
    }

    /// Whether any point has a position (so there is a route to draw).
    public var hasRoute: Bool { summary.distanceSource == .route }

    /// `now` (seconds since 1970) bounds believable dates: a workout cannot end tomorrow.
    public init(_ workout: Workout, maxHeartRate: Int? = nil, now: Double = Date().timeIntervalSince1970) {
        self.workout = workout
        let n = workout.count
        var cumulative = [Float](repeating: 0, count: n)
        var breaks = [Bool](repeating: false, count: n)
        var distance = 0.0
        var positionedPairs = 0
        var lastPositioned = -1
        var hrMin = Double.infinity, hrMax = -Double.infinity, hrSum = 0.0, hrCount = 0
        var ascent = 0.0, hasElevation = false, reference = Double.nan
        let lat = workout.latitude, lon = workout.longitude, time = workout.time, hr = workout.heartRate, ele = workout.elevation, seg = workout.segment

        // Distance along the route, heart rate and climb.
        for i in 0..<n {
            if i > 0 && seg[i] != seg[i - 1] { breaks[i] = true }
            if !lat[i].isNaN && !lon[i].isNaN {
                if lastPositioned >= 0 && seg[lastPositioned] == seg[i] {
                    distance += GreatCircle.meters(lat[lastPositioned], lon[lastPositioned], lat[i], lon[i])
                    positionedPairs += 1
                } else if lastPositioned >= 0 {
                    breaks[i] = true
                }
                lastPositioned = i
            }
            cumulative[i] = Float(distance)
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

        // Without a route, the device's own distance (a counter that may restart at 0).
        var source = DistanceSource.none
        if positionedPairs > 0 {
            source = .route
        } else if workout.deviceDistance.contains(where: { !$0.isNaN }) {
            source = .device
            distance = 0
            var previous = Float.nan
            for i in 0..<n {
                let d = workout.deviceDistance[i]
                if !d.isNaN {
                    if !previous.isNaN && d > previous { distance += Double(d - previous) }
                    previous = d
                }
                cumulative[i] = Float(distance)
            }
        } else if let declared = workout.declaredDistance, declared > 0 {
            source = .declared
            distance = declared
        }

        // Time: extent, moving time (time steps minus still spells over 10 s and segment
        // breaks) and the steps that go back in time.
        var firstTime = Double.infinity, lastTime = -Double.infinity, timedCount = 0
        var moving = 0.0, stillSpell = 0.0
        var previousTimed = -1, steps = 0, backwardSteps = 0
        let measuresMovement = source == .route || source == .device
        for i in 0..<n {
            let t = time[i]
            guard !t.isNaN else { continue }
            timedCount += 1
            firstTime = min(firstTime, t)
            lastTime = max(lastTime, t)
            if previousTimed >= 0 && seg[previousTimed] == seg[i] {
                let dt = t - time[previousTimed]
                steps += 1
                if dt < 0 { backwardSteps += 1 }
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
        moving += WorkoutAnalysis.movingPart(ofStillSpell: stillSpell)
        let hasTime = timedCount > 0

        var elapsed: Double? = hasTime ? lastTime - firstTime : nil
        var movingTime: Double? = hasTime && measuresMovement ? moving : nil
        if source == .declared, let timer = workout.declaredTimerSeconds, timer > 0 { movingTime = timer }
        var start: Double? = hasTime ? firstTime : workout.declaredStart
        var clock: ClockProblem?
        if timedCount >= 2 && lastTime == firstTime {
            clock = .sameTime
        } else if backwardSteps > 0 && backwardSteps * 10 > steps {
            clock = .runsBackwards
        } else if let movingTime, movingTime > 0, distance / movingTime > WorkoutAnalysis.impossibleSpeed {
            clock = .impossibleSpeed
        } else if hasTime && (firstTime < WorkoutAnalysis.earliestDate || lastTime > now + 86_400) {
            clock = .dateOutOfRange
        }
        switch clock {
        case .sameTime?, .runsBackwards?:
            elapsed = nil; movingTime = nil
        case .impossibleSpeed?:
            movingTime = nil
        case .dateOutOfRange?:
            start = nil
        case nil:
            break
        }
        let timeCounts = hasTime && elapsed != nil

        let zoneMax: Double? = maxHeartRate.map(Double.init) ?? (hrCount > 0 ? hrMax : nil)
        var zones = [Double](repeating: 0, count: 5)
        if let zoneMax, zoneMax > 0 {
            for i in 0..<n {
                let h = Double(hr[i])
                guard !h.isNaN, let zone = WorkoutAnalysis.zone(of: h, maximum: zoneMax) else { continue }
                if timeCounts {
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
            start: start,
            elapsedSeconds: elapsed,
            movingSeconds: movingTime,
            distanceMeters: source == .none ? nil : distance,
            distanceSource: source,
            clockProblem: clock,
            ascentMeters: hasElevation ? ascent : nil,
            heartRateMin: hrCount > 0 ? hrMin : nil,
            heartRateAverage: hrCount > 0 ? hrSum / Double(hrCount) : nil,
            heartRateMax: hrCount > 0 ? hrMax : nil,
            zoneMaximum: zoneMax,
            zoneMaximumFromSettings: maxHeartRate != nil,
            zoneAmounts: zones,
            zonesCountPoints: !timeCounts)
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
