import Foundation
import XCTest

/// Locker as a person uses it: the real binary in tmux, keys sent, the screen read back.
final class ShellEndToEndTests: XCTestCase {
    let tabNames = ["Rules", "Penalties", "Quiz", "Grades", "Workout", "Games"]

    func testStartsEveryTabByDigitAndBracketsThenQuitsCleanly() throws {
        let session = try TmuxSession(width: 80, height: 24)
        try session.waitFor("1 Rules")
        try session.waitFor("? help")
        for (index, name) in tabNames.enumerated() {
            try session.send("\(index + 1)")
            try session.waitFor("Help — \(name)".isEmpty ? name : name)
            try session.send("?")
            try session.waitFor("Help — \(name)")
            try session.send("Escape")
            try session.waitForAbsence("Help — \(name)")
        }
        try session.send("]")   // from Games wraps to Rules
        try session.send("?")
        try session.waitFor("Help — Rules")
        try session.send("Escape")
        try session.send("[")
        try session.send("F1")
        try session.waitFor("Help — Games")
        try session.send("Escape")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertTrue(try session.terminalRestored(), "alternate screen left and cursor shown")
    }

    /// Escape then "[" arriving together (typed fast, pasted, or one SSH packet) are two keys:
    /// the help closes and "[" goes to the previous tab. They used to be read as the start of a
    /// control sequence that never came and both were dropped.
    func testEscapeThenBracketInOneBurstAreBothKeys() throws {
        let session = try TmuxSession(width: 80, height: 24)
        try session.waitFor("1 Rules")
        try session.send("?")
        try session.waitFor("Help — Rules")
        try session.send("Escape", "[")
        try session.waitForAbsence("Help — Rules")
        try session.send("?")
        try session.waitFor("Help — Games")
        // A sequence that stops after its parameters is the keys it was made of, too:
        // Esc closes the help, "[" goes back to Workout, "2" opens Penalties.
        try session.tmux(["send-keys", "-t", "0", "-l", "\u{1B}[2"])
        try session.waitForAbsence("Help — Games")
        try session.send("?")
        try session.waitFor("Help — Penalties")
        try session.send("Escape")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    func testLanguageKeyChangesTabNamesAndIsRemembered() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-lang-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        do {
            let session = try TmuxSession(dataDirectory: data)
            try session.waitFor("1 Rules")
            try session.send("L")
            try session.waitFor("1 Règles")
            try session.send("L")
            try session.waitFor("1 Reglas")
            try session.send("L")
            try session.waitFor("1 Regole")
            try session.send("3")
            try session.waitFor("Langue".isEmpty ? "" : "3 Quiz")
            try session.send("q")
            XCTAssertEqual(try session.waitForExit(), 0)
        }
        let saved = try String(contentsOf: data.appendingPathComponent("settings.json"), encoding: .utf8)
        XCTAssertTrue(saved.contains("\"language\" : \"it\""), saved)
        XCTAssertTrue(saved.contains("\"lastTab\" : \"quiz\""), saved)
        let again = try TmuxSession(dataDirectory: data)
        try again.waitFor("1 Regole")
        try again.send("?")
        try again.waitFor("Guida — Quiz")
        try again.send("Escape")
        try again.send("q")
        XCTAssertEqual(try again.waitForExit(), 0)
    }

    func testLangFlagStartsInFrench() throws {
        let session = try TmuxSession(arguments: ["--lang", "fr", "--tab", "grades"])
        try session.waitFor("4 Notes")
        try session.waitFor("Année")
    }

    func testLangDefaultsFromEnvironment() throws {
        let session = try TmuxSession(environment: ["LANG": "es_ES.UTF-8"])
        try session.waitFor("1 Reglas")
    }

