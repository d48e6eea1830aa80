import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Where a summary's distance comes from, in this order of trust: what the device totalled
/// itself (its wheel sensor, its own filtering), its running count, then the positions.
public enum DistanceSource: String, Equatable, Sendable {
    /// Haversine along the recorded positions (impossible ones left out): the file has no
    /// distance of the device's own.
    case route
    /// The device's own running distance, point by point (TCX `DistanceMeters`, FIT `distance`).
    case device
    /// The totals the device wrote for the whole file (its laps or sessions).
    case declared
    /// Neither positions nor distances: unknown.
    case none
}

/// Where the maximum heart rate of the zones comes from.
public enum ZoneMaximumSource: String, Equatable, Sendable {
    /// The workout's own highest heart rate: no maximum was given.
    case workout
    /// The maximum saved in the settings.
    case settings
    /// `--max-hr` on the command line.
    case commandLine = "command-line"
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
    /// Positions left out of the distance and the map: 0°, 0° (no fix) and jumps no one could
    /// have made (faster than 360 km/h, or 20 km between two points without times).
    public var droppedPositions: Int = 0
    /// Points with a position (those left out excepted): a distance needs two.
    public var positions: Int = 0
    /// Set when the timestamps are broken; the figures they would give are then nil.
    public var clockProblem: ClockProblem?
    /// Metres climbed: the device's own count when the file has one, else rises in the
    /// elevations beyond the noise threshold; nil with neither.
    public var ascentMeters: Double?
    /// Whether `ascentMeters` is the device's own count (`Workout.declaredAscent`).
    public var ascentFromDevice: Bool = false
    public var heartRateMin: Double?
    public var heartRateAverage: Double?
    public var heartRateMax: Double?
    /// The maximum heart rate the zones are based on, and where it comes from.
    public var zoneMaximum: Double?
    public var zoneMaximumSource: ZoneMaximumSource
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

    /// Whether any point has a (possible) position, so there is a route to draw.
    public let hasRoute: Bool
    /// Whether `cumulativeDistance` measures the way point by point (positions or the device's count).
    public let hasDistanceAlong: Bool
    /// What the chart under the map plots (heart rate, else speed, else altitude); nil when
    /// the file has none of them.
    public let chart: WorkoutChart?

    /// Faster than this (m/s, 360 km/h) between two points, a position is impossible.
    public static let impossibleJumpSpeed = 100.0
    /// Farther than this (m) between two consecutive points without times, a position is impossible.
    public static let impossibleJumpMeters = 20_000.0

