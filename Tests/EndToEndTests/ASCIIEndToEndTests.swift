import XCTest

/// Issue 27, items 12 and 13: a terminal that shows ASCII only (a locale that is not UTF-8, or
/// `--ascii`) gets every character through one table, so nothing changes meaning or vanishes.
final class ASCIIEndToEndTests: XCTestCase {
    /// Under LANG=C the French penalties keep their signs, halves and arrows, and a language
    /// switch leaves no letter of the old language behind.
    func testANonUTF8LocaleKeepsTheMeaningOfEveryCharacter() throws {
        let tmux = try TmuxSession(arguments: ["--tab", "penalties", "--lang", "fr"], width: 80, height: 24,
                                   environment: ["LANG": "C"])
        let screen = try tmux.waitFor("Penalites")
        XCTAssertTrue(screen.contains("- -2 points"), "the minus sign stays:\n\(screen)")
        XCTAssertTrue(screen.contains("max 4 1/2"), "the half stays:\n\(screen)")
        XCTAssertTrue(screen.contains("-1/2 a 2"), "the minus and the half stay:\n\(screen)")
        XCTAssertTrue(screen.contains("Regles") && screen.contains("Entrainement"), "accents give their letters:\n\(screen)")
        XCTAssertTrue(screen.unicodeScalars.allSatisfy(\.isASCII), screen)
        try tmux.send("4")
        let grades = try tmux.waitFor("Left/Right note")                     // the arrows read as words
        XCTAssertTrue(grades.unicodeScalars.allSatisfy(\.isASCII), grades)
        try tmux.send("2")
        try tmux.waitFor("Penalites")
        try tmux.send("L")
        let spanish = try tmux.waitFor("Penalizaciones")
        for stale in ["Notrades", "Penalites", "bouger"] {
            XCTAssertFalse(spanish.contains(stale), "\(stale) left from French:\n\(spanish)")
        }
        XCTAssertTrue(spanish.unicodeScalars.allSatisfy(\.isASCII), spanish)
    }

    /// `--ascii` in a UTF-8 terminal prints nothing but ASCII on any tab.
    func testTheASCIIOptionPrintsASCIIOnlyOnEveryTab() throws {
        let tmux = try TmuxSession(arguments: ["--ascii", "--tab", "rules"], width: 80, height: 24)
        try tmux.waitFor("Rules")
        for tab in ["1", "2", "3", "4", "5", "6"] {
            try tmux.send(tab)
            let screen = try tmux.waitForStableScreen()
            let other = screen.unicodeScalars.filter { !$0.isASCII }.map { String($0) }
            XCTAssertEqual(other, [], "tab \(tab):\n\(screen)")
        }
    }
}