    func testAccentsShowEvenWhenTheAskedForLocaleIsNotInstalled() throws {
        // fr_FR.UTF-8 is usually not generated on CI or on a fresh server; accents must still show.
        let session = try TmuxSession(environment: ["LANG": "fr_FR.UTF-8"])
        try session.waitFor("1 Règles")
        try session.waitFor("2 Pénalités")
        XCTAssertFalse(try session.screen().contains("not UTF-8"))
    }

    func testThemeKeyCyclesAndNoColorMeansNoColourCodes() throws {
        let colored = try TmuxSession()
        try colored.waitFor("1 Rules")
        XCTAssertTrue(try colored.screen(escapes: true).contains("\u{1B}[38;5;"), "the dark theme uses colour")
        try colored.send("T")
        try colored.waitFor("Theme: light")
        try colored.send("T")
        try colored.waitFor("Theme: no colour")

        let plain = try TmuxSession(environment: ["NO_COLOR": "1"])
        try plain.waitFor("1 Rules")
        try plain.send("T")
        try plain.waitFor("Colours are off because NO_COLOR is set.")
        let screen = try plain.screen(escapes: true)
        let colourCode = try NSRegularExpression(pattern: "\u{1B}\\[([0-9]*;)*(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]")
        XCTAssertEqual(colourCode.numberOfMatches(in: screen, range: NSRange(screen.startIndex..., in: screen)), 0,
                       "NO_COLOR: attributes only, no colour codes:\n\(screen.debugDescription)")
        XCTAssertTrue(screen.contains("\u{1B}[7m") || screen.contains(";7m"), "reverse video marks the current tab")
        _ = colourCode
    }

    /// Frames drawn in a UTF-8 locale do not leave the line-drawing character set at every
    /// change of colour (xterm's ESC ( B, tmux's SI): nothing Locker draws enters it.
    func testFramesDoNotReselectTheCharacterSetAtEveryColourChange() throws {
        for (terminal, leave) in [("xterm-256color", "\u{1B}(B"), ("tmux-256color", "\u{0F}")] {
            let session = try TmuxSession(width: 120, height: 30, environment: ["TERM": terminal])
            try session.waitFor("1 Rules")
            let output = session.dataDirectory.appendingPathComponent("pane-output")
            try session.tmux(["pipe-pane", "-t", "0", "-o", "cat > \(TmuxSession.quote(output.path))"])
            try session.send("2")
            try session.waitFor("Sanction")
            try session.tmux(["pipe-pane", "-t", "0"])
            let frame = String(decoding: try Data(contentsOf: output), as: UTF8.self)
            XCTAssertTrue(frame.contains("\u{1B}[38;5;"), "\(terminal): the Penalties frame is drawn in colour")
            XCTAssertFalse(frame.contains(leave), "\(terminal): \(frame.components(separatedBy: leave).count - 1) reselections:\n\(frame.debugDescription)")
            XCTAssertTrue(try session.screen().contains("2 Penalties"))
        }
    }

    /// Keys whose sequence the terminal description lacks (tmux sends ESC [ 1 ~ for Home and
    /// ESC [ 4 ~ for End, which xterm's entry does not list) are read as those keys, and an
    /// unknown sequence does nothing: its bytes never arrive as Esc, "[", "1" (back, switch tab).
    func testKeySequencesTheTerminfoEntryLacksAreNotReadAsEscapeAndDigits() throws {
        let session = try TmuxSession(arguments: ["--tab", "penalties"], environment: ["TERM": "xterm-256color"])
        try session.waitFor("2 Penalties")
        let firstRow = try session.screen().components(separatedBy: "\n")[2]
        try session.send("Down", "Down", "Down")
        try session.send("End")
        Thread.sleep(forTimeInterval: 0.4)
        var screen = try session.screen()
        XCTAssertTrue(screen.contains("Sanction"), "End stays in Penalties:\n\(screen)")
        XCTAssertFalse(screen.contains("Average"), "End is not Esc [ 4 ~ (the Grades tab):\n\(screen)")
        try session.send("Home")
        Thread.sleep(forTimeInterval: 0.4)
        screen = try session.screen()
        XCTAssertEqual(screen.components(separatedBy: "\n")[2], firstRow, "Home goes back to the first penalty:\n\(screen)")
        // F13 with modifiers, unknown to every entry: nothing happens.
        try session.tmux(["send-keys", "-t", "0", "-l", "\u{1B}[25;5~"])
        Thread.sleep(forTimeInterval: 0.4)
        XCTAssertEqual(try session.screen(), screen, "an unknown sequence changes nothing")
    }

