import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `locker meet` as a recorder uses it from a shell: a folder made, sheets imported, awards
/// recorded out of order, results, replay and verify; and a journal that keeps every award
/// whose command said it was recorded, through `kill -9` in the middle of a burst.
final class MeetCommandTests: XCTestCase {
    var folder: URL!

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("meet-cli-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    func locker(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        return try runProcess([binary.path] + arguments, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    }

    var meet: String { folder.appendingPathComponent("meet").path }

    func makeMeet(divers: Int = 3, rounds: Int = 5) throws {
        XCTAssertEqual(try locker(["meet", "new", meet, "--event", "Women 3 m", "--pack", "wa2024-individual-women", "--judges", "5", "--height", "3"]).status, 0)
        let codes = ["105B", "203C", "305C", "403B", "5132D", "107C"]
        var rows = ["diver,club,round,code,height"]
        for diver in 0..<divers {
            for round in 1...rounds { rows.append("Diver \(diver + 1),Club,\(round),\(codes[(round - 1) % codes.count]),3") }
        }
        let sheets = folder.appendingPathComponent("sheets.csv")
        try rows.joined(separator: "\n").write(to: sheets, atomically: true, encoding: .utf8)
        let imported = try locker(["meet", "import", meet, sheets.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    func testAwardsThatCannotBeScoredOrAnArticleThatFailsNoDiveAreRefusedAndNothingIsWritten() throws {
        try makeMeet()
        let journal = folder.appendingPathComponent("meet/journal.jsonl")
        let before = try Data(contentsOf: journal)
        let missing = try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards=x,x,x,x,x"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("locker: ") && !missing.stderr.contains("tooManyMissing"), missing.stderr)
        let article = try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 7", "--failed", "99.99"])
        XCTAssertEqual(article.status, 64, article.stderr)
        XCTAssertTrue(article.stderr.contains("6.4.8"), "the articles that do fail a dive are named: \(article.stderr)")
        XCTAssertEqual(try Data(contentsOf: journal), before)
        XCTAssertEqual(try locker(["meet", "results", meet]).status, 0)
    }

    func testAWholeEventFromTheCommandLineEndsOnTheRightRanking() throws {
        try makeMeet()
        // Out of order, as a recorder catching up from paper.
        let awards: [(Int, Int, String)] = [(3, 2, "6 6 6 6 6"), (1, 1, "7 7.5 7 7 6,5"), (2, 1, "8 8 8 8 8"), (3, 1, "5 5 5 5 5"),
                                            (1, 2, "7 7 7 7 7"), (2, 2, "2 2 2 2 2")]
        for (diver, round, list) in awards {
            let result = try locker(["meet", "award", meet, "--diver", "Diver \(diver)", "--round", String(round), "--awards", list])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let json = try locker(["meet", "results", meet, "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let ranking = try XCTUnwrap(results["ranking"] as? [[String: Any]])
        XCTAssertEqual(ranking.map { $0["diver"] as? String }, ["Diver 1", "Diver 3", "Diver 2"])
        // 105B 3 m is DD 2.4, 203C 3 m is 1.9: Diver 1 = 21 × 2.4 + 21 × 1.9 = 90.30; Diver 3 =
        // 15 × 2.4 + 18 × 1.9 = 70.20; Diver 2 = 24 × 2.4 + 6 × 1.9 = 69.00.
        XCTAssertEqual(ranking.map { $0["total"] as? Double }, [90.3, 70.2, 69.0])
        XCTAssertEqual(try locker(["meet", "replay", meet, "--json"]).stdout, json.stdout, "replay gives the same bytes")
        XCTAssertEqual(try locker(["meet", "verify", meet]).status, 0)
    }

    func testACorrectionCountsKeepsTheFirstAwardsAndShowsItsReasonInTheProtocol() throws {
        try makeMeet(divers: 2, rounds: 1)
        XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards", "5 5 5 5 5"]).status, 0)
        let noReason = try locker(["meet", "correct", meet, "--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 7", "--reason", " "])
        XCTAssertEqual(noReason.status, 1, noReason.stderr)
        let nothing = try locker(["meet", "correct", meet, "--diver", "Diver 2", "--round", "1", "--awards", "7 7 7 7 7", "--reason", "typo"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("no awards to correct"), nothing.stderr)
        let fixed = try locker(["meet", "correct", meet, "--diver", "diver 1", "--round", "1", "--awards", "7 7 7 7 7",
                                "--reason", "judge 3's card read as 5"])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        let results = try locker(["meet", "results", meet, "--json"]).stdout
        XCTAssertTrue(results.contains(#""total" : 50.4"#), results)   // 21 × 2.4
        let journal = try String(contentsOf: folder.appendingPathComponent("meet/journal.jsonl"), encoding: .utf8)
        XCTAssertTrue(journal.contains(#""awards":[10,10,10,10,10]"#), "the first awards stay in the journal")
        let page = folder.appendingPathComponent("protocol.html")
        XCTAssertEqual(try locker(["meet", "results", meet, "--html", page.path]).status, 0)
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.contains("judge 3&apos;s card read as 5"), "the protocol lists the correction and its reason")
        let hash = try locker(["meet", "verify", meet]).stdout.split(separator: " ").last.map { String($0.dropLast(2)) } ?? ""
        XCTAssertTrue(html.contains(hash), "the protocol carries the journal's last hash")
    }

    func testAnImportNamingADiverAlreadyEnteredEntersNobody() throws {
        try makeMeet(divers: 1, rounds: 1)
        let journal = folder.appendingPathComponent("meet/journal.jsonl")
        let before = try Data(contentsOf: journal)
        let sheets = folder.appendingPathComponent("more.csv")
        try "diver,club,round,code,height\nNew One,C,1,105B,3\nDiver 1,C,1,105B,3\n".write(to: sheets, atomically: true, encoding: .utf8)
        let refused = try locker(["meet", "import", meet, sheets.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("Diver 1 is already entered"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: journal), before, "nobody entered")
    }

    /// The running order is drawn among the divers entered (2.1.1): once a dive has its awards
    /// nobody more is entered, and a diver entered after the draw is told to draw again.
    func testNoDiverIsEnteredOnceTheEventHasBegunAndOneEnteredAfterTheDrawIsToldToDrawAgain() throws {
        try makeMeet(divers: 2, rounds: 1)
        XCTAssertEqual(try locker(["meet", "draw", meet, "--seed", "3"]).status, 0)
        let late = folder.appendingPathComponent("late.csv")
        try "diver,club,round,code,height\nLate One,C,1,105B,3\n".write(to: late, atomically: true, encoding: .utf8)
        let afterDraw = try locker(["meet", "import", meet, late.path])
        XCTAssertEqual(afterDraw.status, 0, afterDraw.stderr)
        XCTAssertTrue(afterDraw.stderr.contains("locker meet draw"), "told to draw again: \(afterDraw.stderr)")
        XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 7"]).status, 0)
        let journal = folder.appendingPathComponent("meet/journal.jsonl")
        let before = try Data(contentsOf: journal)
        let later = folder.appendingPathComponent("later.csv")
        try "diver,club,round,code,height\nLater One,C,1,105B,3\n".write(to: later, atomically: true, encoding: .utf8)
        let begun = try locker(["meet", "import", meet, later.path])
        XCTAssertEqual(begun.status, 1, begun.stderr)
        XCTAssertTrue(begun.stderr.hasPrefix("locker: ") && begun.stderr.contains("has begun"), begun.stderr)
        XCTAssertEqual(try Data(contentsOf: journal), before, "nobody entered")
    }

    /// A follower of the feed stops, saying why, when the journal it follows is cut back (an old
    /// copy restored): it went on from the shorter journal, mixing two histories.
    func testAFollowedFeedStopsWhenTheJournalIsRewritten() throws {
        try makeMeet(divers: 2, rounds: 2)
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 7"]).status, 0)
        let journal = folder.appendingPathComponent("meet/journal.jsonl")
        let before = try Data(contentsOf: journal)
        XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 2", "--round", "1", "--awards", "6 6 6 6 6"]).status, 0)
        let follower = Process()
        follower.executableURL = binary
        follower.arguments = ["meet", "feed", meet, "--follow"]
        follower.environment = ["LANG": "C.UTF-8"]
        let out = Pipe(), err = Pipe()
        follower.standardOutput = out
        follower.standardError = err
        try follower.run()
        defer { if follower.isRunning { follower.terminate() } }
        Thread.sleep(forTimeInterval: 0.5)
        try before.write(to: journal)                       // the journal as it was one award ago
        XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 2", "--round", "1", "--awards", "5 5 5 5 5"]).status, 0)
        let deadline = Date().addingTimeInterval(10)
        while follower.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !follower.isRunning else { return XCTFail("the follower went on with the other history") }
        XCTAssertEqual(follower.terminationStatus, 1)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(said.hasPrefix("locker: ") && said.contains("rewritten"), said)
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(printed.split(separator: "\n").count, 2, "the two awards of the first history, nothing of the second: \(printed)")
    }

    /// A meet folder that cannot be made says why: a file in its place is not "permission denied".
    func testAMeetFolderThatCannotBeMadeSaysWhy() throws {
        let file = folder.appendingPathComponent("a-file")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "x".write(to: file, atomically: true, encoding: .utf8)
        for path in [file.path, file.appendingPathComponent("meet").path] {
            let result = try locker(["meet", "new", path, "--event", "E", "--pack", "wa2024-individual-women", "--judges", "5", "--height", "3"])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("where a folder should be"), result.stderr)
        }
    }

    func testWhatTheWalkthroughBrokeStaysFixed() throws {
        try makeMeet(divers: 2, rounds: 1)
        let journal = folder.appendingPathComponent("meet/journal.jsonl")
        // The protocol never overwrites the meet's own files, nor makes folders.
        let overwrite = try locker(["meet", "results", meet, "--html", journal.path])
        XCTAssertEqual(overwrite.status, 1, overwrite.stderr)
        XCTAssertEqual(try locker(["meet", "verify", meet]).status, 0, "the journal is still the journal")
        XCTAssertEqual(try locker(["meet", "results", meet, "--html", "/no-such-folder-\(UUID().uuidString)/p.html"]).status, 1)
        XCTAssertEqual(try locker(["meet", "results", meet, "--json", "--csv"]).status, 64)
        // Awards are plain decimals.
        for list in ["0x7 7 7 7 7", "7e0 7 7 7 7", "+7 7 7 7 7", "7 ,5 8 8 8"] {
            XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards", list]).status, 64, list)
        }
        // A missing award shows as its replacement in square brackets.
        XCTAssertEqual(try locker(["meet", "award", meet, "--diver", "Diver 1", "--round", "1", "--awards", "7 7.5 7.5 x 7"]).status, 0)
        XCTAssertTrue(try locker(["meet", "results", meet]).stdout.contains("[7.5]"))
        // The running order is fixed once a dive has its awards.
        let draw = try locker(["meet", "draw", meet, "--seed", "1"])
        XCTAssertEqual(draw.status, 1, draw.stderr)
        // An individual event takes no pair, a Latin-1 file is refused with its line.
        let pair = folder.appendingPathComponent("pair.csv")
        try "diver,club,round,code,height\nAda / Bea,C,1,105B,3\n".write(to: pair, atomically: true, encoding: .utf8)
        XCTAssertTrue(try locker(["meet", "import", meet, pair.path]).stderr.contains("is a pair"))
        let latin = folder.appendingPathComponent("latin.csv")
        try Data("diver,club,round,code,height\nZo\u{EB},C,1,105B,3\n".data(using: .isoLatin1)!).write(to: latin)
        let refused = try locker(["meet", "import", meet, latin.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("line 2") && refused.stderr.contains("UTF-8"), refused.stderr)
    }

    func testASynchroEventTakesPairsOnly() throws {
        XCTAssertEqual(try locker(["meet", "new", meet, "--event", "Synchro 3 m", "--pack", "wa2024-synchro-women", "--judges", "9", "--height", "3"]).status, 0)
        let sheets = folder.appendingPathComponent("synchro.csv")
        for (name, accepted) in [("Ada", false), ("Ada / Ada", false), ("Ada / ", false), ("A / B / C", false), ("Ada / Bea", true)] {
            try "diver,club,round,code,height\n\(name),C,1,105B,3\n".write(to: sheets, atomically: true, encoding: .utf8)
            XCTAssertEqual(try locker(["meet", "import", meet, sheets.path]).status == 0, accepted, name)
        }
    }

    func testASeededDrawIsKeptAndDrawsTheSameOrderAgain() throws {
        try makeMeet(divers: 5, rounds: 1)
        let first = try locker(["meet", "draw", meet, "--seed", "42"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let order = first.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        XCTAssertEqual(order.count, 5)
        XCTAssertTrue(first.stdout.contains("Seed: 42"))
        let again = try locker(["meet", "draw", meet, "--seed", "42"])
        XCTAssertEqual(again.stdout, first.stdout, "the same seed draws the same order")
        let journal = try String(contentsOf: folder.appendingPathComponent("meet/journal.jsonl"), encoding: .utf8)
        XCTAssertTrue(journal.contains(#""seed":42"#), "the seed is in the journal")
        // Unscored divers are listed in the drawn order.
        let results = try locker(["meet", "results", meet]).stdout
        func divers(_ text: String) -> [String] {
            text.split(separator: "\n").compactMap { line in line.range(of: "Diver [0-9]+", options: .regularExpression).map { String(line[$0]) } }
        }
        XCTAssertEqual(divers(results), divers(first.stdout))
    }

    func testBadInputIsOneLineAndLeavesTheJournalAlone() throws {
        try makeMeet()
        let journal = folder.appendingPathComponent("meet/journal.jsonl")
        let before = try Data(contentsOf: journal)
        for (arguments, status, words) in [
            (["--diver", "Nobody", "--round", "1", "--awards", "7 7 7 7 7"], Int32(1), "No diver “Nobody”"),
            (["--diver", "Diver 1", "--round", "9", "--awards", "7 7 7 7 7"], 1, "no dive in round 9"),
            (["--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7"], 1, "give 5 awards (4 given)"),
            (["--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 7.3"], 64, "is not an award"),
            (["--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 11"], 64, "is not an award"),
            (["--diver", "Diver 1", "--round", "1", "--awards", "7 7 7 7 7", "--max", "3"], 64, "--max is 2"),
        ] {
            let result = try locker(["meet", "award", meet] + arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: journal), before)
        let missing = folder.appendingPathComponent("bad.csv")
        try "diver,club,round,code\nAda,A,1,105B\n".write(to: missing, atomically: true, encoding: .utf8)
        let refused = try locker(["meet", "import", meet, missing.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("line 1") && refused.stderr.contains("height"), refused.stderr)
        let notADive = folder.appendingPathComponent("dive.csv")
        try "diver,club,round,code,height\nAda,A,1,105B,3\nAda,A,2,5999Z,3\n".write(to: notADive, atomically: true, encoding: .utf8)
        let wrongDive = try locker(["meet", "import", meet, notADive.path])
        XCTAssertEqual(wrongDive.status, 1)
        XCTAssertTrue(wrongDive.stderr.contains("line 3"), wrongDive.stderr)
        XCTAssertEqual(try Data(contentsOf: journal), before, "nothing half-imported")
    }

    func testKillNineInABurstOfAwardsLosesNoneThatSaidRecorded() throws {
        try makeMeet(divers: 6, rounds: 5)
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        var recorded: [(Int, Int)] = []
        var killed = 0
        for diver in 1...6 {
            for round in 1...5 {
                let (pid, _) = try startProcess([binary.path, "meet", "award", meet, "--diver", "Diver \(diver)", "--round", String(round),
                                                 "--awards", "7 7 7 7 7"])
                // Every seventh call is killed at once, wherever it is.
                if (diver * 5 + round) % 7 == 0 {
                    kill(pid, SIGKILL)
                    killed += 1
                }
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                if status & 0x7f == 0 && (status >> 8) & 0xff == 0 { recorded.append((diver, round)) }
            }
        }
        XCTAssertGreaterThan(killed, 0)
        let verify = try locker(["meet", "verify", meet])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let json = try locker(["meet", "results", meet, "--json"]).stdout
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let scored = Set((results["ranking"] as? [[String: Any]] ?? []).flatMap { row in
            (row["dives"] as? [[String: Any]] ?? []).filter { $0["score"] is Double }.map { "\(row["diver"] ?? "") \($0["round"] ?? "")" }
        })
        for (diver, round) in recorded {
            XCTAssertTrue(scored.contains("Diver \(diver) \(round)"), "Diver \(diver) round \(round) said recorded and is in the journal")
        }
    }
}
