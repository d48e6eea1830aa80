import Foundation
import LockerCommandLine
import XCTest

/// The full-screen app's command lines are read without ArgumentParser (`QuickRootOptions`):
/// what that reader takes, what it leaves to ArgumentParser, and that it knows every root option.
final class QuickLaunchTests: XCTestCase {
    func testReadsRootOptionsInBothFormsAndFlags() {
        let given = QuickRootOptions.locker(["--tab", "quiz", "--lang=fr", "--ascii", "--data-dir", "/tmp/x y", "--games-server-insecure"])
        XCTAssertEqual(given?.values, ["tab": "quiz", "lang": "fr", "data-dir": "/tmp/x y"])
        XCTAssertEqual(given?.flags, ["ascii", "games-server-insecure"])
        XCTAssertEqual(QuickRootOptions.locker([]), QuickRootOptions.locker([]), "no argument at all is the app on its defaults")
        XCTAssertEqual(QuickRootOptions.locker([])?.values, [:])
    }

    func testLeavesEverythingElseToArgumentParser() {
        let others: [[String]] = [
            ["--help"], ["-h"], ["--version"], ["dive", "dd", "105B"], ["meet", "new", "x"],
            ["--tab"], ["--tab", "--ascii"], ["--tab", "-quiz"], ["--tab="], ["--tab", ""],
            ["--tab", "quiz", "--tab", "rules"], ["--ascii", "--ascii"], ["--ascii=yes"],
            ["--debug-fault", "crash"], ["--no-such-option"], ["-t", "quiz"], ["--"], ["quiz"],
            ["--tab", "quiz", "extra"],
        ]
        for arguments in others {
            XCTAssertNil(QuickRootOptions.locker(arguments), "\(arguments)")
        }
    }

    /// A root option added to `Locker` but not to the quick reader would be left unset on the
    /// usual start (and reading it would stop the program): this fails first.
    func testKnowsEveryRootOptionArgumentParserLists() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let result = try runProcess([binary.path, "--experimental-dump-help"], environment: ["LANG": "C.UTF-8"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let tool = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try XCTUnwrap(tool["command"] as? [String: Any])
        let arguments = try XCTUnwrap(command["arguments"] as? [[String: Any]])
        var options: Set<String> = [], flags: Set<String> = []
        for argument in arguments {
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            guard let name = names.last, !["help", "version", "debug-fault"].contains(name) else { continue }
            if argument["kind"] as? String == "flag" { flags.insert(name) } else { options.insert(name) }
        }
        XCTAssertEqual(options, QuickRootOptions.lockerValued)
        XCTAssertEqual(flags, QuickRootOptions.lockerFlags)
    }

    /// Every option the quick reader takes, at once: the app starts with each of them applied.
    func testTheAppStartsWithEveryQuickOption() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quick-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try TmuxSession(arguments: ["--tab", "quiz", "--lang=fr", "--theme", "mono", "--ascii",
                                                  "--data-dir", folder.path, "--games-db", folder.appendingPathComponent("g.sqlite").path,
                                                  "--games-server", "http://127.0.0.1:9", "--games-server-insecure",
                                                  "--games-ca", folder.appendingPathComponent("ca.pem").path])
        let screen = try session.waitFor("Entrainez-vous")
        XCTAssertTrue(screen.contains("3 Quiz"), screen)
        XCTAssertFalse(screen.contains("Entraînez"), "--ascii draws accents as plain letters: \(screen)")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }
}