    func testResizeBelowMinimumAndBack() throws {
        let session = try TmuxSession(width: 80, height: 24)
        try session.waitFor("1 Rules")
        try session.resize(width: 50, height: 15)
        let small = try session.waitFor("50×15")
        let words = small.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        XCTAssertTrue(words.contains("press q to quit"), "it says how to leave: \(small)")
        try session.send("2")   // ignored while too small
        try session.resize(width: 120, height: 40)
        try session.waitFor("1 Rules")
        try session.waitForAbsence("Please enlarge")
        try session.send("?")
        try session.waitFor("Help — Rules", timeout: 5)
        try session.send("Escape")
        try session.resize(width: 240, height: 70)
        try session.waitFor("6 Games")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    /// Issue 43, items 7 and 11: the help has one right edge (its scroll bar is the box's
    /// border, not a second line beside it), and `a` in the help opens the About page, which
    /// `locker --about` prints too.
    func testTheHelpHasOneRightEdgeAndLeadsToAbout() throws {
        let session = try TmuxSession(width: 100, height: 30)
        try session.waitFor("1 Rules")
        try session.send("?")
        let help = try session.waitFor("Help — Rules")
        let rows = help.split(separator: "\n").map(String.init).filter { $0.contains("│") || $0.contains("┃") }
        XCTAssertFalse(rows.isEmpty)
        for row in rows {
            let trimmed = row.trimmingCharacters(in: .whitespaces)
            XCTAssertFalse(trimmed.hasSuffix("│ │") || trimmed.hasSuffix("┃ │") || trimmed.hasSuffix("│┃"), "one right edge: \(row)")
        }
        try session.send("a")
        let about = try session.waitFor("About Locker")
        XCTAssertTrue(about.contains("not a World Aquatics app"), about)
        guard let binary = LockerBinary.url else { return }
        for (lang, phrase) in [("en", "not a World Aquatics app"), ("fr", "World Aquatics"), ("es", "World Aquatics"), ("it", "World Aquatics")] {
            let printed = try runProcess([binary.path, "--about", "--lang", lang], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(printed.status, 0, printed.stderr)
            XCTAssertTrue(printed.stdout.contains(phrase), printed.stdout)
            XCTAssertTrue(printed.stdout.contains("0."), "the version: \(printed.stdout)")
            XCTAssertFalse(printed.stdout.contains("{"), "every placeholder filled")
            XCTAssertLessThanOrEqual(printed.stdout.split(separator: "\n").map(\.count).max() ?? 0, 80)
        }
        let french = try runProcess([binary.path, "--about", "--lang", "fr"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]).stdout
        XCTAssertFalse(french.contains("is not a World Aquatics app"), "translated")
    }

    func testTinyTerminalAtStart() throws {
        let session = try TmuxSession(width: 30, height: 8)
        try session.waitFor("enlarge")
        try session.resize(width: 80, height: 24)
        try session.waitFor("1 Rules")
    }

    func testControlCQuitsAtOnceAndRestoresTheTerminal() throws {
        let session = try TmuxSession()
        try session.waitFor("1 Rules")
        try session.send("?")
        try session.waitFor("Help — Rules")
        try session.send("C-c")
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertTrue(try session.terminalRestored())
    }

    func testSigtermAndSighupRestoreTheTerminal() throws {
        for signal in [SIGTERM, SIGHUP] {
            let session = try TmuxSession()
            try session.waitFor("1 Rules")
            kill(try session.pid(), signal)
            XCTAssertEqual(try session.waitForExit(), 128 + Int(signal))
            XCTAssertTrue(try session.terminalRestored(), "signal \(signal)")
        }
    }

    func testCrashSignalRestoresTheTerminal() throws {
        let session = try TmuxSession()
        try session.waitFor("1 Rules")
        kill(try session.pid(), SIGSEGV)
        XCTAssertEqual(try session.waitForExit(), 128 + Int(SIGSEGV))
        XCTAssertTrue(try session.terminalRestored())
    }

    func testCorruptSettingsAreReportedInTheBanner() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("{ broken".utf8).write(to: data.appendingPathComponent("settings.json"))
        let session = try TmuxSession(arguments: ["--lang", "fr"], width: 120, dataDirectory: data)
        try session.waitFor("settings.json.corrupt-")
        try session.waitFor("Impossible de lire vos réglages")
        let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
        XCTAssertTrue(files.contains { $0.hasPrefix("settings.json.corrupt-") }, "\(files)")
    }

    /// Issue 27, items 14 and 17: with a corrupt settings.json *and* grades.json, both are
    /// reported (one after the other: Esc shows the next), in French, without library English.
    func testEveryFileSetAsideIsReportedInTheInterfaceLanguage() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-corrupt2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        try Data("{ broken".utf8).write(to: data.appendingPathComponent("settings.json"))
        try Data("{\"format\":".utf8).write(to: data.appendingPathComponent("grades.json"))
        let session = try TmuxSession(arguments: ["--lang", "fr", "--tab", "rules"], width: 120, dataDirectory: data)
        try session.waitFor("Impossible de lire vos réglages")
        try session.send("Escape")
        let grades = try session.waitFor("grades.json est inutilisable")
        XCTAssertTrue(grades.contains("ce n'est pas du JSON valide"), grades)
        XCTAssertFalse(grades.contains("The given data"), "no library English:\n\(grades)")
        let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
        XCTAssertTrue(files.contains { $0.hasPrefix("grades.json.corrupt-") }, "\(files)")
    }

