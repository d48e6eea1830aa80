import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

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
        // --lang takes any case (as the app does): the help and --about are French too.
        for arguments in [["--help", "--lang", "FR"], ["--about", "--lang=Fr"]] {
            let upper = try locker(arguments)
            XCTAssertEqual(upper.status, 0, "\(arguments): \(upper.stderr)")
            XCTAssertTrue(upper.stdout.contains("Locker"), upper.stdout)
            XCTAssertFalse(upper.stdout.contains("About Locker") || upper.stdout.contains("OVERVIEW: Locker: diving rules"), "\(arguments): \(upper.stdout.prefix(200))")
        }
        let version = try locker(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("locker "), version.stdout)
    }

    func testUnknownValuesAreUsageErrorsOfOneTranslatedLine() throws {
        let cases: [([String], String)] = [
            (["--lang", "de"], "en, fr, es, it"),
            (["--theme", "purple"], "dark, light, mono"),
            (["--tab", "swim"], "rules, penalties, quiz, grades, workout, games"),
        ]
        for (arguments, valid) in cases {
            let result = try locker(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(valid), result.stderr)
        }
        let french = try locker(["--tab", "swim"], environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertTrue(french.stderr.contains("Onglet inconnu"), french.stderr)
    }

    /// A file name, a search or an option someone typed is quoted in the message, never sent to
    /// the terminal as control characters (a name holding "ESC [2J" cleared the screen).
    func testMessagesQuoteTypedTextWithoutItsControlCharacters() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-inert-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let escape = "\u{1B}[2J\u{1B}[31m"
        for arguments in [["workout", "evil\(escape).gpx"], ["rules", "--search", escape + "X"], ["--tab", escape],
                          ["grades", "import", "no-such-\(escape).csv"]] {
            let result = try locker(arguments + ["--data-dir", data.path])
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertFalse(result.stderr.isEmpty, "\(arguments)")
            XCTAssertFalse(result.stderr.contains("\u{1B}") || result.stdout.contains("\u{1B}"), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\u{FFFD}[2J"), "\(arguments): the name is still shown: \(result.stderr)")
        }
    }

    func testWithoutATerminalItSaysSoAndExitsOne() throws {
        let result = try locker([])
        XCTAssertEqual(result.status, 1, "not a usage error: the same command works in a terminal")
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

    /// Every usage error of either program, wherever it is found (ArgumentParser, a value the
    /// command checks, the games commands run by locker-games): exit status 64 (EX_USAGE) and
    /// a first line that starts with "locker: ".
    func testEveryUsageErrorExits64WithTheSamePrefix() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-usage-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let cases: [[String]] = [
            ["--bogus"], ["--tab"], ["--tab", "swim"], ["--lang", "de"], ["--theme", "purple"], ["no-such-command"],
            ["penalties", "--bogus"], ["rules", "--search"], ["dive", "dd", "101A", "--height", "2"], ["dive", "dd"],
            ["workout", "x.gpx", "--max-hr", "20"], ["grades", "need", "--bogus"],
            ["games", "bogus"], ["games", "list", "--postcode", "12"], ["games", "list"], ["games", "list", "--near", "north"],
            ["games", "create", "--ground", "x", "--at", "soon", "--players", "2"], ["games", "edit", "1"],
            ["games", "create", "--players", "two"], ["login", "ann"], ["account", "create"],
            ["games", "serve", "--listen", "nowhere"], ["games", "serve", "--max-connections", "0"],
            ["games", "serve", "--tls-cert", "a.pem"], ["games", "serve", "--trusted-proxy", "10.0.0.0/99"],
            ["dive", "score", "--dd", "2.0", "--awards", "8,7,7,7,7.3"], ["dive", "score", "--dd", "2.0", "--awards", "8,7.5,7"],
            ["games", "create", "--ground", "x", "--at", "2026-12-05T10:00", "--players", "2", "--capacity", "100"],
            ["games", "edit", "1", "--capacity", "1"],
            ["games", "create", "--ground", "x", "--at", "2026-12-05T10:00", "--players", "0"],
            ["games", "create", "--ground", "x", "--at", "2026-12-05T10:00", "--players", "2", "--min", "40"],
            ["--games-server", "nonsense", "games", "today"], ["games", "list", "--postcode", "3977", "--games-server", "ftp://x"],
            // An unset variable in `--data-dir "$DIR"` must not mean the usual data folder.
            ["--data-dir", "", "grades"], ["--tab", "grades", "--data-dir", ""], ["--games-db", "", "games", "today"],
            // A server address no option can take, given as the argument of `games server` or over plain http.
            ["games", "server", "notaurl"], ["games", "server", "http://10.1.1.1:80"],
            ["--games-server", "http://10.1.1.1:80", "games", "list", "--postcode", "3977"],
        ]
        for arguments in cases {
            let result = try locker(["--data-dir", data] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("locker: "), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Error:"), "\(arguments): one prefix")
        }
        let french = try locker(["games", "list", "--postcode", "12"], environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertEqual(french.status, 64)
        XCTAssertTrue(french.stderr.hasPrefix("locker: "), french.stderr)
        XCTAssertFalse(french.stderr.contains("is not a postcode"), "translated: \(french.stderr)")
    }

    /// The argument parser writes its usage errors in English; a French user reads them in
    /// French, and `help` of a command that does not exist is one such error.
    func testTheParsersUsageErrorsAreTranslatedAndHelpOfNoCommandIsOne() throws {
        let english = ["Unknown option", "Unexpected argument", "unexpected arguments", "Missing value", "Missing expected argument",
                       "is invalid for", "Usage:", "for more information", "Did you mean", "Please provide"]
        let cases: [[String]] = [["--bogus"], ["--tabb", "rules"], ["no-such-command"], ["rules", "one", "two"], ["rules", "--search"],
                                 ["dive", "dd"], ["dive", "dd", "101A", "--height", "x"], ["meet", "award", "--bogus"],
                                 ["games", "list", "--bogus"], ["help", "bogus"], ["help", "dive", "bogus"]]
        for arguments in cases {
            let result = try locker(["--lang", "fr"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("locker: "), "\(arguments): \(result.stderr)")
            for phrase in english { XCTAssertFalse(result.stderr.contains(phrase), "\(arguments): \(result.stderr)") }
        }
        // A negative number is the option's value, said wrong as a value ("-1" is no option).
        let negative = try locker(["--data-dir", FileManager.default.temporaryDirectory.path, "meet", "new", "/nonexistent-\(UUID().uuidString)",
                                   "--event", "E", "--pack", "wa2024-individual-women", "--judges", "5", "--height", "3", "--cut", "-1"])
        XCTAssertEqual(negative.status, 64)
        XCTAssertTrue(negative.stderr.contains("--cut is a place"), negative.stderr)
        let unknown = try locker(["help", "bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("bogus"), unknown.stderr)
        XCTAssertEqual(unknown.stdout, "", "no help printed for a command that does not exist")
    }

    /// `locker help CMD …`, `locker CMD … --help` and `locker-games --help` print the command's
    /// real help under the name the user typed, with each default said once.
    func testNestedHelpIsTheRealHelp() throws {
        for arguments in [["help", "games", "create"], ["games", "create", "--help"], ["--lang", "en", "games", "create", "-h"]] {
            let help = try locker(arguments)
            XCTAssertEqual(help.status, 0, "\(arguments): \(help.stderr)")
            XCTAssertTrue(help.stdout.contains("USAGE: locker games create"), "\(arguments): \(help.stdout)")
            for option in ["--ground", "--at", "--players", "--capacity", "--min", "--note"] {
                XCTAssertTrue(help.stdout.contains(option), "\(arguments) documents \(option)")
            }
            XCTAssertFalse(help.stdout.contains("<rest>"), "not a stand-in")
        }
        let account = try locker(["help", "account", "create"])
        XCTAssertTrue(account.stdout.contains("USAGE: locker account create"), account.stdout)
        XCTAssertTrue(account.stdout.contains("--password-stdin"), account.stdout)
        guard let games = LockerBinary.url?.deletingLastPathComponent().appendingPathComponent("locker-games") else { return }
        let own = try runProcess([games.path, "--help"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(own.status, 0)
        XCTAssertTrue(own.stdout.contains("USAGE: locker-games "), own.stdout)
        for arguments in [["help", "games", "create"], ["help", "games", "serve"], ["help", "games", "edit"], ["--help"]] {
            let help = try locker(arguments).stdout
            for line in help.split(separator: "\n") {
                XCTAssertLessThan(line.components(separatedBy: "default").count, 3, "a default said twice: \(line)")
            }
            XCTAssertFalse(help.contains("(default 22)") || help.contains("default 127.0.0.1"), help)
        }
    }

    /// A command's help offers only the options that act in it: the games server's address is
    /// no option of a dive score or of a restore, which works on a store directly.
    func testHelpListsOnlyOptionsThatAct() throws {
        for arguments in [["dive", "score", "--help"], ["grades", "--help"], ["meet", "--help"], ["games", "restore", "--help"],
                          ["games", "serve", "--help"], ["account", "admin", "--help"]] {
            let help = try locker(arguments)
            XCTAssertEqual(help.status, 0, "\(arguments)")
            XCTAssertFalse(help.stdout.contains("--games-server"), "\(arguments): \(help.stdout)")
            XCTAssertFalse(help.stdout.contains("--games-ca"), "\(arguments)")
        }
        for arguments in [["--help"], ["games", "list", "--help"], ["login", "--help"]] {
            XCTAssertTrue(try locker(arguments).stdout.contains("--games-server"), "\(arguments) reaches a server")
        }
        XCTAssertFalse(try locker(["dive", "score", "--help"]).stdout.contains("--games-db"))
        guard let games = LockerBinary.url?.deletingLastPathComponent().appendingPathComponent("locker-games") else { return }
        let version = try runProcess([games.path, "--version"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("locker-games "), "names itself: \(version.stdout)")
    }

    /// A port another program holds is a sentence saying what to do, not the socket error.
    func testPortInUseIsASentence() throws {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-port-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let result = try locker(["--data-dir", data, "games", "serve", "--listen", "127.0.0.1:\(port)"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("locker: Port \(port) on 127.0.0.1 is already in use by another program"), result.stderr)
        XCTAssertFalse(result.stderr.contains("errno"), result.stderr)
        XCTAssertFalse(result.stderr.contains("bind("), result.stderr)
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
        XCTAssertEqual(wrong.status, 64, "awards the panel cannot have are a usage error")
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

/// `scripts/install`: the programs, their manual pages and the shell completions, as a user gets
/// them under a prefix.
final class InstallTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testManualPagesAndCompletionsAreInstalledAndWork() throws {
        guard LockerBinary.url != nil else { throw XCTSkip("locker binary not built") }
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("locker-install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let install = try runProcess(["bash", Self.root.appendingPathComponent("scripts/install").path, "--debug", "--ignore-lock", prefix.path])
        XCTAssertEqual(install.status, 0, install.stderr)

        for page in ["locker", "locker-games"] {
            let path = prefix.appendingPathComponent("share/man/man1/\(page).1").path
            let man = try runProcess(["man", "-l", path], environment: ["LANG": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat",
                                                                         "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(man.status, 0, man.stderr)
            XCTAssertTrue(man.stdout.contains(page), man.stdout)
            XCTAssertTrue(man.stdout.contains("--data-dir"), "\(page): the root options")
            XCTAssertTrue(man.stdout.contains("--players"), "\(page): the games commands' own options")
        }
        let manual = try runProcess(["man", "-l", prefix.appendingPathComponent("share/man/man1/locker.1").path],
                                    environment: ["LANG": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PATH": "/usr/bin:/bin"]).stdout
        for command in ["rules", "penalties", "grades", "workout", "dive", "cancel-game", "serve"] {
            XCTAssertTrue(manual.contains(command), "man locker documents \(command)")
        }

        // bash: what Tab offers after `locker games c`, `locker lo` and `locker --lang `.
        let bin = prefix.appendingPathComponent("bin").path
        let script = prefix.appendingPathComponent("share/bash-completion/completions/locker").path
        func complete(_ words: [String]) throws -> [String] {
            let line = words.map { $0.isEmpty ? "''" : $0 }.joined(separator: " ")
            let probe = """
            source \(script)
            COMP_WORDS=(\(line)); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _locker locker "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
            let result = try runProcess(["bash", "-c", probe], environment: ["PATH": "\(bin):/usr/bin:/bin", "LANG": "C.UTF-8"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(try complete(["locker", "games", "c"]), ["cancel", "cancel-game", "create"])
        XCTAssertEqual(try complete(["locker", "lo"]), ["login", "logout"])
        XCTAssertEqual(try complete(["locker", "--lang", ""]), ["en", "es", "fr", "it"])
        XCTAssertEqual(try complete(["locker", "account", "c"]), ["create"])
        XCTAssertTrue(try complete(["locker", "games", "create", "--p"]).contains("--players"))
        for file in ["share/zsh/site-functions/_locker", "share/zsh/site-functions/_locker-games",
                     "share/fish/vendor_completions.d/locker.fish", "share/fish/vendor_completions.d/locker-games.fish",
                     "share/bash-completion/completions/locker-games"] {
            let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(text.contains("cancel-game"), "\(file) completes the games commands")
        }
    }

    /// Someone who clones the repository can read every document it cites: nothing points to
    /// the design notes it started from, outside the repository.
    func testNoCitationOutsideTheRepository() throws {
        let result = try runProcess(["git", "-C", Self.root.path, "grep", "-n", "-I", "-E", #"shared/docs|design\.md|design §"#, "--",
                                     ".", ":!Tests/EndToEndTests/CommandLineTests.swift"])
        guard result.status != 128 else { throw XCTSkip("not a git checkout") }
        XCTAssertEqual(result.stdout, "", "citations of a document outside the repository")
    }
}
