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
