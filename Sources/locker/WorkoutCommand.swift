// `locker workout FILE` and `locker workout import FILE`.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

struct WorkoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: localizer.t("Summary of a recorded workout (.gpx, .tcx, .fit or .json), or import one into the Workout tab."),
        subcommands: [WorkoutSummaryCommand.self, WorkoutImportCommand.self],
        defaultSubcommand: WorkoutSummaryCommand.self)
}

/// Reads a workout or exits 1 with the translated reason (file and line).
func readWorkout(_ path: String) -> Workout {
    do {
        return try WorkoutReader.read(path: path)
    } catch let error as WorkoutError {
        fail(error.message(localizer), status: 1)
    } catch {
        fail("\(error)", status: 1)
    }
}

struct WorkoutSummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: localizer.t("Print the summary of a workout file: time, distance, pace, heart rate, climb, zones."),
        discussion: localizer.t("A file that holds several activities (tracks hours apart, or FIT sessions) gets one summary each; with --json, an array of them."))

    @Argument(help: ArgumentHelp(localizer.t("A .gpx, .tcx, .fit or .json workout file."), valueName: "file"))
    var file: String

    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text.")))
    var json = false

    @Option(name: .customLong("max-hr"), help: ArgumentHelp(localizer.t("Maximum heart rate for the zones (default: settings, else the workout's maximum)."), valueName: "bpm"))
    var maxHR: Int?

    @OptionGroup var shared: SharedOptions

    struct Output: Encodable {
        var file: String
        var format: String
        var title: String
        var subtitle: String?
        var activity: Int
        var activities: Int
        var points: Int
        var start: String?
        var elapsedSeconds: Double?
        var movingSeconds: Double?
        var distanceMeters: Double?
        var distanceSource: String
        var droppedPositions: Int
        var clockProblem: String?
        var ignoredTimes: Int
        var paceSecondsPerKm: Double?
        var speedKmh: Double?
        var ascentMeters: Double?
        var ascentSource: String?
        var hrMin: Double?
        var hrAvg: Double?
        var hrMax: Double?
        var zoneMaxHR: Double?
        var zones: [Double]
        var zonesUnit: String

        private enum Keys: String, CodingKey {
            case file, format, title, subtitle, activity, activities, points, start, elapsedSeconds, movingSeconds, distanceMeters,
                 distanceSource, droppedPositions, clockProblem, ignoredTimes, paceSecondsPerKm, speedKmh, ascentMeters, ascentSource, hrMin, hrAvg, hrMax, zoneMaxHR,
                 zones, zonesUnit
        }

        /// Unknown values are written as null, not left out.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(file, forKey: .file); try c.encode(format, forKey: .format); try c.encode(title, forKey: .title)
            try c.encode(subtitle, forKey: .subtitle); try c.encode(activity, forKey: .activity); try c.encode(activities, forKey: .activities)
            try c.encode(points, forKey: .points); try c.encode(start, forKey: .start)
            try c.encode(elapsedSeconds, forKey: .elapsedSeconds); try c.encode(movingSeconds, forKey: .movingSeconds)
            try c.encode(distanceMeters, forKey: .distanceMeters); try c.encode(distanceSource, forKey: .distanceSource)
            try c.encode(droppedPositions, forKey: .droppedPositions)
            try c.encode(clockProblem, forKey: .clockProblem); try c.encode(ignoredTimes, forKey: .ignoredTimes)
            try c.encode(paceSecondsPerKm, forKey: .paceSecondsPerKm)
            try c.encode(speedKmh, forKey: .speedKmh); try c.encode(ascentMeters, forKey: .ascentMeters)
            try c.encode(ascentSource, forKey: .ascentSource)
            try c.encode(hrMin, forKey: .hrMin); try c.encode(hrAvg, forKey: .hrAvg); try c.encode(hrMax, forKey: .hrMax)
            try c.encode(zoneMaxHR, forKey: .zoneMaxHR); try c.encode(zones, forKey: .zones); try c.encode(zonesUnit, forKey: .zonesUnit)
        }
    }

    func run() throws {
        if let maxHR, !(100...250).contains(maxHR) {
            usageError(localizer.t("--max-hr must be between 100 and 250 beats per minute."))
        }
        let activities = WorkoutActivities.split(readWorkout(file))
        let settingsMax = maxHR ?? (try? DataFileError.decode(Settings.self, from: shared.paths.settingsFile))?.maxHeartRate
        let name = URL(fileURLWithPath: file).lastPathComponent
        var outputs: [Output] = []
        for (index, workout) in activities.enumerated() {
            let analysis = WorkoutAnalysis(workout, maxHeartRate: settingsMax, maxHeartRateSource: maxHR != nil ? .commandLine : .settings)
            let s = analysis.summary
            if json {
                outputs.append(Output(
                    file: name, format: workout.format.rawValue, title: workout.title(fileName: name), subtitle: workout.kind,
                    activity: index + 1, activities: activities.count, points: s.points,
                    start: s.start.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) },
                    elapsedSeconds: s.elapsedSeconds, movingSeconds: s.movingSeconds, distanceMeters: s.distanceMeters,
                    distanceSource: s.distanceSource.rawValue, droppedPositions: s.droppedPositions, clockProblem: s.clockProblem?.rawValue, ignoredTimes: workout.ignoredTimes,
                    paceSecondsPerKm: s.paceSecondsPerKilometre, speedKmh: s.speedKilometresPerHour, ascentMeters: s.ascentMeters,
                    ascentSource: s.ascentMeters == nil ? nil : s.ascentFromDevice ? "device" : "elevations",
                    hrMin: s.heartRateMin, hrAvg: s.heartRateAverage, hrMax: s.heartRateMax, zoneMaxHR: s.zoneMaximum,
                    zones: s.zoneAmounts, zonesUnit: s.zonesCountPoints ? "points" : "seconds"))
                continue
            }
            if activities.count > 1 {
                if index > 0 { print("") }
                print(localizer.t("Activity {number} of {count}", ["number": String(index + 1), "count": String(activities.count)]))
            }
            for line in WorkoutSummaryText.lines(analysis, fileName: name, localizer) { print(line) }
        }
        // One activity: one object, as always; several: an array of them.
        if json, outputs.count == 1 { printJSON(outputs[0]) } else if json { printJSON(outputs) }
    }
}

struct WorkoutImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: localizer.t("Check a workout file and copy it into the data folder's workouts/ for the Workout tab."))

    @Argument(help: ArgumentHelp(localizer.t("A .gpx, .tcx, .fit or .json workout file."), valueName: "file"))
    var file: String

    @OptionGroup var shared: SharedOptions

    func run() throws {
        let workout = readWorkout(file)
        let paths = shared.paths
        guard paths.prepare() else {
            fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1)
        }
        do {
            let stored = try WorkoutLibrary(directory: paths.workoutsDirectory).importFile(at: URL(fileURLWithPath: file))
            let analysis = WorkoutAnalysis(workout)
            print(localizer.t("Imported {file} ({points} points, {distance}) into {folder}.",
                              ["file": stored.lastPathComponent, "points": String(workout.count),
                               "distance": WorkoutSummaryText.distance(analysis.summary, localizer),
                               "folder": paths.workoutsDirectory.path]))
        } catch {
            fail(localizer.t("{file} could not be copied: {reason}", ["file": file, "reason": "\(error)"]), status: 1)
        }
    }
}
