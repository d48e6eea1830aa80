import Foundation
import XCTest

/// `locker meet DIR` as a recorder runs a meet: a whole 3-diver, 5-round event typed in the
/// console, dive after dive as it calls them, with a re-start, a missing award, a correction and
/// an undo, at 80×24 and 200×60, in English and French; it ends on the right ranking, on screen
/// and in `locker meet results --json`, and every dive the console said was recorded is in the
/// journal at that moment.
final class MeetConsoleEndToEndTests: XCTestCase {
    var folder: URL!

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("meet-console-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    var meet: String { folder.appendingPathComponent("meet").path }
    static let divers = ["Ana Lopez", "Bea Martin", "Chloé Dubois"]

    func locker(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        return try runProcess([binary.path] + arguments, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    }

    func makeMeet() throws {
        XCTAssertEqual(try locker(["meet", "new", meet, "--event", "Women 3 m", "--pack", "wa2024-individual-women", "--judges", "5", "--height", "3"]).status, 0)
        let codes = ["105B", "203C", "305C", "403B", "5132D"]
        var rows = ["diver,club,round,code,height"]
        for diver in Self.divers {
            for round in 1...5 { rows.append("\(diver),Club \(diver.prefix(1)),\(round),\(codes[round - 1]),3") }
        }
        let sheets = folder.appendingPathComponent("sheets.csv")
        try rows.joined(separator: "\n").write(to: sheets, atomically: true, encoding: .utf8)
        XCTAssertEqual(try locker(["meet", "import", meet, sheets.path]).status, 0)
        XCTAssertEqual(try locker(["meet", "draw", meet, "--seed", "7"]).status, 0)
    }

    /// Lines in the journal now.
    func journalLines() throws -> Int {
        try String(contentsOfFile: meet + "/journal.jsonl", encoding: .utf8).split(separator: "\n").count
    }

    func waitForJournal(_ lines: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(10)
        while try journalLines() < lines {
            guard Date() < deadline else {
                let count = try journalLines()
                return XCTFail("the journal has \(count) lines, not \(lines)", file: file, line: line)
            }
            usleep(20_000)
        }
    }

    /// The diver and round the console calls now, read from its first row.
    /// The diver and round the console calls now, read from its first row, once it is not `previous`.
    func calledDive(_ session: TmuxSession, after previous: (diver: String, round: Int)? = nil) throws -> (diver: String, round: Int) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let first = try session.screen().split(separator: "\n").dropFirst().first.map(String.init) ?? ""
            if let diver = Self.divers.first(where: { first.contains($0) }),
               let round = first.split(whereSeparator: { !$0.isNumber }).first.flatMap({ Int($0) }),
               previous.map({ $0.diver != diver || $0.round != round }) ?? true {
                return (diver, round)
            }
            usleep(20_000)
        }
        let screen = try session.screen()
        XCTFail("no dive called: \(screen)")
        throw CancellationError()
    }

    func runWholeEvent(width: Int, height: Int, language: String) throws {
        try makeMeet()
        let session = try TmuxSession(arguments: ["meet", meet, "--lang", language], width: width, height: height,
                                      dataDirectory: folder.appendingPathComponent("data"))
        try session.waitFor(language == "fr" ? "Tour 1" : "Round 1")
        var lines = try journalLines()
        var previous: (diver: String, round: Int)?
        for _ in 0..<15 {
            let (diver, round) = try calledDive(session, after: previous)
            previous = (diver, round)
            try session.send("Enter")
            switch (diver, round) {
            case ("Chloé Dubois", 2): try session.send("6 - 6 6 6", literal: true)
            case ("Ana Lopez", _): try session.send("7 7 7 7 7", literal: true)
            case ("Bea Martin", _): try session.send("8 8 8 8 8", literal: true)
            default: try session.send("6 6 6 6 6", literal: true)
            }
            try session.send("Enter")                              // read back
            if diver == "Bea Martin" && round == 4 { try session.send("r") }   // re-start: −2 from every award
            try session.send("Enter")                              // record
            lines += 1
            try waitForJournal(lines)
        }
        // The last dive stays called; a correction of it with its reason, then an undo and a redo: it stands.
        let (diver, round) = try calledDive(session)
        XCTAssertEqual(diver, "Chloé Dubois")
        XCTAssertEqual(round, 5)
        try session.send("c")
        for _ in 0..<9 { try session.send("BSpace") }
        try session.send("5 5 5 5 5", literal: true)
        try session.send("Enter", "Enter")
        try session.send("wrong card", literal: true)
        try session.send("Enter")
        try waitForJournal(lines + 1)
        try session.send("u")
        try waitForJournal(lines + 2)
        try session.send("C-r")
        try waitForJournal(lines + 3)
        let screen = try session.waitForStableScreen()
        // The ranking: Bea (8s, one re-start), Ana (7s), Chloé (6s, 5s in round 5).
        let table = screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast(3).drop { !$0.contains("────") }
        let order = table.compactMap { line in Self.divers.first { line.contains($0) } }
        XCTAssertEqual(order, ["Bea Martin", "Ana Lopez", "Chloé Dubois"], screen)
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)

        let json = try locker(["meet", "results", meet, "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let ranking = try XCTUnwrap(results["ranking"] as? [[String: Any]])
        XCTAssertEqual(ranking.map { $0["diver"] as? String }, ["Bea Martin", "Ana Lopez", "Chloé Dubois"])
        XCTAssertEqual(ranking.map { $0["place"] as? Int }, [1, 2, 3])
        // Each total is the sum of (the three middle awards) × DD, exactly.
        for row in ranking {
            let dives = try XCTUnwrap(row["dives"] as? [[String: Any]])
            var expected = 0
            for dive in dives {
                let dd = Int(((dive["dd"] as? Double ?? 0) * 10).rounded())
                let middle: Int
                switch (row["diver"] as? String, dive["round"] as? Int) {
                case ("Bea Martin", 4): middle = 18
                case ("Bea Martin", _): middle = 24
                case ("Ana Lopez", _): middle = 21
                case ("Chloé Dubois", 5): middle = 15
                default: middle = 18
                }
                expected += middle * dd * 10
            }
            XCTAssertEqual(Int(((row["total"] as? Double ?? 0) * 100).rounded()), expected, "\(row)")
        }
        XCTAssertEqual(try locker(["meet", "replay", meet, "--json"]).stdout, json.stdout)
        XCTAssertEqual(try locker(["meet", "verify", meet]).status, 0)
    }

    func testAWholeEventAt80x24InEnglish() throws { try runWholeEvent(width: 80, height: 24, language: "en") }
    func testAWholeEventAt200x60InFrench() throws { try runWholeEvent(width: 200, height: 60, language: "fr") }
    func testAWholeEventAt80x24InFrench() throws { try runWholeEvent(width: 80, height: 24, language: "fr") }
    func testAWholeEventAt200x60InEnglish() throws { try runWholeEvent(width: 200, height: 60, language: "en") }
}
