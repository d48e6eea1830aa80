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
        let bad = data.appendingPathComponent("broken.gpx")
        try "<gpx><trk><trkseg><trkpt lat=\"200\" lon=\"1\"/></trkseg></trk></gpx>".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try runProcess([binary.path, "--data-dir", data.path, "workout", "import", bad.path], environment: env)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("broken.gpx, line 1"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("workouts/broken.gpx").path), "nothing added")

        let session = try TmuxSession(arguments: ["--tab", "workout"], width: 100, height: 30, dataDirectory: data)
        try session.waitFor("Tempo by the lake")
        try session.waitFor("Casey loop")
        try session.send("Enter")
        try session.waitFor("Route")
        try session.waitFor("♥ 121 ▮▮▮▮ 162 bpm")
        try session.send("Escape", "Down", "Enter")
        try session.waitFor("Casey loop")
        try session.waitFor("Heart rate")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }
}