    /// `now` (seconds since 1970) bounds believable dates: a workout cannot end tomorrow.
    /// `maxHeartRate` comes from `maxHeartRateSource` (the settings unless said otherwise).
    public init(_ recorded: Workout, maxHeartRate: Int? = nil, maxHeartRateSource: ZoneMaximumSource = .settings,
                now: Double = Date().timeIntervalSince1970) {
        let (workout, dropped, jumps) = WorkoutAnalysis.withoutImpossiblePositions(recorded)
        self.workout = workout
        let n = workout.count
        var cumulative = [Float](repeating: 0, count: n)
        var breaks = [Bool](repeating: false, count: n)
        var distance = 0.0
        var positionedPairs = 0, positioned = 0
        var lastPositioned = -1
        var hrMin = Double.infinity, hrMax = -Double.infinity, hrSum = 0.0, hrCount = 0
        var ascent = 0.0, hasElevation = false, reference = Double.nan
        let lat = workout.latitude, lon = workout.longitude, time = workout.time, hr = workout.heartRate, ele = workout.elevation, seg = workout.segment

        // Distance along the route, heart rate and climb.
        for i in 0..<n {
            if i > 0 && seg[i] != seg[i - 1] { breaks[i] = true }
            if !lat[i].isNaN && !lon[i].isNaN {
                positioned += 1
                if lastPositioned >= 0 && seg[lastPositioned] == seg[i] && !jumps.contains(i) {
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

        // The device's own distance when the file has it: its totals, else its running count
        // (which may restart at 0), else the positions. The running count, when there is one,
        // also measures movement point by point (it is what a wheel or foot sensor counted).
        var source = DistanceSource.none
        if positionedPairs > 0 { source = .route }
        if workout.deviceDistance.contains(where: { !$0.isNaN }) {
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
        }
        let measuresMovement = source == .route || source == .device
        if let declared = workout.declaredDistance, declared > 0 {
            source = .declared
            distance = declared
        }

        // Time: extent, moving time (time steps minus still spells over 10 s and segment
        // breaks) and the steps that go back in time.
        var firstTime = Double.infinity, lastTime = -Double.infinity, timedCount = 0
        var moving = 0.0, stillSpell = 0.0
        var previousTimed = -1, steps = 0, backwardSteps = 0
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
        if !measuresMovement, let timer = workout.declaredTimerSeconds, timer > 0 { movingTime = timer }
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
                    // The time to the next timed point of the same segment counts in this point's
                    // zone, as moving time counts it: a long step while moving counts, a pause
                    // (a still spell over 10 s, `breaks`) does not.
                    guard !time[i].isNaN, i + 1 < n, !time[i + 1].isNaN, seg[i + 1] == seg[i], !breaks[i + 1] else { continue }
                    let dt = time[i + 1] - time[i]
                    if dt > 0 { zones[zone] += dt }
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
            droppedPositions: dropped,
            positions: positioned,
            clockProblem: clock,
            ascentMeters: workout.declaredAscent ?? (hasElevation ? ascent : nil),
            ascentFromDevice: workout.declaredAscent != nil,
            heartRateMin: hrCount > 0 ? hrMin : nil,
            heartRateAverage: hrCount > 0 ? hrSum / Double(hrCount) : nil,
            heartRateMax: hrCount > 0 ? hrMax : nil,
            zoneMaximum: zoneMax,
            zoneMaximumSource: maxHeartRate == nil ? .workout : maxHeartRateSource,
            zoneAmounts: zones,
            zonesCountPoints: !timeCounts)
        cumulativeDistance = cumulative
        breakBefore = breaks
        hasRoute = positionedPairs > 0
        hasDistanceAlong = measuresMovement
        chart = WorkoutChart.make(workout: workout, cumulativeDistance: cumulative, summary: summary, measuresMovement: measuresMovement)
    }

    /// `workout` without the positions no device can have recorded: exactly 0°, 0° (a receiver
    /// without a fix writes it), and a point that would need a jump faster than
    /// `impossibleJumpSpeed` (or longer than `impossibleJumpMeters` without times) from the track
    /// before it and to the track after it. When the track goes on from such a jump (the first
    /// points were the wrong ones, or the receiver lost its fix for a while), the one or two
    /// points before it are dropped, or, with more, the jump is kept out of the distance
    /// (`jumps`: the points the distance does not reach from the point before).
    /// Times that could not have been recorded along the way (all at one instant, or a second
    /// apart for the whole route, as GPSBabel writes them) judge no jump: then only distance does.
    static func withoutImpossiblePositions(_ recorded: Workout) -> (Workout, dropped: Int, jumps: Set<Int>) {
        var workout = recorded
        var dropped = 0
        var jumps = Set<Int>()
        let useTimes = timesCanJudgeJumps(recorded)
        func drop(_ i: Int) {
            workout.latitude[i] = .nan
            workout.longitude[i] = .nan
            dropped += 1
        }
        func possible(_ a: Int, _ b: Int) -> Bool {
            let meters = GreatCircle.meters(workout.latitude[a], workout.longitude[a], workout.latitude[b], workout.longitude[b])
            let ta = workout.time[a], tb = workout.time[b]
            if useTimes && !ta.isNaN && !tb.isNaN && tb > ta { return meters / (tb - ta) <= impossibleJumpSpeed }
            return meters <= impossibleJumpMeters
        }
        var run: [Int] = []       // the accepted points since the track began or last jumped
        var pending: Int?         // a point that jumped away from the run, not yet confirmed
        for i in 0..<workout.count where workout.hasPosition(i) {
            if abs(workout.latitude[i]) < 1e-7 && abs(workout.longitude[i]) < 1e-7 { drop(i); continue }
            guard let last = run.last else { run = [i]; continue }
            if possible(last, i) {
                if let spike = pending { drop(spike); pending = nil }
                run.append(i)
            } else if let start = pending, possible(start, i) {
                // The track goes on from the jump: a short run before it was the wrong one.
                if run.count <= 2 { run.forEach(drop) } else { jumps.insert(start) }
                run = [start, i]
                pending = nil
            } else {
                if let spike = pending { drop(spike) }
                pending = i
            }
        }
        if let spike = pending, run.count > 1 { drop(spike) }
        return (workout, dropped, jumps)
    }

    /// Whether the file's times span its route at a possible speed: the whole way, point to
    /// point with nothing left out, over the time from the first timed point to the last, is
    /// under `impossibleSpeed`.
    static func timesCanJudgeJumps(_ workout: Workout) -> Bool {
        var first = Double.infinity, last = -Double.infinity
        for t in workout.time where !t.isNaN { first = min(first, t); last = max(last, t) }
        guard last > first else { return false }
        var meters = 0.0, previous = -1
        for i in 0..<workout.count where workout.hasPosition(i) {
            if abs(workout.latitude[i]) < 1e-7 && abs(workout.longitude[i]) < 1e-7 { continue }
            if previous >= 0 {
                meters += GreatCircle.meters(workout.latitude[previous], workout.longitude[previous], workout.latitude[i], workout.longitude[i])
            }
            previous = i
        }
        return meters / (last - first) <= impossibleSpeed
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
