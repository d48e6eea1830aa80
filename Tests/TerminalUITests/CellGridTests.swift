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
