import XCTest
@testable import TerminalUI

final class CellGridTests: XCTestCase {
    func testWriteAndReadBack() {
        var grid = CellGrid(width: 10, height: 2)
        let end = grid.write("hello", x: 2, y: 1, style: .plain)
        XCTAssertEqual(end, 7)
        XCTAssertEqual(grid.lines, ["", "  hello"])
    }

    func testClipsAtLimitAndEdge() {
        var grid = CellGrid(width: 6, height: 1)
        grid.write("abcdefgh", x: 0, y: 0, style: .plain, limit: 4)
        XCTAssertEqual(grid.line(0), "abcd")
        grid.write("xyz", x: 4, y: 0, style: .plain)
        XCTAssertEqual(grid.line(0), "abcdxy")
        grid.write("zz", x: 0, y: 5, style: .plain)  // off the grid: ignored
    }

    func testWideGraphemesTakeTwoCells() {
        var grid = CellGrid(width: 6, height: 1)
        let end = grid.write("中a😀", x: 0, y: 0, style: .plain)
        XCTAssertEqual(end, 5)
        XCTAssertTrue(grid[1, 0].isContinuation)
        XCTAssertTrue(grid[4, 0].isContinuation)
        XCTAssertEqual(grid.line(0), "中a😀")
    }

    func testWideGraphemeThatDoesNotFitLeavesBlank() {
        var grid = CellGrid(width: 3, height: 1)
        grid.write("ab中", x: 0, y: 0, style: .plain)
        XCTAssertEqual(grid.line(0), "ab")
        XCTAssertFalse(grid[2, 0].isContinuation)
    }

    func testOverwritingHalfOfWideGraphemeBlanksTheOtherHalf() {
        var grid = CellGrid(width: 4, height: 1)
        grid.write("中文", x: 0, y: 0, style: .plain)
        grid.write("x", x: 1, y: 0, style: .plain)
        XCTAssertEqual(grid.line(0), " x文")
        grid.write("y", x: 2, y: 0, style: .plain)
        XCTAssertEqual(grid.line(0), " xy")
    }

    /// A string written at once gives the same cells as its characters written one by one,
    /// over any earlier content (the run writers repair the wide graphemes they cut only at
    /// their ends), and no write leaves half a wide grapheme.
    func testWritingAStringAtOnceEqualsWritingItsCharactersOneByOne() {
        let pieces = ["a", "b", " ", "é", "ß", "·", "—", "中", "文", "😀", "\u{7}", "\u{9B}", "\u{301}", "x"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        func text() -> String { (0..<next(9)).map { _ in pieces[next(pieces.count)] }.joined() }
        for trial in 0..<4000 {
            var whole = CellGrid(width: 12, height: 1)
            for _ in 0..<3 { whole.write(text().replacingOccurrences(of: "\u{301}", with: ""), x: next(12), y: 0, style: .plain) }
            if next(3) == 0 { whole.fill(y: 0, x: next(12), end: next(13), character: "-", style: .plain) }
            var byCharacter = whole
            let written = text().replacingOccurrences(of: "\u{301}", with: next(2) == 0 ? "" : "\u{301}")
            let x = next(16) - 3, limit = next(2) == 0 ? nil : next(13)
            let style = Style(.accent)
            let end = whole.write(written, x: x, y: 0, style: style, limit: limit)
            var column = x
            for character in written {
                column = byCharacter.write(String(character), x: column, y: 0, style: style, limit: limit)
            }
            XCTAssertEqual(whole, byCharacter, "trial \(trial): \(written.unicodeScalars.map { String($0.value, radix: 16) }) at \(x) limit \(String(describing: limit)): \(whole.line(0)) vs \(byCharacter.line(0))")
            if whole != byCharacter { return }
            // Every right half follows its left half, and every left half has its right half.
            let cells = (0..<12).map { whole[$0, 0] }
            for (column, cell) in cells.enumerated() {
                if cell.isContinuation {
                    XCTAssertTrue(column > 0 && DisplayWidth.of(cells[column - 1].text) == 2, "trial \(trial): a lone right half at \(column): \(cells.map(\.text))")
                } else if DisplayWidth.of(cell.text) == 2 {
                    XCTAssertTrue(column + 1 < 12 && cells[column + 1].isContinuation, "trial \(trial): a left half alone at \(column): \(cells.map(\.text))")
                }
            }
            if !DisplayWidth.needsGraphemeBreaking(written) {
                XCTAssertEqual(end, column, "trial \(trial): the next column")
            }
        }
    }

    func testControlCharactersAreRenderedInert() {
        var grid = CellGrid(width: 20, height: 1)
        grid.write("a\u{1B}[31mb\u{7}\tc", x: 0, y: 0, style: .plain)
        let line = grid.line(0)
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 }, "no control character reaches the terminal")
        XCTAssertEqual(line, "a\u{FFFD}[31mb\u{FFFD}\u{FFFD}c")
    }

    func testZeroWidthCharactersAreSkipped() {
        var grid = CellGrid(width: 5, height: 1)
        grid.write("a\u{200B}b", x: 0, y: 0, style: .plain)
        XCTAssertEqual(grid.line(0), "ab")
    }

    /// Bidirectional overrides and isolates never reach the terminal, so a name cannot reorder
    /// or hide what follows it on a terminal that implements bidi (VTE does); nor do C1 controls.
    func testBidiControlsAndC1ControlsNeverReachTheTerminal() {
        var grid = CellGrid(width: 30, height: 1)
        grid.write("é\u{202E}abc\u{2066}d\u{2069}\u{200F}e\u{9B}31m", x: 0, y: 0, style: .plain)
        let line = grid.line(0)
        XCTAssertFalse(line.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            || $0.value == 0x200F || (0x80...0x9F).contains($0.value) }, line)
        XCTAssertTrue(line.hasPrefix("éabcde\u{FFFD}31m"), line)
    }

    func testSurfaceWriteClipsOnTheLeft() {
        let surface = MemorySurface(width: 10, height: 1)
        surface.write("abcdef", x: 0, y: 0, clip: Rect(x: 2, y: 0, width: 3, height: 1))
        XCTAssertEqual(surface.lines, ["  cde"])
    }

    func testBoxDrawingInUnicodeAndAscii() {
        let unicode = MemorySurface(width: 12, height: 3)
        unicode.drawBox(unicode.bounds, title: "Hi")
        XCTAssertEqual(unicode.lines, ["╭─ Hi ─────╮", "│          │", "╰──────────╯"])
        let ascii = MemorySurface(width: 12, height: 3, glyphs: .ascii)
        ascii.drawBox(ascii.bounds, title: "Hi")
        XCTAssertEqual(ascii.lines, ["+- Hi -----+", "|          |", "+----------+"])
    }
}