    /// Issue 43, item 8: vi's moves where nothing is typed: j k, g G, Ctrl-D Ctrl-U in the
    /// Penalties list, the Rules text (where g stays "go to"), the quiz's start page and the help.
    func testViKeysMoveInListsTextsAndTheHelp() throws {
        let session = try TmuxSession(arguments: ["--tab", "penalties"], width: 100, height: 30)
        try session.waitFor("48 of 48 penalties")
        let first = try session.screen()
        try session.send("j")
        try session.waitForStableScreen()
        XCTAssertNotEqual(try session.screen(), first, "j moves down the list")
        try session.send("k")
        XCTAssertEqual(try session.waitForStableScreen(), first, "k comes back")
        try session.send("G")
        let last = try session.waitForStableScreen()
        try session.send("End")
        XCTAssertEqual(try session.waitForStableScreen(), last, "G is End")
        try session.send("g")
        XCTAssertEqual(try session.waitForStableScreen(), first, "g is Home")
        try session.send("1")
        try session.waitFor("Article 1 · lines")
        try session.send("Tab")                                            // the text
        try session.send("C-d")
        try session.waitForStableScreen()
        let moved = try session.screen()
        XCTAssertFalse(moved.contains("Article 1 · lines 1–"), "Ctrl-D goes half a page down")
        try session.send("g")
        try session.waitFor("Go to article")
        try session.send("Escape", "3", "G")
        try session.waitFor("▶ My weak questions")                       // the last kind of quiz
        try session.send("?")
        try session.waitFor("Help — Quiz")
        let top = try session.screen()
        try session.send("j")
        XCTAssertNotEqual(try session.waitForStableScreen(), top, "j scrolls the help")
        XCTAssertTrue(top.contains("k j g G"), "the help names them: \(top)")
    }

