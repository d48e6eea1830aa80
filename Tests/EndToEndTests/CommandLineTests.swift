import Foundation
import XCTest

/// The command line outside the full-screen app: help, version, bad values, no terminal.
final class CommandLineTests: XCTestCase {
    func locker(_ arguments: [String], environment extra: [String: String] = [:], directory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        environment["NO_COLOR"] = nil
        environment.merge(extra) { $1 }
        return try runProcess([binary.path] + arguments, environment: environment, directory: directory)
    }

    func testHelpAndVersion() throws {
        let help = try locker(["--help"])
        XCTAssertEqual(help.status, 0)
        for option in ["--tab", "--lang", "--theme", "--ascii", "--data-dir", "--games-db", "--version"] {
            XCTAssertTrue(help.stdout.contains(option), "help mentions \(option)")
        }
        let french = try locker(["--help", "--lang", "fr"])
        XCTAssertTrue(french.stdout.contains("Langue de l'interface"), french.stdout)
        let version = try locker(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("locker "), version.stdout)
    }

    func testUnknownValuesExitTwoWithOneTranslatedLine() throws {
        let cases: [([String], String)] = [
            (["--lang", "de"], "en, fr, es, it"),
            (["--theme", "purple"], "dark, light, mono"),
            (["--tab", "swim"], "rules, penalties, quiz, grades, workout, games"),
        ]
        for (arguments, valid) in cases {
            let result = try locker(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(valid), result.stderr)
        }
        let french = try locker(["--tab", "swim"], environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertTrue(french.stderr.contains("Onglet inconnu"), french.stderr)
    }

    func testWithoutATerminalItSaysSoAndExitsTwo() throws {
        let result = try locker([])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("needs a terminal"), result.stderr)
        XCTAssertFalse(result.stdout.contains("\u{1B}["), "nothing drawn")
    }

    func testUnknownTerminalTypeExitsOne() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        // `script` gives the program a real pseudo-terminal with an unknown TERM.
        let result = try runProcess(["script", "-qec", "TERM=no-such-terminal \(binary.path)", "/dev/null"],
                             environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertTrue(result.stdout.contains("no-such-terminal"), result.stdout)
        XCTAssertTrue(result.stdout.contains("not known"), result.stdout)
        XCTAssertEqual(result.status, 1)
    }

    func testWorksFromAnotherDirectory() throws {
        let result = try locker(["--help", "--lang", "it"], directory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("Lingua dell'interfaccia"), result.stdout)
    }
}

/// `locker dive dd` and `locker dive score` as a script would call them.
final class DiveCommandTests: XCTestCase {
    func locker(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        return try runProcess([binary.path] + arguments, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    }

    func testDDAsJSONAndText() throws {
        let json = try locker(["dive", "dd", "5253B", "--height", "3", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["code"] as? String, "5253B")
        XCTAssertEqual(object?["height"] as? Double, 3)
        XCTAssertEqual(object?["dd"] as? Double, 3.4)
        let components = object?["components"] as? [String: Double]
        XCTAssertEqual(components?["A"], 2.2)
        XCTAssertEqual(components?["C"], 0.7)
        XCTAssertEqual(Set(components?.keys.map { $0 } ?? []), ["A", "B", "C", "D", "E"])
        let french = try locker(["dive", "dd", "626C", "--height", "7.5", "--lang", "fr"])
        XCTAssertEqual(french.status, 0)
        XCTAssertTrue(french.stdout.contains("3.1") || french.stdout.contains("3,1"), french.stdout)
    }

    func testInvalidDivesExitOneSayingWhy() throws {
        for (arguments, reason) in [(["dive", "dd", "5253A", "--height", "3"], "position"),
                                    (["dive", "dd", "626C", "--height", "1"], "platform"),
                                    (["dive", "dd", "105", "--height", "3"], "not a dive number"),
                                    (["dive", "dd", "105B", "--height", "2"], "height"),
                                    (["dive", "dd", "1011C", "--height", "3"], "somersaults")] {
            let result = try locker(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        }
    }

    func testScoresForEveryPanel() throws {
        let five = try locker(["dive", "score", "--dd", "2.0", "--awards", "8,7.5,7.5,7.5,7", "--json"])
        XCTAssertEqual(five.status, 0, five.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(five.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["score"] as? Double, 45)
        XCTAssertEqual(object?["kept"] as? [Double], [7.5, 7.5, 7.5])
        XCTAssertEqual(object?["cancelled"] as? [Double], [8, 7])
        let synchro = try locker(["dive", "score", "--synchro", "--dd", "2.8", "--awards", "7,7.5,8,7,7.5,8,6.5,6.5,7,7,7.5"])
        XCTAssertEqual(synchro.status, 0, synchro.stderr)
        XCTAssertTrue(synchro.stdout.contains("35.5 ÷ 5 × 3 × 2.8 = 59.64"), synchro.stdout)
        let wrong = try locker(["dive", "score", "--dd", "2.0", "--awards", "8,7.5,7"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("5 or 7 judges"), wrong.stderr)
    }
}

/// Text from files never reaches the terminal raw on the command line either.
final class InertTextCommandLineTests: XCTestCase {
    func testEscapeSequencesInGradeNamesAndWorkoutTitlesAreNeutralised() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("locker-inert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let grades = dir.appendingPathComponent("grades.json")
        try """
        {"format":"locker-grades","version":1,"scale":20,"passMark":10,
         "units":[{"id":"u","code":1,"name":"Evil\\u001b]0;pwned\\u0007\\u001b[2J","coefficient":1,"professional":false,
                   "courses":[{"id":"c","name":"x","coefficient":1,"mark":12,"locked":false}]}],
         "blocks":[{"id":"b","name":"Block\\u009b31m","units":["u"]}]}
        """.write(to: grades, atomically: true, encoding: .utf8)
        let out = try runProcess([binary.path, "grades", "--file", grades.path], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertFalse(out.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, out.stdout)
        XCTAssertTrue(out.stdout.contains("Evil\u{FFFD}]0;pwned"), out.stdout)
        let gpx = dir.appendingPathComponent("evil.gpx")
        try "<gpx><metadata><name>Run&#27;[31m red</name></metadata><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
            .write(to: gpx, atomically: true, encoding: .utf8)
        let workout = try runProcess([binary.path, "workout", gpx.path], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(workout.status, 0, workout.stderr)
        XCTAssertFalse(workout.stdout.contains("\u{1B}"), workout.stdout)
        XCTAssertTrue(workout.stdout.hasPrefix("Run\u{FFFD}[31m red"), workout.stdout)
    }
}
