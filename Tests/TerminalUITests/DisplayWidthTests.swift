import XCTest
@testable import TerminalUI

final class DisplayWidthTests: XCTestCase {
    func testNarrowText() {
        XCTAssertEqual("Locker".displayWidth, 6)
        XCTAssertEqual("Pénalités".displayWidth, 9)
        XCTAssertEqual("e\u{301}".displayWidth, 1, "combining accent stays in its base's cell")
        XCTAssertEqual("½ ≤ ±".displayWidth, 5)
    }

    func testWideText() {
        XCTAssertEqual("中文".displayWidth, 4)
        XCTAssertEqual("한국어".displayWidth, 6)
        XCTAssertEqual("ｱ".displayWidth, 1, "half-width katakana is narrow")
        XCTAssertEqual("Ａ".displayWidth, 2, "full-width Latin is wide")
    }

    func testEmojiGraphemes() {
        XCTAssertEqual("😀".displayWidth, 2)
        XCTAssertEqual("👍🏽".displayWidth, 2, "skin-tone modifier joins its emoji")
        XCTAssertEqual("👨‍👩‍👧".displayWidth, 2, "ZWJ family is one glyph")
        XCTAssertEqual("🇫🇷".displayWidth, 2, "flag")
        XCTAssertEqual("❤️".displayWidth, 2, "VS16 asks for emoji presentation")
        XCTAssertEqual("❤".displayWidth, 1, "text presentation stays narrow")
    }

    func testInvisibleCharacters() {
        XCTAssertEqual("a\u{200B}b".displayWidth, 2)
        XCTAssertEqual("\u{FEFF}".displayWidth, 0)
    }

    func testTruncationKeepsWidthAndAddsEllipsis() {
        XCTAssertEqual("Penalties".truncated(toWidth: 6), "Penal…")
        XCTAssertEqual("Penalties".truncated(toWidth: 20), "Penalties")
        XCTAssertEqual("中文中文".truncated(toWidth: 5), "中文…")
        XCTAssertEqual("abc".truncated(toWidth: 0), "")
        XCTAssertEqual("abcdef".truncated(toWidth: 3, ellipsis: "..."), "...")
    }

    func testPadding() {
        XCTAssertEqual("ab".padded(toWidth: 4), "ab  ")
        XCTAssertEqual("ab".padded(toWidth: 4, alignment: .right), "  ab")
        XCTAssertEqual("ab".padded(toWidth: 5, alignment: .center), " ab  ")
        XCTAssertEqual("中".padded(toWidth: 3), "中 ")
    }
}