    func testUnwritableDataDirectoryRunsReadOnly() throws {
        let session = try TmuxSession(arguments: ["--data-dir", "/dev/null/locker"], width: 120)
        try session.waitFor("read-only")
        try session.send("2")
        try session.waitFor("2 Penalties")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    func testAsciiModeDrawsNoBoxCharacters() throws {
        let session = try TmuxSession(arguments: ["--ascii"])
        try session.waitFor("1 Rules")
        try session.send("?")
        let screen = try session.waitFor("Help -- Rules")
        XCTAssertTrue(screen.contains("+- Help"), screen)
        XCTAssertFalse(screen.contains("╭") || screen.contains("│"))
    }
}

/// The Penalties tab and `locker penalties`, as a judge would use them.
final class PenaltiesEndToEndTests: XCTestCase {
    func testBrowseFilterAndSearchPenalties() throws {
        let session = try TmuxSession(arguments: ["--tab", "penalties"], width: 100, height: 30)
        try session.waitFor("48 of 48 penalties")
        try session.waitFor("Failed dive: the referee declares it")
        try session.send("End")
        try session.waitFor("9.12")
        try session.send("s")
        try session.send("s")
        try session.waitFor("3 of 48 penalties")
        try session.waitFor("Sanction: − −2 points")
        try session.send("Escape")
        try session.waitFor("48 of 48 penalties")
        try session.send("/")
        try session.send("crow", literal: true)
        try session.send("Enter")
        try session.waitFor("1 of 1 match for “crow”")
        try session.waitFor("8.2.4.3")
        try session.send("L")
        try session.waitFor("48 pénalités sur 48")
        try session.waitFor("Juge-arbitre")
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }
}

final class PenaltiesCommandTests: XCTestCase {
    func testJSONHasEveryPenaltyWithTheContractFields() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let result = try runProcess([binary.path, "penalties", "--json", "--lang", "es"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 48)
        let keys = ["failed", "deduct-2", "max-2", "max-4.5", "deduct-0.5-2", "judge-opinion"]
        for row in rows {
            for field in ["id", "articles", "articles2017", "sanction", "referee", "judge", "description"] {
                XCTAssertNotNil(row[field], "\(field) in \(row)")
            }
            XCTAssertTrue(keys.contains(row["sanction"] as? String ?? ""))
            XCTAssertTrue((row["articles"] as? [String] ?? []).allSatisfy { $0.range(of: #"^\d+(\.\d+)*$"#, options: .regularExpression) != nil })
        }
        XCTAssertTrue((rows[0]["description"] as? String ?? "").contains("Juez Árbitro"), "Spanish text, with the rule book's title")
    }

    func testPlainTextAndBadLanguage() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let text = try runProcess([binary.path, "penalties"], environment: ["LANG": "it_IT.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.hasPrefix("1. "))
        XCTAssertTrue(text.stdout.contains("Giudice arbitro"), "language from LANG")
        let bad = try runProcess([binary.path, "penalties", "--lang", "de"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(bad.status, 64, "a usage error")
        XCTAssertTrue(bad.stderr.contains("en, fr, es, it"))
    }
}

/// The Rules tab, the link from Penalties, and `locker rules` / `locker rules import`.
final class RulesEndToEndTests: XCTestCase {
    func testGoToSearchAndOpenFromPenalties() throws {
        let session = try TmuxSession(arguments: ["--tab", "rules"], width: 120, height: 30)
        try session.waitFor("Digest of the World Aquatics diving rules")
        try session.send("g")
        try session.send("9.12", literal: true)
        try session.send("Enter")
        try session.waitFor("Article 9.12")
        try session.send("Home")   // searches run forward from the top line, like vim's
        try session.waitFor("Article 1 ")
        try session.send("/")
        try session.send("crow", literal: true)
        try session.send("Enter")
        try session.waitFor("Article 8.2.4.3")
        try session.send("2")
        try session.waitFor("48 of 48 penalties")
        try session.send("Down")
        try session.send("Tab")
        try session.send("Enter")
        try session.waitFor("Article 8.3.4")
        // Issue 27, item 5: Esc (which the footer shows) goes back to the penalty, once the
        // search still in force is cleared (Esc clears it first, as everywhere).
        try session.send("Escape")
        try session.waitFor("Esc back to penalties")
        let penalty = try session.screen()
        try session.send("Escape")
        let back = try session.waitFor("48 of 48 penalties")
        XCTAssertTrue(back.contains("8.3.4"), "the same penalty is still chosen:\n\(back)")
        try session.send("1")
        let rules = try session.waitFor("Article 8.3.4")
        XCTAssertFalse(rules.contains("back to penalties"), "once back, Rules no longer offers it")
        _ = penalty
        try session.send("q")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    func testImportTheOfficialTextAndReadIt() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let pdf = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/reference/diving/rulebooks/2022-2025_World-Aquatics-Diving-Rules_en_20240101.pdf")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: pdf.path), "rule book not available")
        try XCTSkipIf((try? runProcess(["which", "pdftotext"]))?.status != 0, "pdftotext not installed")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let env = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let bad = try runProcess([binary.path, "--data-dir", data.path, "rules", "import", "/etc/hostname"], environment: env)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("Nothing was changed."), bad.stderr)
        let good = try runProcess([binary.path, "--data-dir", data.path, "rules", "import", pdf.path], environment: env)
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.hasPrefix("Imported "), good.stdout)
        let again = try runProcess([binary.path, "--data-dir", data.path, "rules", "import", "/etc/hostname"], environment: env)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data.appendingPathComponent("official-rules.json").path), "a failed import keeps the earlier one")
        // Issue 43, item 10: a word hyphenated across two lines of the PDF is one word again.
        let stored = try String(contentsOf: data.appendingPathComponent("official-rules.json"), encoding: .utf8)
        XCTAssertTrue(stored.contains("before take-off, the Referee"), "take- / off joined")
        XCTAssertFalse(stored.contains("take- off, the Referee"), "no space left in the word")

        let session = try TmuxSession(arguments: ["--tab", "rules"], width: 120, height: 30, dataDirectory: data)
        try session.waitFor("Digest of the World Aquatics")
        try session.send("o")
        try session.waitFor("Official text (2022-2025_World-Aquatics")
        try session.send("g")
        try session.send("6.5.4", literal: true)
        try session.send("Enter")
        try session.waitFor("double bounces on the end of the springboard")
    }

    func testRulesCommandListsAndSearches() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let list = try runProcess([binary.path, "rules", "--lang", "it"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("8.5.4"))
        let found = try runProcess([binary.path, "rules", "--search", "Crow Hop"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(found.status, 0)
        XCTAssertTrue(found.stdout.hasPrefix("8.2.4.3"), found.stdout)
        let none = try runProcess([binary.path, "rules", "--search", "zzzz"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("No article matches"))
    }
}

/// A five-question quiz taken as a judge would, then found again after a restart.
final class QuizEndToEndTests: XCTestCase {
    /// Issue 43, item 9, at 80×24: after an answer, o opens the cited article in Rules and Esc
    /// comes back to the quiz; the two scores say which is which; quitting names what is lost.
    func testAnAnswerLeadsToItsArticleAndBack() throws {
        let session = try TmuxSession(arguments: ["--tab", "quiz"], width: 80, height: 24)
        try session.waitFor("Train on the diving rules")
        try session.send("Enter")
        try session.waitFor("Who gives it")
        try session.send("a", "r", "Enter")
        let feedback = try session.waitFor("this question")
        XCTAssertTrue(feedback.contains("total so far"), feedback)
        XCTAssertTrue(feedback.contains("Why "), feedback)
        try session.send("o")
        try session.waitFor("Esc back to the quiz")
        try session.send("Escape")
        try session.waitFor("o open article")
        try session.send("q")
        let question = try session.waitFor("Quit anyway?")
        XCTAssertTrue(question.contains("The quiz under way is lost"), question)
        XCTAssertFalse(question.contains("unsaved changes"), question)
        // Too small a terminal shows the question in place of "please enlarge", and answers it.
        try session.send("n")
        try session.resize(width: 50, height: 15)
        try session.waitFor("enlarge")
        try session.send("q")
        let small = try session.waitFor("Quit anyway?")
        XCTAssertFalse(small.contains("enlarge"), small)
        try session.send("y")
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    func testFiveQuestionQuizIsGatedScoredAndKept() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-quiz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        do {
            let session = try TmuxSession(arguments: ["--tab", "quiz"], width: 100, height: 30, dataDirectory: data)
            try session.waitFor("Train on the diving rules")
            for _ in 0..<3 { try session.send("Left") }
            try session.waitFor("◀ 5 ▶")
            try session.send("Enter")
            try session.waitFor("Question 1 / 5")
            try session.send("Enter")
            try session.waitFor("Choose a sanction (a–f) and who gives it")
            try session.send("a")
            try session.send("Enter")
            try session.waitFor("Choose who gives it")
            XCTAssertTrue(try session.screen().contains("Question 1 / 5"), "Enter is refused until the answer is complete")
            try session.send("r")
            try session.send("Enter")
            // Issue 28, item 9: right or wrong at once, with the right answer; Enter goes on.
            let feedback = try session.waitFor("Enter goes on.")
            XCTAssertTrue(feedback.contains("Right answer") && feedback.contains("Article "), feedback)
            XCTAssertTrue(feedback.contains("right") || feedback.contains("wrong"), feedback)
            try session.send("Enter")
            try session.waitFor("Question 2 / 5")
            for number in 3...5 {
                try session.send("b", "j", "Enter")
                try session.waitFor("Enter goes on.")
                try session.send("Enter")
                try session.waitFor("Question \(number) / 5")
            }
            try session.send("c", "r", "j", "Enter")
            try session.waitFor("Enter goes on.")
            try session.send("Enter")
            try session.waitFor(" / 50 · ")
            try session.waitFor("Review: Enter opens")
            try session.send("Enter")
            try session.waitFor("Right answer")
            try session.send("q")
            XCTAssertEqual(try session.waitForExit(), 0)
        }
        let again = try TmuxSession(arguments: ["--tab", "quiz"], width: 100, height: 30, dataDirectory: data)
        try again.waitFor("h shows the 1 finished quiz")
        try again.send("h")
        try again.waitFor("5 questions")
        guard let binary = LockerBinary.url else { return }
        let json = try runProcess([binary.path, "--data-dir", data.path, "quiz", "history", "--json"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 1)
        for field in ["date", "kind", "questions", "points", "maxPoints", "percent", "passed"] { XCTAssertNotNil(rows[0][field], field) }
        XCTAssertEqual(rows[0]["questions"] as? Int, 5)
        XCTAssertEqual(rows[0]["maxPoints"] as? Int, 50)
        XCTAssertEqual(rows[0]["kind"] as? String, "penalties", "JSON keeps the kind's code")
        // The text names the kind in the user's language, as the tab does.
        let french = try runProcess([binary.path, "--data-dir", data.path, "--lang", "fr", "quiz", "history"], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertTrue(french.stdout.contains("  Pénalités\u{202F}: sanction et qui la donne  5  "), french.stdout)
    }

    func testAbandonedQuizIsNotCounted() throws {
        let session = try TmuxSession(arguments: ["--tab", "quiz"], width: 100, height: 30)
        try session.waitFor("Train on the diving rules")
        try session.send("Enter")
        try session.waitFor("Question 1 / 20")
        try session.send("Escape")
        try session.waitFor("Abandon the quiz?")
        try session.send("Enter")           // "Continue" is the safe default
        try session.waitForAbsence("Abandon the quiz?")
        try session.send("Escape")
        try session.waitFor("Abandon the quiz?")
        try session.send("a")
        try session.waitFor("no finished quiz yet")
    }
}
