import Foundation
import XCTest

/// Importing a workout on the command line, then opening it in the tab.
final class WorkoutEndToEndTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testImportListOpenAndSummaryJSON() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-workout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let env = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let workout = data.appendingPathComponent("tempo.json")
        try """
        { "title": "Tempo by the lake", "sport": "running",
          "points": [ { "lat": -38.03, "lon": 145.34, "time": "2026-05-01T06:30:00Z", "hr": 121, "ele": 41 },
                      { "lat": -38.031, "lon": 145.34, "time": "2026-05-01T06:30:30Z", "hr": 150, "ele": 45 },
                      { "lat": -38.032, "lon": 145.341, "time": "2026-05-01T06:31:00Z", "hr": 162, "ele": 46 } ] }
        """.write(to: workout, atomically: true, encoding: .utf8)
        let summary = try runProcess([binary.path, "workout", workout.path, "--json"], environment: env)
        XCTAssertEqual(summary.status, 0, summary.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        for key in ["points", "start", "elapsedSeconds", "movingSeconds", "distanceMeters", "hrMin", "hrAvg", "hrMax", "ascentMeters", "title"] {
            XCTAssertTrue(object.keys.contains(key), key)
        }
        XCTAssertEqual(object["points"] as? Int, 3)
        XCTAssertEqual(object["elapsedSeconds"] as? Double, 60)
        XCTAssertEqual(object["title"] as? String, "Tempo by the lake")
        let imported = try runProcess([binary.path, "--data-dir", data.path, "workout", "import", workout.path], environment: env)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.hasPrefix("Imported tempo.json (3 points, 253 m (from the positions))"), imported.stdout)
        // One position: one point, and a distance that needs two (not "no positions"). (Into
        // another folder: the tab below lists the first one's.)
        let other = data.appendingPathComponent("other")
        let single = data.appendingPathComponent("single.json")
        try #"{"points": [{"lat": 10, "lon": 10, "time": "2024-05-01T06:30:00Z", "hr": 120}]}"#.write(to: single, atomically: true, encoding: .utf8)
        let one = try runProcess([binary.path, "--data-dir", other.path, "workout", "import", single.path], environment: env)
        XCTAssertTrue(one.stdout.hasPrefix("Imported single.json (1 point, unknown (one position: a distance needs two))"), one.stdout)
        // Two activities months apart: the import says so, as `locker workout` shows them, and
        // gives no distance that neither of them has.
        let two = data.appendingPathComponent("two.json")
        try #"{"points": [{"lat": 10, "lon": 10, "time": "2024-01-01T06:30:00Z"}, {"lat": 10.1, "lon": 10, "time": "2024-03-01T06:30:00Z"}]}"#
            .write(to: two, atomically: true, encoding: .utf8)
        let split = try runProcess([binary.path, "--data-dir", other.path, "workout", "import", two.path], environment: env)
        XCTAssertTrue(split.stdout.hasPrefix("Imported two.json (2 activities, 2 points) into "), split.stdout)
        let bad = data.appendingPathComponent("broken.gpx")
        try "<gpx><trk><trkseg><trkpt lat=\"200\" lon=\"1\"/></trkseg></trk></gpx>".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try runProcess([binary.path, "--data-dir", data.path, "workout", "import", bad.path], environment: env)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("broken.gpx, line 1"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("workouts/broken.gpx").path), "nothing added")

        let session = try TmuxSession(arguments: ["--tab", "workout"], width: 100, height: 30, dataDirectory: data)
        try session.waitFor("Tempo by the lake")
        let list = try session.waitFor("Casey loop")
        // Newest first, by the workouts' own dates.
        let tempoFirst = try XCTUnwrap(list.range(of: "Tempo by the lake")).lowerBound < XCTUnwrap(list.range(of: "Casey loop")).lowerBound
        if !tempoFirst { try session.send("Down") }
        try session.send("Enter")
        try session.waitFor("Route")
        try session.waitFor("♥ 121 ▮▮▮▮ 162 bpm")
        try session.send("Escape", tempoFirst ? "Down" : "Up", "Enter")
        try session.waitFor("Casey loop")
        try session.waitFor("Heart rate")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    /// A large file opens off the UI thread: the status line counts the share read, other tabs
    /// answer meanwhile, Esc stops it, and a second try opens it.
    func testLargeFileShowsProgressKeepsKeysLiveAndEscCancels() throws {
        guard LockerBinary.url != nil else { throw XCTSkip("locker binary not built") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-large-\(UUID().uuidString)")
        let workouts = data.appendingPathComponent("workouts")
        try FileManager.default.createDirectory(at: workouts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let generated = try runProcess([root.appendingPathComponent("scripts/gen-workout").path, "--format", "gpx", "--points", "120000",
                                        "--out", workouts.appendingPathComponent("long-run.gpx").path])
        XCTAssertEqual(generated.status, 0, generated.stderr)

        let session = try TmuxSession(arguments: ["--tab", "workout"], width: 100, height: 30, dataDirectory: data)
        try session.waitFor("long-run.gpx")
        try session.send("Enter")
        try session.waitFor("% read (Esc cancels)")
        try session.send("2")
        try session.waitFor("Sanction")
        try session.send("5")
        try session.waitFor("% read (Esc cancels)")
        try session.send("Escape")
        try session.waitFor("Opening cancelled.")
        try session.send("Enter")
        try session.waitFor("% read (Esc cancels)")
        try session.waitFor("Route", timeout: 120)
        try session.waitFor("Elapsed")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    /// FIT files on the command line: the summary, the sport, and a damaged file refused with
    /// the byte where it breaks, nothing imported.
    func testFITSummaryAndDamagedFITRefused() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-fit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let env = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let fit = data.appendingPathComponent("indoor.fit")
        let generated = try runProcess([root.appendingPathComponent("scripts/gen-workout").path, "--format", "fit", "--points", "1800",
                                        "--no-position", "--out", fit.path])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let text = try runProcess([binary.path, "workout", fit.path], environment: env)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("indoor — Running"), text.stdout)
        XCTAssertTrue(text.stdout.contains("(the device's own total)"), text.stdout)
        let json = try runProcess([binary.path, "workout", fit.path, "--json"], environment: env)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "fit")
        XCTAssertEqual(object["distanceSource"] as? String, "declared", "the session's own total")
        XCTAssertEqual(object["points"] as? Int, 1800)

        var bytes = try Data(contentsOf: fit)
        bytes[bytes.count / 2] ^= 0x55
        let damaged = data.appendingPathComponent("damaged.fit")
        try bytes.write(to: damaged)
        let refused = try runProcess([binary.path, "--data-dir", data.path, "workout", "import", damaged.path], environment: env)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("damaged.fit, byte "), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("workouts/damaged.fit").path), "nothing imported")
        let cut = data.appendingPathComponent("cut.fit")
        try Data(try Data(contentsOf: fit).prefix(5000)).write(to: cut)
        let short = try runProcess([binary.path, "workout", cut.path], environment: ["LANG": "fr_FR.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(short.status, 1)
        XCTAssertTrue(short.stderr.contains("cut.fit, octet 5000"), "translated, with the offset: \(short.stderr)")
    }

    /// Issue 43, item 4, from the command line: the device's own climb (FIT `total_ascent`,
    /// as fitdecode reads it) is the climb shown, and says so; `--max-hr` is said to come from
    /// the command line; a JSON file's sport is its sport and its subtitle joins the title; a
    /// number as a GPX type is no sport; times a second apart along a whole route (GPSBabel's)
    /// throw no position away.
    func testClimbSportMaximumAndUnusableTimesSayWhereTheyComeFrom() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-climb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let env = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let fit = data.appendingPathComponent("hills.fit")
        XCTAssertEqual(try runProcess([root.appendingPathComponent("scripts/gen-workout").path, "--format", "fit", "--points", "1800",
                                       "--total-ascent", "64", "--out", fit.path]).status, 0)
        let text = try runProcess([binary.path, "workout", fit.path, "--max-hr", "190"], environment: env)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Climb       64 m (the device's own count)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("(maximum 190 bpm, from --max-hr)"), text.stdout)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try runProcess([binary.path, "workout", fit.path, "--json"], environment: env).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["ascentMeters"] as? Double, 64)
        XCTAssertEqual(json["ascentSource"] as? String, "device")
        let plain = data.appendingPathComponent("plain.fit")
        XCTAssertEqual(try runProcess([root.appendingPathComponent("scripts/gen-workout").path, "--format", "fit", "--points", "1800", "--out", plain.path]).status, 0)
        XCTAssertTrue(try runProcess([binary.path, "workout", plain.path], environment: env).stdout.contains("m (from the elevations)"))

        let tempo = data.appendingPathComponent("tempo.json")
        try """
        { "title": "Morning run", "subtitle": "Tempo", "sport": "cycling",
          "points": [ { "lat": -38.03, "lon": 145.34, "time": "2026-05-01T06:30:00Z" },
                      { "lat": -38.031, "lon": 145.34, "time": "2026-05-01T06:30:30Z" } ] }
        """.write(to: tempo, atomically: true, encoding: .utf8)
        XCTAssertTrue(try runProcess([binary.path, "workout", tempo.path], environment: env).stdout.hasPrefix("Morning run · Tempo — Cycling\n"))

        // A route 1.1 km a point apart, one second apart: the times cannot be right, the positions can.
        var gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="GPSBabel" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>babel</name><type>9</type><trkseg>"#
        for i in 0..<40 {
            gpx += String(format: #"<trkpt lat="%.5f" lon="145.34000"><time>2020-01-01T00:00:%02dZ</time></trkpt>"#, -38.0 - Double(i) * 0.01, i)
        }
        gpx += "</trkseg></trk></gpx>"
        let babel = data.appendingPathComponent("babel.gpx")
        try gpx.write(to: babel, atomically: true, encoding: .utf8)
        let route = try runProcess([binary.path, "workout", babel.path], environment: env)
        XCTAssertEqual(route.status, 0, route.stderr)
        XCTAssertTrue(route.stdout.hasPrefix("babel\n"), "no sport from a number: \(route.stdout)")
        XCTAssertTrue(route.stdout.contains("Distance    43.37 km (from the positions)\n"), route.stdout)
        XCTAssertTrue(route.stdout.contains("impossible speed"), "the times are said to be wrong: \(route.stdout)")
    }
}
