import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Electronic judging as a club runs it: seven judges' pads (each the command an SSH server runs
/// for a seat), the referee's console and the scoreboard as separate processes, a 3-diver,
/// 3-round event scored from the pads. One pad and the console are killed mid-dive and started
/// again. Every accepted award is in the results exactly once, and no pad shows another seat's
/// award or the standings before the referee accepts.
final class MeetJudgingEndToEndTests: XCTestCase {
    var folder: URL!
    static let divers = ["Ana Lopez", "Bea Martin", "Chloé Dubois"]
    static let judges = 7

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("meet-judging-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    var meet: String { folder.appendingPathComponent("meet").path }
    var data: URL { folder.appendingPathComponent("data") }

    func locker(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        return try runProcess([binary.path] + arguments, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    }

    /// The award (half points) seat `seat` gives `diver`: each diver has a level, each seat leans a little.
    static func award(_ diver: String, seat: Int) -> Int {
        let base = ["Ana Lopez": 14, "Bea Martin": 16, "Chloé Dubois": 12][diver] ?? 10
        return base + (seat % 3) - 1
    }

    static func text(_ halfPoints: Int) -> String { halfPoints % 2 == 0 ? "\(halfPoints / 2)" : "\(halfPoints / 2).5" }

    func pad(_ seat: Int) throws -> TmuxSession {
        try TmuxSession(arguments: ["meet", "judge", meet, "--seat", String(seat)], width: 40, height: 12, dataDirectory: data)
    }

    func console() throws -> TmuxSession {
        try TmuxSession(arguments: ["meet", meet], width: 80, height: 24, dataDirectory: data)
    }

    func journal() throws -> [[String: Any]] {
        try String(contentsOfFile: meet + "/journal.jsonl", encoding: .utf8).split(separator: "\n").compactMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["entry"] as? [String: Any]
        }
    }

    func count(_ kind: String) throws -> Int { try journal().filter { $0["kind"] as? String == kind }.count }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { XCTFail("timed out waiting for \(what)"); throw CancellationError() }
            usleep(20_000)
        }
    }

    func testSevenPadsTheConsoleAndTheBoardScoreAnEventThroughKillsAndRestarts() throws {
        XCTAssertEqual(try locker(["meet", "new", meet, "--event", "Women 3 m", "--pack", "wa2024-individual-women", "--judges", "7", "--height", "3"]).status, 0)
        var rows = ["diver,club,round,code,height"]
        for diver in Self.divers { for (round, code) in ["105B", "203C", "305C"].enumerated() { rows.append("\(diver),Club,\(round + 1),\(code),3") } }
        let sheets = folder.appendingPathComponent("sheets.csv")
        try rows.joined(separator: "\n").write(to: sheets, atomically: true, encoding: .utf8)
        XCTAssertEqual(try locker(["meet", "import", meet, sheets.path]).status, 0)
        XCTAssertEqual(try locker(["meet", "draw", meet, "--seed", "7"]).status, 0)

        var referee = try console()
        try referee.waitFor("Round 1")
        let board = try TmuxSession(arguments: ["meet", "board", meet], width: 80, height: 24, dataDirectory: data)
        var pads = try (1...Self.judges).map { try pad($0) }
        for pad in pads { try pad.waitFor("Seat") }
        // A second pad on a taken seat is refused with a sentence naming it.
        let taken = try locker(["meet", "judge", meet, "--seat", "2"])
        XCTAssertEqual(taken.status, 1)
        XCTAssertTrue(taken.stderr.contains("Seat 2 is taken"), taken.stderr)

        try referee.send("Space")                            // the first dive, on the pads
        var sent: [String: [Int]] = [:]
        for dive in 1...9 {
            // The dive the pads show now (row 3 of a pad: the diver).
            var diver = ""
            try waitUntil("dive \(dive) on the pads") {
                // Not the bottom row: it names the dive accepted last.
                let screen = try pads[0].screen().split(separator: "\n").filter { !$0.contains("Last:") }.joined(separator: "\n")
                diver = Self.divers.first { screen.contains($0) && screen.contains("Your award") } ?? ""
                return !diver.isEmpty
            }
            var awards: [Int] = []
            for seat in 1...Self.judges {
                let award = Self.award(diver, seat: seat)
                awards.append(award)
                if dive == 4 && seat == 3 {
                    // A dropped link mid-dive: the pad dies with its award typed, not sent.
                    try pads[2].send(Self.text(award), literal: true)
                    kill(try pads[2].pid(), SIGHUP)
                    _ = try pads[2].waitForExit()
                    pads[2] = try pad(3)
                    try pads[2].waitFor("Your award")
                }
                try pads[seat - 1].send(Self.text(award), literal: true)
                try pads[seat - 1].send("Enter")
                if dive == 6 && seat == 4 {
                    // The referee's console killed mid-dive and started again: it carries on from the journal.
                    kill(try referee.pid(), SIGKILL)
                    _ = try referee.waitForExit()
                    referee = try console()
                    try referee.waitFor("On the pads")
                }
            }
            try waitUntil("seven awards of dive \(dive)") { try self.count("judged") == dive * Self.judges }
            // Before acceptance: each pad shows its own award, no other seat's, and no standings.
            for (index, pad) in pads.enumerated() {
                let screen = try pad.waitFor("waiting for the referee")
                let current = screen.split(separator: "\n").filter { !$0.contains("Last:") }.joined(separator: "\n")
                XCTAssertTrue(current.contains("Sent: \(Self.text(awards[index])) — waiting for the referee."), current)
                XCTAssertFalse(current.contains("Accepted"), current)
                // No other diver (a ranking would name them all) and no total or place.
                XCTAssertEqual(Self.divers.filter { current.contains($0) }, [diver], current)
                XCTAssertFalse(current.contains("Total") || current.contains("place"), current)
            }
            try referee.waitFor("Every seat has sent its award")
            try referee.send("Enter")                          // the seats' awards, filled in
            try referee.waitFor("Awards: ")
            try referee.send("Enter")                          // read back
            try referee.waitFor("Read back:")
            try referee.send("Enter")                          // accepted and recorded
            try waitUntil("dive \(dive) accepted") { try self.count("awarded") == dive }
            sent["\(diver)"] = (sent[diver] ?? []) + awards
        }
        // After acceptance, the pads show every award of the last dive.
        try pads[0].waitFor("Accepted:")
        try board.waitFor("place")

        let json = try locker(["meet", "results", meet, "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let ranking = try XCTUnwrap(results["ranking"] as? [[String: Any]])
        XCTAssertEqual(ranking.map { $0["diver"] as? String }, ["Bea Martin", "Ana Lopez", "Chloé Dubois"])
        for row in ranking {
            let name = try XCTUnwrap(row["diver"] as? String)
            let dives = try XCTUnwrap(row["dives"] as? [[String: Any]])
            let given = dives.flatMap { ($0["awards"] as? [Double]) ?? [] }.map { Int($0 * 2) }
            XCTAssertEqual(given, sent[name], "every pad's award, exactly once, in seat order")
        }
        XCTAssertEqual(try count("judged"), 9 * Self.judges, "no award twice")
        XCTAssertEqual(try count("awarded"), 9)
        XCTAssertEqual(try locker(["meet", "verify", meet]).status, 0)
        let feed = try locker(["meet", "feed", meet])
        XCTAssertEqual(feed.stdout.split(separator: "\n").count, 9, feed.stdout)
        // The referee's commands refuse what would change a result without a word.
        XCTAssertEqual(try locker(["meet", "call", meet, "--diver", "Ana Lopez", "--round", "1"]).status, 1, "a dive with its awards")
        let redo = try locker(["meet", "call", meet, "--diver", "Ana Lopez", "--round", "1", "--redo"])
        XCTAssertTrue(redo.stdout.contains("attempt 2"), redo.stdout + redo.stderr)
        XCTAssertEqual(try locker(["meet", "accept", meet, "--award", "3=7", "--award", "3=8"]).status, 64)
        XCTAssertEqual(try locker(["meet", "accept", meet, "--missing", "3", "--award", "3=7"]).status, 64)
        XCTAssertEqual(try locker(["meet", "accept", meet, "--award", "3=11"]).status, 64)
    }
}
