import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

final class RulesScreenTests: XCTestCase {
    /// `g`, the article number, Enter: as a reader goes to an article.
    func goTo(_ number: String, on screen: RulesScreen) {
        _ = screen.handle(.character("g"))
        for c in number { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
    }

    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func makeScreen(_ language: Language) -> (RulesScreen, Localizer) {
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        let repository = JSONRepository<OfficialRules>(url: FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString).json"))
        let model = RulesViewModel(localizer: localizer, digestDirectory: root.appendingPathComponent("Data/diving/digest"), officialRepository: repository)
        return (RulesScreen(viewModel: model, calculator: DiveCalculatorViewModel(localizer: localizer)), localizer)
    }

    func render(_ screen: RulesScreen, _ localizer: Localizer, _ width: Int, _ height: Int) -> MemorySurface {
        let surface = MemorySurface(width: width, height: height)
        let context = RenderContext(localizer: localizer, glyphs: .unicode)
        screen.layout(surface.bounds, context: context)
        screen.render(into: surface, rect: surface.bounds, context: context)
        return surface
    }

    func testGoldenScreensInEnglishAndFrench() {
        for language in [Language.en, .fr] {
            let (screen, localizer) = makeScreen(language)
            _ = render(screen, localizer, 80, 21)
            goTo("8.5.4", on: screen)
            assertGolden(render(screen, localizer, 80, 21), "rules-\(language.rawValue)-80x24")
            assertGolden(render(screen, localizer, 120, 37), "rules-\(language.rawValue)-120x40")
        }
    }

    func testSearchAcrossTheWholeDigest() {
        let (screen, localizer) = makeScreen(.en)
        _ = render(screen, localizer, 120, 37)
        _ = screen.handle(.character("/"))
        XCTAssertTrue(screen.capturesText)
        for c in "crow hop" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        let surface = render(screen, localizer, 120, 37)
        XCTAssertEqual(screen.viewModel.selected?.number, "8.2.4.3", "contents follow the match")
        XCTAssertTrue(screen.status(localizer)?.contains("1 of 3 matches for “crow hop”") ?? false, screen.status(localizer) ?? "")
        let row = surface.lines.firstIndex { $0.contains("crow hop") }
        XCTAssertNotNil(row)
        _ = screen.handle(.character("n"))
        XCTAssertNotNil(screen.viewModel.selected)
    }

    func testCalculatorPaneShowsDDAndScore() {
        let (screen, localizer) = makeScreen(.en)
        _ = render(screen, localizer, 80, 21)
        _ = screen.handle(.character("c"))
        XCTAssertTrue(screen.capturesText, "typing goes to the calculator")
        for c in "5253b" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.tab); _ = screen.handle(.tab); _ = screen.handle(.tab)
        for c in "8 7.5 - 7.5 7" { _ = screen.handle(.character(c)) }
        let surface = render(screen, localizer, 80, 21)
        let text = surface.text
        XCTAssertTrue(text.contains("Back 2½ somersaults, 1½ twists, pike"), text)
        XCTAssertTrue(text.contains("DD 3.4 = A 2.2 + B 0.3 + C 0.7 + D 0.2 + E 0.0"), text)
        XCTAssertTrue(text.contains("(8)  7.5  7.5*  7.5  (7)"), text)
        XCTAssertTrue(text.contains("22.5 × 3.4 = 76.50"), text)
        assertGolden(surface, "rules-calculator-en-80x24")
        // Height and event are chosen with the arrows; synchro needs 9 or 11 awards.
        _ = screen.handle(.backTab)
        _ = screen.handle(.right)
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("Synchronised panels have 9 or 11 judges; 5 awards were given."))
        XCTAssertFalse(screen.handle(.escape) == false)
        XCTAssertFalse(screen.capturesText, "Esc closes the calculator")
        // Issue 27, item 4: it reopens on the dive number, so a number typed at once is one.
        _ = screen.handle(.character("c"))
        for c in "75253" { _ = screen.handle(.character(c)) }
        let reopened = render(screen, localizer, 80, 21).text
        XCTAssertFalse(reopened.contains("is not an award"), reopened)
        XCTAssertTrue(reopened.contains("▶Dive number"), reopened)
    }

    /// Issue 27, item 7: on a wide terminal the contents take the room their titles need; on a
    /// narrower one a cut title ends with an ellipsis.
    func testContentsUseTheWidthAndCutWithAnEllipsis() {
        let (screen, localizer) = makeScreen(.en)
        let wide = render(screen, localizer, 200, 40).text
        XCTAssertTrue(wide.contains("1.6.4 Positions in twisting"), wide)
        XCTAssertFalse(wide.components(separatedBy: "\n").contains { $0.prefix(60).contains("…") }, "no cut title at 200 columns")
        let narrow = render(screen, localizer, 100, 40).text
        XCTAssertTrue(narrow.contains("1.6.4 Positions in twistin…"), narrow)
    }

    /// Issue 27, item 16: the Spanish title at 80 columns ends with an ellipsis, not mid-word.
    func testALongTitleEndsWithAnEllipsis() {
        let (screen, localizer) = makeScreen(.es)
        let header = render(screen, localizer, 80, 21).lines[0]
        XCTAssertTrue(header.hasSuffix("…"), header)
        XCTAssertTrue(header.hasPrefix(" Resumen del reglamento"), header)
    }

    func testGoToUnknownArticleSaysSo() {
        let (screen, localizer) = makeScreen(.en)
        _ = render(screen, localizer, 80, 21)
        goTo("42.1", on: screen)
        XCTAssertEqual(screen.status(localizer), "There is no article 42.1 in the digest.")
        _ = screen.handle(.character("o"))
        XCTAssertEqual(screen.status(localizer), "No official text imported yet. Run: locker rules import FILE.pdf")
        // A number ending with a full stop, as written in a sentence, is the article.
        goTo("8.5.4.", on: screen)
        XCTAssertEqual(screen.viewModel.selected?.number, "8.5.4")
        // Letters are not typed into the number: Enter on nothing says what g wants.
        goTo("ab", on: screen)
        XCTAssertEqual(screen.status(localizer), "Type an article's number after g, e.g. 8.5.4.")
    }

    /// `n` with no search kept (none typed, or one that found nothing) says so, as vim does.
    func testNextMatchWithoutASearchSaysSo() {
        let (screen, localizer) = makeScreen(.en)
        _ = render(screen, localizer, 80, 21)
        _ = screen.handle(.character("n"))
        XCTAssertEqual(screen.status(localizer), "No search to repeat: / starts one.")
        _ = screen.handle(.character("/"))
        for c in "zzqx" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.status(localizer), "No match for “zzqx”")
        _ = screen.handle(.character("N"))
        XCTAssertEqual(screen.status(localizer), "No search to repeat: / starts one.")
    }

    func testCorruptOfficialTextIsReported() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rules-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{ broken".utf8).write(to: dir.appendingPathComponent("official-rules.json"))
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: .en)
        let model = RulesViewModel(localizer: localizer, digestDirectory: root.appendingPathComponent("Data/diving/digest"),
                                   officialRepository: JSONRepository<OfficialRules>(url: dir.appendingPathComponent("official-rules.json")))
        let status = RulesScreen(viewModel: model, calculator: DiveCalculatorViewModel(localizer: localizer)).status(localizer) ?? ""
        XCTAssertTrue(status.contains("official-rules.json.corrupt-"), status)
    }

    /// Issue 28, item 7: the calculator writes numbers as the language does, and reads awards
    /// typed with a decimal comma.
    func testCalculatorNumbersFollowTheLanguage() {
        let (screen, localizer) = makeScreen(.fr)
        _ = render(screen, localizer, 80, 21)
        _ = screen.handle(.character("c"))
        for c in "5253b" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.tab); _ = screen.handle(.tab); _ = screen.handle(.tab)
        for c in "8 7,5 - 7,5 7" { _ = screen.handle(.character(c)) }
        let text = render(screen, localizer, 80, 21).text
        XCTAssertTrue(text.contains("3,4 = A 2,2 + B 0,3 + C 0,7 + D 0,2 + E 0,0"), text)
        XCTAssertTrue(text.contains("(8)  7,5  7,5*  7,5  (7)"), text)
        XCTAssertTrue(text.contains("22,5 × 3,4 = 76,50"), text)
    }

    /// The reading line stays on what is being read when the width or the language changes,
    /// and a line the go-to left on the top row moves down without scrolling the text back.
    func testTheReadingLineKeepsItsPlaceAcrossAResizeAndAJump() {
        let (screen, localizer) = makeScreen(.en)
        _ = render(screen, localizer, 80, 24)
        goTo("8.5.4", on: screen)
        var surface = render(screen, localizer, 80, 24)
        XCTAssertTrue(surface.lines[1].hasPrefix("▶8.5.4"), surface.lines[1])
        _ = screen.handle(.down)
        surface = render(screen, localizer, 80, 24)
        XCTAssertTrue(surface.lines[1].hasPrefix(" 8.5.4"), "the text did not move: \(surface.lines[1])")
        XCTAssertTrue(surface.lines[2].hasPrefix("▶"), surface.lines[2])
        for _ in 0..<3 { _ = screen.handle(.down) }
        surface = render(screen, localizer, 80, 24)
        let read = surface.lines.first { $0.hasPrefix("▶") }.map { String($0.dropFirst().prefix(20)) } ?? ""
        XCTAssertFalse(read.isEmpty)
        surface = render(screen, localizer, 120, 40)
        let after = surface.lines.first { $0.contains("▶") } ?? ""
        XCTAssertFalse(after.contains("8.5.4 "), "not sent back to the heading: \(after)")
        XCTAssertTrue(screen.status(localizer)?.hasPrefix("Article 8.5.4") ?? false, screen.status(localizer) ?? "")
    }

    func testNarrowContentsOpenWithT() {
        let (screen, localizer) = makeScreen(.en)
        _ = render(screen, localizer, 80, 21)
        _ = screen.handle(.character("t"))
        var surface = render(screen, localizer, 80, 21)
        XCTAssertTrue(surface.lines[1].contains("1 General"), surface.lines[1])
        _ = screen.handle(.down)
        _ = screen.handle(.enter)
        surface = render(screen, localizer, 80, 21)
        XCTAssertEqual(screen.viewModel.selected?.number, "1.5")
        XCTAssertTrue(surface.lines[1].hasPrefix("▶1.5 Dive numbers"), "the reading line is on the opened article: \(surface.lines[1])")
    }
}
