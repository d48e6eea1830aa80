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

    @Argument(help: ArgumentHelp(localizer.t("A .gpx, .tcx, .fit or .json workout file."), valueName: "file")) var file: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @Option(name: .customLong("max-hr"), parsing: .unconditional, help: ArgumentHelp(localizer.t("Maximum heart rate for the zones (default: settings, else the workout's maximum)."), valueName: "bpm")) var maxHR: Int?
    @OptionGroup var shared: SharedOptions

    /// Unknown values are written as null, not left out.
    struct Output: Encodable {
        var file: String
        var format: String
        var title: String
        @NullWhenAbsent var subtitle: String?
        var activity: Int
        var activities: Int
        var points: Int
        @NullWhenAbsent var start: String?
        @NullWhenAbsent var elapsedSeconds: Double?
        @NullWhenAbsent var movingSeconds: Double?
        @NullWhenAbsent var distanceMeters: Double?
        var distanceSource: String
        var droppedPositions: Int
        @NullWhenAbsent var clockProblem: String?
        var ignoredTimes: Int
        @NullWhenAbsent var paceSecondsPerKm: Double?
        @NullWhenAbsent var speedKmh: Double?
        @NullWhenAbsent var ascentMeters: Double?
        @NullWhenAbsent var ascentSource: String?
        @NullWhenAbsent var hrMin: Double?
        @NullWhenAbsent var hrAvg: Double?
        @NullWhenAbsent var hrMax: Double?
        @NullWhenAbsent var zoneMaxHR: Double?
        var zones: [Double]
        var zonesUnit: String
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

    @Argument(help: ArgumentHelp(localizer.t("A .gpx, .tcx, .fit or .json workout file."), valueName: "file")) var file: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let workout = readWorkout(file)
        let paths = shared.paths
        guard paths.prepare() else {
            fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1)
        }
        do {
            let stored = try WorkoutLibrary(directory: paths.workoutsDirectory).importFile(at: URL(fileURLWithPath: file))
            // What the tab and `locker workout` will show: the file's activities, one by one.
            let activities = WorkoutActivities.split(workout)
            let points = localizer.n("{count} point", "{count} points", count: workout.count)
            var values = ["file": TerminalText.inert(stored.lastPathComponent), "points": points, "folder": paths.workoutsDirectory.path]
            if activities.count == 1 {
                values["distance"] = WorkoutSummaryText.distance(WorkoutAnalysis(activities[0]).summary, localizer)
                print(localizer.t("Imported {file} ({points}, {distance}) into {folder}.", values))
            } else {
                print(localizer.n("Imported {file} ({count} activity, {points}) into {folder}.",
                                  "Imported {file} ({count} activities, {points}) into {folder}.", count: activities.count, values))
            }
        } catch {
            fail(localizer.t("{file} could not be copied: {reason}", ["file": file, "reason": "\(error)"]), status: 1)
        }
    }
}
