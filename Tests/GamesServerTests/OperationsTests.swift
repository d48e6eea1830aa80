import Foundation
import XCTest
@testable import LockerGames
@testable import LockerKit

/// What a club's administrator relies on, on both stores: `/metrics` read by an independent
/// parser (PyPI `prometheus-client`) with counters that move as requests are made, and a
/// backup taken during a booking burst that restores every booking acknowledged before it.
extension GamesContractTests {
    func testMetricsParseWithPrometheusClientAndCountWhatHappens() async throws {
        let before = try await scrapeMetrics()
        let org = try await account("metrics-org")
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 2, capacity: 10),
                                        idempotencyKey: nil, token: org)
        let player = try await account("metrics-player")
        _ = try await api.book(game.id, idempotencyKey: nil, token: player)
        _ = try await raw(.GET, "/v1/games/\(game.id)")
        _ = try await raw(.GET, "/v1/games/999999")
        _ = try await raw(.POST, "/v1/games", body: String(repeating: "x", count: GamesLimits.bodyBytes + 1), headers: [("Authorization", "Bearer \(org)")])
        let after = try await scrapeMetrics()

        func value(_ samples: [MetricSample], _ name: String, _ labels: [String: String] = [:]) -> Double {
            samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.reduce(0) { $0 + $1.value }
        }
        XCTAssertEqual(value(after, "locker_games_signups_total") - value(before, "locker_games_signups_total"), 2)
        XCTAssertEqual(value(after, "locker_games_bookings_total") - value(before, "locker_games_bookings_total"), 1)
        XCTAssertEqual(value(after, "locker_games_games_created_total") - value(before, "locker_games_games_created_total"), 1)
        // Routes are patterns, not the paths strangers send: one series for every game id.
        XCTAssertEqual(value(after, "locker_games_requests_total", ["route": "/v1/games/{id}", "method": "GET", "status": "200"]), 1)
        XCTAssertEqual(value(after, "locker_games_requests_total", ["route": "/v1/games/{id}", "method": "GET", "status": "404"]), 1)
        XCTAssertFalse(after.contains { $0.labels["route"] == "/v1/games/999999" })
        _ = try await raw(.GET, "/no/such/\(UUID().uuidString)")
        let unmatched = try await scrapeMetrics()
        XCTAssertEqual(value(unmatched, "locker_games_requests_total", ["route": "unmatched", "status": "404"]),
                       value(after, "locker_games_requests_total", ["route": "unmatched", "status": "404"]) + 1)
        XCTAssertEqual(value(after, "locker_games_refusals_total", ["limit": "body_size"]) - value(before, "locker_games_refusals_total", ["limit": "body_size"]), 1)
        XCTAssertEqual(value(after, "locker_games_request_duration_seconds_count", ["route": "/v1/games/{id}/booking"]), 1)
        XCTAssertEqual(value(after, "locker_games_request_duration_seconds_bucket", ["route": "/v1/games/{id}/booking", "le": "+Inf"]), 1)
        XCTAssertGreaterThanOrEqual(value(after, "locker_games_open_connections"), 1)
        if database.kind == .postgres {
            XCTAssertEqual(value(after, "locker_games_store_connections_max"), Double(PostgresGamesDatabase.defaultConnections))
        }
    }

    func testABackupTakenDuringABookingBurstRestoresEveryAcknowledgedBooking() async throws {
        let org = try await account("burst-org")
        var games: [Int64] = []
        for hours in [30.0, 31, 32] {
            games.append(try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: hours), players: 2, capacity: 12),
                                              idempotencyKey: nil, token: org).id)
        }
        var players: [(String, String)] = []
        for index in 0..<24 { players.append(("burst\(index)", try await account("burst\(index)"))) }

        /// Each acknowledged booking and when its answer came.
        let acknowledged = Acknowledged()
        let api = self.api!
        let burst = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, (name, token)) in players.enumerated() {
                    group.addTask {
                        for game in games where (index + Int(game)) % 3 != 0 {
                            _ = try await api.book(game, idempotencyKey: UUID().uuidString, token: token)
                            acknowledged.add(name, game)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // The backup starts once the burst is under way, and runs while it goes on.
        while acknowledged.count < 10 { try await Task.sleep(nanoseconds: 2_000_000) }
        let acknowledgedBefore = acknowledged.snapshot
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString).sqlite").path
        defer { unlink(file) }
        try await GamesBackup.backup(database, to: file)
        try await burst.value
        XCTAssertLessThan(acknowledgedBefore.count, acknowledged.count, "the backup was taken while bookings went on")

        let restored = try await makeRestoreTarget()
        let contents = try GamesBackup.read(file)
        try await GamesBackup.restore(contents, into: restored, replace: false)
        let rows = try await restored.read { session in
            try await session.query("SELECT account.name AS name, booking.gameId AS game, booking.status AS status FROM booking "
                                    + "JOIN account ON account.id = booking.accountId", [])
        }
        let held = Set(rows.compactMap { row -> String? in
            guard let name = row.string("name"), let game = row.int("game"), row.string("status") != "cancelled" else { return nil }
            return "\(name)/\(game)"
        })
        for booking in acknowledgedBefore { XCTAssertTrue(held.contains(booking), "\(booking) was acknowledged before the backup") }
        // Restored into a store with games, it refuses unless told to replace them.
        do {
            try await GamesBackup.restore(contents, into: restored, replace: false)
            XCTFail("a restore into a store with games must be refused")
        } catch let problem as GamesBackup.Problem {
            guard case .storeNotEmpty = problem else { return XCTFail("\(problem)") }
        }
        try await GamesBackup.restore(contents, into: restored, replace: true)
        // The restored store serves: its ids go on after the restored ones.
        let service = GamesService(database: restored, suburbs: try SuburbsFile.read(packageRoot.appendingPathComponent("Data/games/suburbs.csv")))
        let token = try await service.login(Credentials(name: "burst-org", password: "password-burst-org"), source: "127.0.0.1").token
        let next = try await service.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 40), players: 2, capacity: 12),
                                            idempotencyKey: nil, token: token)
        XCTAssertGreaterThan(next.id, games.max() ?? 0)
        await restored.close()
    }

    func testAFileThatIsNotABackupIsRefusedAndTheStoreUntouched() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-backup-\(UUID().uuidString)").path
        defer { unlink(file) }
        for contents in ["hello", ""] {
            FileManager.default.createFile(atPath: file, contents: Data(contents.utf8))
            XCTAssertThrowsError(try GamesBackup.read(file)) { XCTAssertEqual($0 as? GamesBackup.Problem, .notABackup(path: file)) }
        }
        // A SQLite file that is a games store, not a backup.
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite").path
        defer { unlink(store) }
        let other = try SQLiteGamesDatabase(path: store)
        await other.close()
        XCTAssertThrowsError(try GamesBackup.read(store)) { XCTAssertEqual($0 as? GamesBackup.Problem, .notABackup(path: store)) }
    }

    // MARK: Helpers

    /// `/metrics` as prometheus-client's own parser reads it.
    func scrapeMetrics() async throws -> [MetricSample] {
        let (status, body, contentType) = try await raw(.GET, "/metrics")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(contentType, "text/plain; version=0.0.4; charset=utf-8")
        return try PrometheusParser.parse(body)
    }

    /// An empty store of the same kind to restore into.
    func makeRestoreTarget() async throws -> GamesDatabase {
        if let postgres = self as? PostgresContractTests { return try await postgres.makeEmptyDatabase() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("restored-\(UUID().uuidString).sqlite").path
        addTeardownBlock { unlink(path) }
        return try SQLiteGamesDatabase(path: path)
    }
}

