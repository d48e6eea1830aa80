import XCTest
@testable import TerminalUI

/// Issue 27, items 12 and 13: one table turns every character into ASCII without changing what
/// the text says, and measuring agrees with drawing.
final class ASCIITextTests: XCTestCase {
    override func tearDown() {
        ASCIIText.isOn = false
        super.tearDown()
    }

    func testSignsFractionsLettersAndArrowsKeepTheirMeaning() {
        XCTAssertEqual(ASCIIText.transliterate("−2 points"), "-2 points")
        XCTAssertEqual(ASCIIText.transliterate("max 4½"), "max 4 1/2")
        XCTAssertEqual(ASCIIText.transliterate("−½ à 2"), "-1/2 a 2")
        XCTAssertEqual(ASCIIText.transliterate("Génie ÉTÉ œuvre straße"), "Genie ETE oeuvre strasse")
        XCTAssertEqual(ASCIIText.transliterate("↑↓ move  ← → tabs  ✓ done  ✗ no"), "Up/Down move  <- -> tabs  v done  x no")
        XCTAssertEqual(ASCIIText.transliterate("5 – 7 — «oui» · 3 × 2 … 10 °C"), "5 - 7 -- \"oui\" . 3 x 2 ... 10 degC")
        XCTAssertEqual(ASCIIText.transliterate("Note\u{202F}: 12\u{00A0}km"), "Note : 12 km")
        XCTAssertEqual(ASCIIText.transliterate("e\u{301}te\u{301}"), "ete", "a letter with a combining accent keeps its letter")
        XCTAssertEqual(ASCIIText.transliterate("日本"), "??", "an unknown character shows as ?, never as nothing")
        XCTAssertEqual(ASCIIText.transliterate("plain ASCII"), "plain ASCII")
    }

    func testWhileOnMeasuringAndDrawingAgree() {
        ASCIIText.isOn = true
        let text = "↑↓ move  −½ à 2  日本"
        XCTAssertEqual(text.displayWidth, ASCIIText.transliterate(text).count)
        var grid = CellGrid(width: 40, height: 1)
        let end = grid.write(text, x: 0, y: 0, style: .plain)
        XCTAssertEqual(end, text.displayWidth)
        XCTAssertEqual(grid.line(0), "Up/Down move  -1/2 a 2  ??")
        grid.set(Cell("é"), x: 0, y: 0)
        XCTAssertEqual(grid.line(0).first, "e")
    }
}
