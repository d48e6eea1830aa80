import XCTest

/// Issue 27, item 1: the Rules status line describes the text that is on the screen.
/// The last line of the screen above the footer: the status line.
private func status(_ screen: String) -> String {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let filled = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    return filled.count >= 2 ? filled[filled.count - 2] : ""
}

final class RulesStatusEndToEndTests: XCTestCase {

    func testTheStatusLineFollowsWhatIsShown() throws {
        let tmux = try TmuxSession(arguments: ["--tab", "penalties"], width: 100, height: 20)
        try tmux.waitFor("48 of 48 penalties")
        // Coming from another tab: the text is laid out before the status describes it.
        try tmux.send("1")
        var screen = try tmux.waitFor("Digest of the World Aquatics")
        XCTAssertTrue(status(screen).contains("Article 1 · lines 1–"), status(screen))
        XCTAssertFalse(status(screen).contains("of 0"), status(screen))
        // A jump: the status gives the range the jump shows, not the one before it.
        try tmux.send("g")
        try tmux.send("8.5.4", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor("Article 8.5.4 ·")
        let jumped = status(screen)
        try tmux.send("C-l")
        XCTAssertEqual(status(try tmux.waitForStableScreen()), jumped, "a redraw shows the same range: the jump's")
        let shownFirst = screen.split(separator: "\n").first { $0.contains("8.5.4 ") && !$0.contains("·") }
        XCTAssertNotNil(shownFirst, "8.5.4 is on the screen:\n\(screen)")
        // After a search hit elsewhere, scrolling reports the article on screen, not the hit's.
        try tmux.send("/")
        try tmux.send("judge", literal: true)
        try tmux.send("Enter", "N", "N")
        try tmux.send("g")
        try tmux.send("8.5.4", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Article 8.5.4 ·")
        try tmux.send("Down")
        screen = try tmux.waitForStableScreen()
        XCTAssertTrue(status(screen).hasPrefix(" Article 8.5.4 ·") || status(screen).hasPrefix(" Article 8.5 "), status(screen))
        // A taller window: the range grows with it.
        try tmux.send("g")
        try tmux.send("1", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor("Article 1 ·")
        XCTAssertNotEqual(status(screen), jumped)
        let short = status(screen)
        try tmux.resize(width: 100, height: 40)
        screen = try tmux.waitForStableScreen()
        let tall = status(screen)
        XCTAssertNotEqual(tall, short, "the range follows the new height")
        let numbers = { (line: String) -> [Int] in
            line.components(separatedBy: CharacterSet.decimalDigits.inverted).compactMap(Int.init)
        }
        XCTAssertGreaterThan(numbers(tall).dropLast().last ?? 0, numbers(short).dropLast().last ?? 0, "\(short) → \(tall)")
    }
}

/// Issue 43, item 10: a search forgives word forms in the interface language, and one that found
/// nothing does not stay in the status line after a jump.
final class RulesSearchEndToEndTests: XCTestCase {
    func testWordFormsAreFoundAndAMissDoesNotStay() throws {
        let tmux = try TmuxSession(arguments: ["--tab", "rules"], width: 100, height: 30)
        try tmux.waitFor("Digest of the World Aquatics")
        try tmux.send("/")
        try tmux.send("bounces", literal: true)
        try tmux.send("Enter")
        var screen = try tmux.waitFor("matches for “bounces”")
        XCTAssertTrue(screen.contains("bounce"), screen)
        try tmux.send("Escape", "/")
        try tmux.send("zzqx", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("No match for “zzqx”")
        try tmux.send("g")
        try tmux.send("8.5.4", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor("Article 8.5.4 ·")
        XCTAssertFalse(status(screen).contains("No match"), "the miss is not kept: \(status(screen))")
        try tmux.send("L")                                              // français
        try tmux.waitFor("chercher")
        try tmux.send("/")
        try tmux.send("rebondit", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor("résultats pour")
        XCTAssertFalse(status(screen).contains("Aucun"), status(screen))
    }
}

/// Issue 27, item 2: a status message goes away by itself, as KEYS.md promises (12 s for a
/// problem), without a key.
final class MessageExpiryEndToEndTests: XCTestCase {
    func testAProblemLeavesTheStatusLineAfterTwelveSeconds() throws {
        let tmux = try TmuxSession(arguments: ["--tab", "rules"], width: 100, height: 24)
        try tmux.waitFor("Digest of the World Aquatics")
        try tmux.send("g")
        try tmux.send("99", literal: true)
        try tmux.send("Enter")
        let shown = Date()
        try tmux.waitFor("There is no article 99 in the digest.")
        Thread.sleep(forTimeInterval: 10)
        XCTAssertTrue(try tmux.screen().contains("There is no article 99"), "still there before 12 s")
        try tmux.waitForAbsence("There is no article 99", timeout: 6)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(shown), 11.5)
        XCTAssertTrue(try tmux.screen().contains("Article 1 ·"), "the status line describes the text again")
    }
}