/// Bookings acknowledged so far, from many tasks.
final class Acknowledged: @unchecked Sendable {
    private let lock = NSLock()
    private var bookings: [String] = []
    func add(_ name: String, _ game: Int64) { lock.withLock { bookings.append("\(name)/\(game)") } }
    var count: Int { lock.withLock { bookings.count } }
    var snapshot: [String] { lock.withLock { bookings } }
}

/// One sample of the exposition, as the independent parser read it.
struct MetricSample: Decodable {
    var name: String
    var labels: [String: String]
    var value: Double
}

/// PyPI `prometheus-client`'s text parser, run in Python: not Locker's reading of its own
/// output. CI installs it (`.ci/run`); elsewhere the test skips, saying how to install it.
enum PrometheusParser {
    static let script = """
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families
        samples = []
        for family in text_string_to_metric_families(sys.stdin.read()):
            for s in family.samples:
                samples.append({"name": s.name, "labels": s.labels, "value": s.value})
        print(json.dumps(samples))
        """

    static func parse(_ text: String) throws -> [MetricSample] {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import prometheus_client.parser"]
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        if check.terminationStatus != 0 {
            if ProcessInfo.processInfo.environment["LOCKER_REQUIRE_POSTGRES"] == "1" {
                XCTFail("prometheus-client is not installed but CI requires it")
            }
            throw XCTSkip("PyPI prometheus-client is not installed: pip install prometheus-client")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            XCTFail("prometheus-client refused the exposition: \(problems)")
            return []
        }
        return try JSONDecoder().decode([MetricSample].self, from: data)
    }
}
