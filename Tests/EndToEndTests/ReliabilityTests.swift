import Foundation
import XCTest

/// Design §9 as evidence: saves survive SIGKILL and a full disk, every way the process can end
/// restores the terminal, resize storms neither crash nor garble, and text from files and other
/// users stays inert on a real terminal. docs/RELIABILITY.md lists what each test shows.
final class ReliabilityTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("locker-reliability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: root)
    }

    /// A valid grades.json with `units` × `courses` courses (about 150 bytes each, pretty-printed
    /// the way the app writes it), the first course marked `firstMark`.
    func writeGrades(_ url: URL, units: Int, courses: Int, firstMark: Double = 7) throws {
        var unitList: [[String: Any]] = []
        for u in 0..<units {
            let list: [[String: Any]] = (0..<courses).map { c in
                let mark: Double = u == 0 && c == 0 ? firstMark : Double(c % 21)
                let course: [String: Any] = ["id": "u\(u)c\(c)", "name": "Course \(u).\(c)", "coefficient": 1 + c % 3,
                                             "mark": mark, "locked": false]
                return course
            }
            unitList.append(["id": "u\(u)", "code": u + 1, "name": "Unit \(u)", "coefficient": 1 + u % 4,
                             "professional": false, "courses": list])
        }
        let book: [String: Any] = ["format": "locker-grades", "version": 1, "scale": 20, "passMark": 10, "units": unitList,
                                   "blocks": [["id": "total", "name": "Total", "units": (0..<units).map { "u\($0)" }]]]
        try JSONSerialization.data(withJSONObject: book, options: [.prettyPrinted, .sortedKeys]).write(to: url)
    }

    /// The first course's mark, or nil when the file is missing or not a whole grades file.
    func firstMark(_ url: URL) -> Double? {
        guard let data = try? Data(contentsOf: url),
              let book = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let units = book["units"] as? [[String: Any]], units.count == 40,
              let courses = units.first?["courses"] as? [[String: Any]], courses.count == 50 else { return nil }
        return courses[0]["mark"] as? Double
    }

    // MARK: Saves

    /// 100 save loops (the Grades tab's own repository, a 300 KB file) killed with SIGKILL: half
    /// after a random 0–60 ms from the start (so also during start-up and the first save), half
    /// a random 0–30 ms after the first save finished (so in the middle of later ones). The file
    /// is always the old version or one of the new ones.
    func testSaveLoopKilledAtRandomMomentsLeavesTheOldOrTheNewFile() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let file = root.appendingPathComponent("grades.json")
        try writeGrades(file, units: 40, courses: 50)
        let original = try Data(contentsOf: file)
        var seen: [Double: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<100 {
            try original.write(to: file)
            let (pid, pipe) = try startProcess([binary.path, "debug-save-loop", file.path], pipeOutput: true)
            let output = pipe!
            if round % 2 == 0 {
                usleep(UInt32.random(in: 0...60_000, using: &generator))
            } else {
                var byte: UInt8 = 0
                _ = read(output, &byte, 1)   // "saving": the first save is done
                usleep(UInt32.random(in: 0...30_000, using: &generator))
            }
            kill(pid, SIGKILL)
            close(output)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            guard let mark = firstMark(file) else {
                return XCTFail("round \(round): the file is missing or corrupt:\n" + ((try? String(contentsOf: file, encoding: .utf8)) ?? "missing"))
            }
            XCTAssertTrue([7, 1, 2].contains(mark), "round \(round): mark \(mark)")
            seen[mark, default: 0] += 1
        }
        print("versions found after the 100 kills (7 = original, 1 and 2 = written): \(seen.sorted { $0.key < $1.key })")
        // At least the half killed after the first save found a new version.
        XCTAssertGreaterThanOrEqual((seen[1] ?? 0) + (seen[2] ?? 0), 50, "\(seen)")
        // Temp files of killed writers are swept by the next load.
        XCTAssertEqual(try runProcess([binary.path, "debug-save-loop", file.path, "--count", "1"]).status, 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    /// A file size limit (RLIMIT_FSIZE, what a full disk looks like to one process) below the
    /// new file: the save fails with a translated reason and the old file stays byte for byte.
    func testAFullDiskDuringASaveKeepsTheOldFileAndSaysWhy() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let file = root.appendingPathComponent("grades.json")
        try writeGrades(file, units: 40, courses: 50)
        let before = try Data(contentsOf: file)
        for (lang, words) in [("en", "larger than this system allows"), ("fr", "dépasserait la taille que ce système autorise")] {
            let command = "ulimit -f 64; exec \(TmuxSession.quote(binary.path)) --lang \(lang) debug-save-loop \(TmuxSession.quote(file.path)) --count 1"
            let result = try runProcess(["sh", "-c", command], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(words), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: file), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["grades.json"])
    }

    /// A really full disk: a 64 KB tmpfs filled up (needs root; skipped elsewhere). The save
    /// fails with "the disk is full" and the old file stays byte for byte.
    func testAFullTmpfsDuringASaveKeepsTheOldFile() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        let disk = root.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        guard try runProcess(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path]).status == 0 else {
            throw XCTSkip("this machine does not allow mounting a tmpfs")
        }
        defer { _ = try? runProcess(["umount", disk.path]) }
        let file = disk.appendingPathComponent("grades.json")
        try writeGrades(file, units: 1, courses: 20)
        let before = try Data(contentsOf: file)
        // Fill what is left (dd stops with "No space left on device").
        _ = try runProcess(["dd", "if=/dev/zero", "of=\(disk.path)/filler", "bs=4096", "count=64"])
        let result = try runProcess([binary.path, "debug-save-loop", file.path, "--count", "1"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("the disk is full"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: file), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted(), ["filler", "grades.json"])
    }

    /// The same in the Grades tab: a slider step cannot be saved, the tab says so, the marks stay
    /// in memory and the file on disk keeps the last saved version.
    func testAFullDiskInTheGradesTabIsReportedAndTheFileKept() throws {
        let file = root.appendingPathComponent("grades.json")
        try writeGrades(file, units: 40, courses: 50)
        let before = try Data(contentsOf: file)
        let session = try TmuxSession(arguments: ["--tab", "grades"], width: 120, height: 32, dataDirectory: root,
                                      shellPrefix: "ulimit -f 64; ")
        try session.waitFor("Course 0.0")
        try session.send("Down", "Down", "Right")
        try session.waitFor("could not be saved")
        try session.waitFor("larger than this system allows")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertEqual(try Data(contentsOf: file), before)
    }

    // MARK: Terminal restored however the process ends

    /// SIGTERM and SIGHUP raised inside the app, a real invalid memory access, a Swift trap and
    /// abort(): each leaves the terminal as it was and ends with the signal's status.
    func testEveryFaultFromInsideRestoresTheTerminal() throws {
        #if arch(x86_64)
        let trapSignal = SIGILL
        #else
        let trapSignal = SIGTRAP
        #endif
        for (fault, signal) in [("term", SIGTERM), ("hup", SIGHUP), ("segv", SIGSEGV), ("trap", trapSignal), ("abort", SIGABRT)] {
            let session = try TmuxSession(arguments: ["--debug-fault", fault, "--tab", "grades"], width: 90, height: 26,
                                          environment: ["SWIFT_BACKTRACE": "enable=no"])
            try session.waitFor("Grades")
            try session.send("F12")
            XCTAssertEqual(try session.waitForExit(), 128 + Int(signal), fault)
            let restored = try session.terminalRestored()
            let screen = try session.screen()
            XCTAssertTrue(restored, "\(fault): terminal not restored:\n\(screen)")
        }
    }

    // MARK: Resizes

    /// 200 resizes between 20×8 and 240×70 with keys in between: locker keeps running, and at
    /// 100×30 it draws exactly what a fresh start there draws.
    func testTwoHundredRapidResizesWithKeysEndOnTheRightScreen() throws {
        let session = try TmuxSession(arguments: ["--tab", "penalties"], width: 100, height: 30)
        try session.waitFor("Penalties")
        let pid = try session.pid()
        // No Esc: behind a loaded machine's backlog, Esc and the next key can arrive together
        // and read as Alt-key, which would make the final state depend on timing.
        let keys = ["1", "2", "3", "5", "Down", "Down", "Up", "NPage", "j", "k", "?"]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<200 {
            let big = step % 2 == 0
            let width = big ? Int.random(in: 120...240, using: &generator) : Int.random(in: 20...70, using: &generator)
            let height = big ? Int.random(in: 35...70, using: &generator) : Int.random(in: 8...20, using: &generator)
            // One tmux call for both, so the key lands right behind the resize.
            try session.tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)", ";",
                              "send-keys", "-t", "0", keys[Int.random(in: 0..<keys.count, using: &generator)]])
        }
        XCTAssertEqual(kill(pid, 0), 0, "locker died during the resizes")
        try session.resize(width: 100, height: 30)
        // Let locker work through the backlog, close the help overlay if the last "?" left it
        // open, then go to a known state.
        if try session.waitForStableScreen().contains("Help — ") { try session.send("?") }
        try session.send("2")
        try session.waitFor("Sanction:")
        try session.send("Home")
        let fresh = try TmuxSession(arguments: ["--tab", "penalties"], width: 100, height: 30)
        try fresh.waitFor("Penalties")
        try fresh.send("Home")
        let expected = try fresh.screen()
        var last = ""
        let deadline = Date().addingTimeInterval(10)
        repeat {
            last = try session.screen()
            if last == expected { break }
            usleep(50_000)
        } while Date() < deadline
        XCTAssertEqual(last, expected)
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    // MARK: Inert text on a real terminal

    /// Escape sequences in a grade name, a workout's file name and title, and a game's note
    /// (typed by another user) show as replacement marks: no colour, no clear, no title change.
    func testEscapeSequencesFromFilesAndOtherUsersAreShownNotObeyed() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let evil = "\u{1B}]2;pwned\u{07}\u{1B}[2J\u{1B}[31m"
        let grades = root.appendingPathComponent("grades.json")
        try writeGrades(grades, units: 1, courses: 1)
        var text = try String(contentsOf: grades, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"Course 0.0\"", with: "\"Course\\u001b]2;pwned\\u0007\\u001b[2J\\u001b[31m red\"")
        try text.write(to: grades, atomically: true, encoding: .utf8)
        let workouts = root.appendingPathComponent("workouts")
        try FileManager.default.createDirectory(at: workouts, withIntermediateDirectories: true)
        try "<gpx><metadata><name>Run&#27;]2;pwned&#7;&#27;[2J title</name></metadata><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
            .write(to: workouts.appendingPathComponent("titled.gpx"), atomically: true, encoding: .utf8)
        // Without a title the list shows the file's name.
        try "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
            .write(to: workouts.appendingPathComponent("file\(evil).gpx"), atomically: true, encoding: .utf8)
        let shared = root.appendingPathComponent("shared.sqlite").path
        let env = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let password = root.appendingPathComponent("pw")
        try "pw-organiser-1\n".write(to: password, atomically: true, encoding: .utf8)
        for command in [["account", "create", "organiser", "--password-stdin"], ["login", "organiser", "--password-stdin"]] {
            let result = try runProcess([binary.path, "--data-dir", root.path, "--games-db", shared] + command,
                                        environment: env, input: try FileHandle(forReadingFrom: password))
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let grounds = try runProcess([binary.path, "--data-dir", root.path, "--games-db", shared, "games", "grounds", "--postcode", "3977", "--json"], environment: env)
        let ground = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(grounds.stdout.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        // The store refuses control characters from anyone (issue 25)…
        let refused = try runProcess([binary.path, "--data-dir", root.path, "--games-db", shared, "games", "create", "--ground", ground,
                                      "--at", soonLocalTime(days: 20), "--players", "2", "--capacity", "10", "--note", "Note\(evil) bat"], environment: env)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("“Note” holds a control character"), refused.stderr)
        let created = try runProcess([binary.path, "--data-dir", root.path, "--games-db", shared, "games", "create", "--ground", ground,
                                      "--at", soonLocalTime(days: 20), "--players", "2", "--capacity", "10", "--note", "Note bat"], environment: env)
        XCTAssertEqual(created.status, 0, created.stderr)
        // …and a note stored before that rule, or written into the file by hand, still shows inert.
        let sql = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE game SET note=?', (sys.argv[2],)); c.commit()"
        let written = try runProcess(["python3", "-c", sql, shared, "Note\(evil) bat"], environment: env)
        XCTAssertEqual(written.status, 0, written.stderr)

        // A player in Melbourne: the row needs no "(Melbourne time)" and the note fits.
        let session = try TmuxSession(arguments: ["--tab", "grades", "--games-db", shared], width: 120, height: 34,
                                      environment: ["TZ": "Australia/Melbourne"], dataDirectory: root)
        try session.waitFor("Course\u{FFFD}]2;pwned\u{FFFD}\u{FFFD}[2J\u{FFFD}[31m red")
        try session.send("5")
        try session.waitFor("file\u{FFFD}]2;pwned")
        try session.waitFor("Run\u{FFFD}]2;pwned\u{FFFD}\u{FFFD}[2J title")
        try session.send("6")
        try session.waitFor("Note\u{FFFD}]2;pwn")
        // No escape reached the terminal: the pane's title is tmux's default and nothing is red.
        let title = try session.tmux(["display-message", "-p", "-t", "0", "#{pane_title}"])
        XCTAssertFalse(title.contains("pwned"), title)
        XCTAssertFalse(try session.screen(escapes: true).contains("\u{1B}[31m"))
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }
}
