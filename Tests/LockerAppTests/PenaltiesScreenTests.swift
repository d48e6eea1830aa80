import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

final class PenaltiesScreenTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func makeScreen(_ language: Language) throws -> (PenaltiesScreen, Localizer) {
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        let book = try PenaltyBook.load(from: root.appendingPathComponent("Data/diving/penalties.json"))
        return (PenaltiesScreen(viewModel: PenaltiesViewModel(localizer: localizer, book: book)), localizer)
    }

    func render(_ screen: PenaltiesScreen, _ localizer: Localizer, _ width: Int, _ height: Int, glyphs: Glyphs = .unicode) -> MemorySurface {
        // An ASCII-only terminal: text is measured and drawn through ASCIIText, as the app does.
        ASCIIText.isOn = glyphs.ascii
        defer { ASCIIText.isOn = false }
        let surface = MemorySurface(width: width, height: height, glyphs: glyphs)
        let context = RenderContext(localizer: localizer, glyphs: glyphs)
        screen.layout(surface.bounds, context: context)
        screen.render(into: surface, rect: surface.bounds, context: context)
        return surface
    }

    func testGoldenScreensInEnglishAndFrench() throws {
        for language in [Language.en, .fr] {
            let (screen, localizer) = try makeScreen(language)
            _ = screen.handle(.down)
            _ = screen.handle(.down)
            // The content area of an 80×24 and a 120×40 terminal (tab bar, status and footer excluded).
            assertGolden(render(screen, localizer, 80, 21), "penalties-\(language.rawValue)-80x24")
            assertGolden(render(screen, localizer, 120, 37), "penalties-\(language.rawValue)-120x40")
        }
    }

    /// While keys pause, the panes next to the selected penalty are composed: the next move
    /// draws what was composed then, the same as composing it on the key would.
    func testNeighboursPanesAreComposedWhileKeysPauseAndDrawTheSame() throws {
        let (screen, localizer) = try makeScreen(.en)
        XCTAssertNil(screen.idleWork, "nothing is composed before the pane is first drawn")
        _ = render(screen, localizer, 80, 21)
        var rounds = 0
        while let work = screen.idleWork {
            XCTAssertEqual(work.kind, .warmUp)
            work.run()
            rounds += 1
        }
        XCTAssertEqual(rounds, 1, "the first penalty has one neighbour, below it")
        _ = screen.handle(.down)
        let composedAhead = render(screen, localizer, 80, 21).text
        XCTAssertNotNil(screen.idleWork, "the penalty below the second one is not composed yet")

        let (fresh, freshLocalizer) = try makeScreen(.en)
        _ = fresh.handle(.down)
        XCTAssertEqual(render(fresh, freshLocalizer, 80, 21).text, composedAhead)
    }

    /// Issue 27, item 6: in plain text (no colour, ASCII) the sanction that applies is marked,
    /// and the list's R/J column is explained on screen.
    func testTheSanctionThatAppliesReadsWithoutColour() throws {
        let (screen, localizer) = try makeScreen(.en)
        let text = render(screen, localizer, 80, 24, glyphs: .ascii).text
        XCTAssertTrue(text.contains("[0 failed dive]") || text.range(of: #"\[\S+ [^\]]+\]"#, options: .regularExpression) != nil, text)
        XCTAssertEqual(text.components(separatedBy: "[").count - 1, 1, "exactly one sanction is bracketed:\n\(text)")
        XCTAssertTrue(text.contains("in the list: R referee, J judges"), text)
    }

    func testFilterKeysAndAsciiGlyphs() throws {
        let (screen, localizer) = try makeScreen(.en)
        _ = screen.handle(.character("s"))
        _ = screen.handle(.character("s"))
        let surface = render(screen, localizer, 80, 21, glyphs: .ascii)
        XCTAssertTrue(surface.lines[0].contains("Sanction: - -2 points"), surface.lines[0])
        XCTAssertEqual(surface.lines[1...3].filter { $0.hasPrefix(" - R.") }.count, 3, surface.text)
        XCTAssertEqual(screen.status(localizer), "3 of 48 penalties")
        XCTAssertTrue(screen.handle(.escape))
        XCTAssertEqual(screen.status(localizer), "48 of 48 penalties")
        XCTAssertFalse(screen.handle(.escape), "nothing left to clear: Esc goes to the shell")
    }

    func testSearchTypesJumpsAndSteps() throws {
        let (screen, localizer) = try makeScreen(.en)
        XCTAssertTrue(screen.handle(.character("/")))
        XCTAssertTrue(screen.capturesText)
        for c in "synchro" { _ = screen.handle(.character(c)) }
        XCTAssertEqual(screen.viewModel.selected?.articles.first, "9.2", "jumps to the first match as you type")
        _ = screen.handle(.enter)
        XCTAssertFalse(screen.capturesText)
        XCTAssertTrue(screen.status(localizer)?.range(of: #"1 of \d+ matches for “synchro”"#, options: .regularExpression) != nil,
                      screen.status(localizer) ?? "")
        _ = screen.handle(.character("n"))
        XCTAssertTrue(screen.status(localizer)?.contains("2 of ") ?? false, "the status says which match is current")
        XCTAssertEqual(screen.viewModel.selected?.articles, ["9.8"])
        _ = screen.handle(.character("N"))
        _ = screen.handle(.character("N"))
        XCTAssertEqual(screen.viewModel.selected?.articles, ["9.12"], "wraps to the last match")
        let surface = render(screen, localizer, 120, 37)
        XCTAssertTrue(surface.text.contains("›"), "matches are marked in the list")
    }

    /// Walkthrough of issue 27: while a second search is typed, the status spoke of the first
    /// one ("No match for “tete”" over "tetetete"); it speaks of what is typed.
    func testTheStatusNamesTheSearchBeingTyped() throws {
        let (screen, localizer) = try makeScreen(.en)
        _ = screen.handle(.character("/"))
        for c in "judge" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        _ = screen.handle(.character("/"))
        for _ in 0..<5 { _ = screen.handle(.backspace) }
        for c in "bounce" { _ = screen.handle(.character(c)) }
        let status = screen.status(localizer) ?? ""
        XCTAssertTrue(status.range(of: #"\d+ of \d+ match(es)? for “bounce”"#, options: .regularExpression) != nil, status)
        for c in "zzq" { _ = screen.handle(.character(c)) }
        XCTAssertTrue(screen.status(localizer)?.hasSuffix("No match for “bouncezzq”") == true, screen.status(localizer) ?? "")
    }

    func testAccentInsensitiveSearchInFrench() throws {
        let (screen, _) = try makeScreen(.fr)
        _ = screen.handle(.character("/"))
        for c in "elan" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertNotNil(screen.viewModel.selected)
        XCTAssertTrue(TextMatcher.matches(screen.viewModel.description(of: screen.viewModel.selected!), query: "elan"), "élans matches elan")
    }
}
