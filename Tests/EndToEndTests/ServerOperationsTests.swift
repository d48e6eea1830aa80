import Foundation
import XCTest

/// A club's administrator at the command line: `locker-games serve --config`, its JSON log and
/// `/metrics`, `backup` while it runs and `restore`, through the built programs, their files
/// and exit statuses.
final class ServerOperationsTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("locker-server-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    var games: String {
        get throws {
            guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
            return binary.deletingLastPathComponent().appendingPathComponent("locker-games").path
        }
    }

    func file(_ name: String, _ text: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testAConfigurationFileThatCannotBeUsedStopsTheStartNamingTheLine() throws {
        let games = try games
        let cases: [(String, String)] = [
            ("listen = 127.0.0.1:8787\nlisten = 127.0.0.1:8788\n", "line 2: this setting is already given on line 1: give it once."),
            ("# a comment\nlistne = 127.0.0.1:8787\n", "line 2: “listne” is not a setting of the games server. Its settings are: listen, db,"),
            ("idle-timeout = 0\n", "line 1: idle-timeout must be a whole number from 1 to 1000000."),
            ("listen = nowhere\n", "line 1: “nowhere” is not an address to listen on"),
            ("metrics-allow = 127.0.0.1, localhost\n", "line 1: “localhost” is not an address or a network for metrics-allow"),
            ("log-format = xml\n", "line 1: “xml” is not a log format: write text or json."),
            ("just some words\n", "line 1: write one setting per line, as NAME = VALUE (or # for a comment)."),
            ("db = \"/tmp/x.sqlite\n", "line 1: the value's opening quote is never closed."),
            // Written on Windows: CRLF line ends are line ends (once, the file read as one line).
            ("# a comment\r\nmax-connections = 7\r\nbogus = 1\r\n", "line 3: “bogus” is not a setting of the games server."),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let path = try file("server-\(index).conf", text)
            let run = try runProcess([games, "serve", "--config", path, "--data-dir", root.path])
            XCTAssertEqual(run.status, 78, "\(text): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("\(path), \(expected)"), "\(text): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one sentence: \(run.stderr)")
        }
        let missing = try runProcess([games, "serve", "--config", root.appendingPathComponent("none.conf").path])
        XCTAssertEqual(missing.status, 78)
        XCTAssertTrue(missing.stderr.contains("none.conf cannot be read: No such file or directory."), missing.stderr)
        // The command line is checked the same way, as a usage error.
        let option = try runProcess([games, "serve", "--idle-timeout", "0", "--data-dir", root.path])
        XCTAssertEqual(option.status, 64)
        XCTAssertTrue(option.stderr.contains("--idle-timeout must be a whole number from 1 to 1000000."), option.stderr)
        // In French too.
        let french = try runProcess([games, "serve", "--lang", "fr", "--config", try file("fr.conf", "listne = x\n")])
        XCTAssertEqual(french.status, 78)
        XCTAssertTrue(french.stderr.contains("fr.conf"), french.stderr)
        XCTAssertFalse(french.stderr.contains("is not a setting"), "translated: \(french.stderr)")
    }

    func testTheServerRunsFromItsFileLogsJSONCountsAndItsStoreIsBackedUpAndRestored() throws {
        let games = try games
        let port = 29_000 + Int(getpid() % 1000)
        let store = root.appendingPathComponent("games.sqlite").path
        let config = try file("server.conf", """
            # as an administrator writes it
            listen = "127.0.0.1:\(port)"   # loopback
            db = \(store)
            log_format = json
            metrics-allow = 127.0.0.1, ::1
            """)
        let log = root.appendingPathComponent("server.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: games)
        server.arguments = ["serve", "--config", config, "--data-dir", root.appendingPathComponent("server-data").path]
        server.standardError = try FileHandle(forWritingTo: log)
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        let address = "http://127.0.0.1:\(port)"
        var up = false
        for _ in 0..<100 where !up {
            up = (try? runProcess(["curl", "-sf", address + "/healthz"]))?.status == 0
            if !up { usleep(50_000) }
        }
        XCTAssertTrue(up, "the server answers on the address of its file")

        let password = "a-Secret-Passw0rd-\(UUID().uuidString.prefix(6))"
        let player = ["--games-server", address, "--data-dir", root.appendingPathComponent("ann").path]
        let created = try runProcessWithInput([games] + player + ["account", "create", "ann", "--password-stdin"], input: password + "\n")
        XCTAssertEqual(created.status, 0, created.stderr)
        let metrics = try runProcess(["curl", "-sf", address + "/metrics"])
        XCTAssertEqual(metrics.status, 0)
        XCTAssertTrue(metrics.stdout.contains("locker_games_signups_total 1\n"), metrics.stdout)
        XCTAssertTrue(metrics.stdout.contains("locker_games_requests_total{route=\"/v1/accounts\",method=\"POST\",status=\"201\"} 1\n"), metrics.stdout)

        // A backup while it runs, restored into a new store, refused over one that holds games.
        let backup = root.appendingPathComponent("games.backup").path
        let backedUp = try runProcess([games, "backup", "--config", config, backup])
        XCTAssertEqual(backedUp.status, 0, backedUp.stderr)
        XCTAssertTrue(backedUp.stdout.contains("Backed up 1 account, 0 games, 0 bookings to \(backup)."), backedUp.stdout)
        let restoredStore = root.appendingPathComponent("restored.sqlite").path
        let restored = try runProcess([games, "restore", backup, "--db", restoredStore])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.contains("Restored 1 account"), restored.stdout)
        let again = try runProcess([games, "restore", backup, "--db", restoredStore])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("The store already holds 1 account, 0 games: restore into an empty store, or add --replace"), again.stderr)
        XCTAssertEqual(try runProcess([games, "restore", backup, "--db", restoredStore, "--replace"]).status, 0)
        let notABackup = try runProcess([games, "restore", config, "--db", root.appendingPathComponent("other.sqlite").path])
        XCTAssertEqual(notABackup.status, 1)
        XCTAssertTrue(notABackup.stderr.contains("\(config) is not a Locker games backup"), notABackup.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("other.sqlite").path), "no store left behind")
        // Never over the store itself, its journal, or anything but a regular file.
        for target in [store, store + "-wal", root.path] {
            let refused = try runProcess([games, "backup", "--db", store, target])
            XCTAssertEqual(refused.status, 1, "\(target): \(refused.stderr)")
        }
        XCTAssertTrue(try runProcess([games, "backup", "--db", store, store]).stderr.contains("is the games store itself"))
        // A mistyped store is not created empty and backed up over the good backup.
        let typo = try runProcess([games, "backup", "--db", root.appendingPathComponent("gmaes.sqlite").path, backup])
        XCTAssertEqual(typo.status, 1)
        XCTAssertTrue(typo.stderr.contains("gmaes.sqlite does not exist"), typo.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("gmaes.sqlite").path))
        // A hand-edited header is not a backup, and no crash.
        let edited = root.appendingPathComponent("edited.backup").path
        try FileManager.default.copyItem(atPath: backup, toPath: edited)
        let edit = try runProcess(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE lockerBackup SET format='abc'\"); c.commit()", edited])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let editedRestore = try runProcess([games, "restore", edited, "--db", root.appendingPathComponent("edited.sqlite").path])
        XCTAssertEqual(editedRestore.status, 1, editedRestore.stderr)
        XCTAssertTrue(editedRestore.stderr.contains("is not a Locker games backup"), editedRestore.stderr)
        // The restored store logs its owner in.
        let restoredPlayer = ["--games-db", restoredStore, "--data-dir", root.appendingPathComponent("ann2").path]
        XCTAssertEqual(try runProcessWithInput([games] + restoredPlayer + ["login", "ann", "--password-stdin"], input: password + "\n").status, 0)

        server.terminate()
        server.waitUntilExit()
        XCTAssertEqual(server.terminationStatus, 0, "SIGTERM stops it cleanly")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        var requests: [[String: Any]] = []
        for line in lines {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "JSON: \(line)")
            XCTAssertNotNil(object["time"] as? String)
            XCTAssertNotNil(object["message"] as? String)
            XCTAssertFalse(line.contains(password), "never a password: \(line)")
            if object["event"] as? String == "request" { requests.append(object) }
        }
        let signUp = try XCTUnwrap(requests.first { $0["route"] as? String == "/v1/accounts" })
        XCTAssertEqual(signUp["status"] as? Int, 201)
        XCTAssertEqual(signUp["method"] as? String, "POST")
        XCTAssertEqual(signUp["client"] as? String, "127.0.0.1")
        XCTAssertNotNil(signUp["duration_ms"] as? Double)
        XCTAssertEqual((signUp["request_id"] as? String)?.isEmpty, false)
    }

    /// `runProcess` with a line on standard input.
    func runProcessWithInput(_ arguments: [String], input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(input.utf8))
        try pipe.fileHandleForWriting.close()
        return try runProcess(arguments, input: pipe.fileHandleForReading)
    }
}
