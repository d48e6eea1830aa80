import XCTest
@testable import TerminalUI

final class KeyDecoderTests: XCTestCase {
    func testPrintableCharactersIncludingUnicode() {
        XCTAssertEqual(KeyDecoder.decode(character: 0x61), .character("a"))
        XCTAssertEqual(KeyDecoder.decode(character: 0x20), .character(" "))
        XCTAssertEqual(KeyDecoder.decode(character: 0xE9), .character("é"))
        XCTAssertEqual(KeyDecoder.decode(character: 0x4E2D), .character("中"))
        XCTAssertEqual(KeyDecoder.decode(character: 0x1F600), .character("😀"))
    }

    func testControlCharacters() {
        XCTAssertEqual(KeyDecoder.decode(character: 9), .tab)
        XCTAssertEqual(KeyDecoder.decode(character: 10), .enter)
        XCTAssertEqual(KeyDecoder.decode(character: 13), .enter)
        XCTAssertEqual(KeyDecoder.decode(character: 27), .escape)
        XCTAssertEqual(KeyDecoder.decode(character: 127), .backspace)
        XCTAssertEqual(KeyDecoder.decode(character: 8), .backspace)
        XCTAssertEqual(KeyDecoder.decode(character: 3), .control("c"))
        XCTAssertEqual(KeyDecoder.decode(character: 12), .control("l"))
        XCTAssertEqual(KeyDecoder.decode(character: 1), .control("a"))
        XCTAssertEqual(KeyDecoder.decode(character: 26), .control("z"))
        XCTAssertEqual(KeyDecoder.decode(character: 0x9B), .unknown(0x9B), "C1 controls never become text")
        XCTAssertEqual(KeyDecoder.decode(character: 0xD800), .unknown(0xD800), "lone surrogates are rejected")
    }

    func testStandardKeyCodes() {
        typealias C = KeyDecoder.Code
        let expected: [(Int, Key)] = [
            (C.up, .up), (C.down, .down), (C.left, .left), (C.right, .right),
            (C.pageUp, .pageUp), (C.pageDown, .pageDown), (C.home, .home), (C.end, .end),
            (C.backTab, .backTab), (C.enter, .enter), (C.backspace, .backspace),
            (C.deleteChar, .delete), (C.insertChar, .insert),
            (C.scrollForward, .shiftDown), (C.scrollReverse, .shiftUp),
            (C.shiftLeft, .shiftLeft), (C.shiftRight, .shiftRight), (C.resize, .resize),
        ]
        for (code, key) in expected {
            XCTAssertEqual(KeyDecoder.decode(keyCode: code), key, "code \(code)")
        }
    }

    func testFunctionKeys() {
        for n in 1...12 {
            XCTAssertEqual(KeyDecoder.decode(keyCode: KeyDecoder.Code.f0 + n), .function(n))
        }
    }

    func testExtendedCodesFromTerminfo() {
        let extended = KeyDecoder.Extended(shiftUp: 575, shiftDown: 532)
        XCTAssertEqual(KeyDecoder.decode(keyCode: 575, extended: extended), .shiftUp)
        XCTAssertEqual(KeyDecoder.decode(keyCode: 532, extended: extended), .shiftDown)
        XCTAssertEqual(KeyDecoder.decode(keyCode: 999), .unknown(999))
    }

    func testCodesMatchNcursesHeaders() {
        // The decoder's table is the curses ABI; compare with what ncurses.h defines.
        XCTAssertEqual(KeyDecoder.Code.up, 259)
        XCTAssertEqual(KeyDecoder.Code.resize, 410)
        XCTAssertEqual(KeyDecoder.Code.backTab, 353)
        XCTAssertEqual(KeyDecoder.Code.f0, 264)
    }
}
