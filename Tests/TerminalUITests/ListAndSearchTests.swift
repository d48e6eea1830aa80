import XCTest
@testable import TerminalUI

final class ListAndSearchTests: XCTestCase {
    let items = (1...30).map { "Item \($0)" }

    func testListNavigationClampsAndPages() {
        var state = ListState(count: 30)
        XCTAssertTrue(state.handle(.down, pageSize: 10))
        XCTAssertEqual(state.selected, 1)
        _ = state.handle(.up, pageSize: 10)
        _ = state.handle(.up, pageSize: 10)
        XCTAssertEqual(state.selected, 0, "stays at the top")
        _ = state.handle(.pageDown, pageSize: 10)
        XCTAssertEqual(state.selected, 9)
        _ = state.handle(.end, pageSize: 10)
        XCTAssertEqual(state.selected, 29)
        _ = state.handle(.home, pageSize: 10)
        XCTAssertEqual(state.selected, 0)
        XCTAssertFalse(state.handle(.character("x"), pageSize: 10))
        state.setCount(5)
        state.select(99)
        XCTAssertEqual(state.selected, 4)
        var empty = ListState(count: 0)
        XCTAssertFalse(empty.handle(.down, pageSize: 5))
    }

    func testListViewScrollsToSelectionAndShowsScrollBar() {
        let surface = MemorySurface(width: 20, height: 5)
        let state = ListState(count: items.count, selected: 12)
        ListView().render(state, into: surface, rect: surface.bounds) { index, _ in [Span(self.items[index])] }
        XCTAssertEqual(state.offset, 0, "drawing does not change the state")
        XCTAssertEqual(state.visibleOffset(height: 5), 8)
        XCTAssertEqual(surface.lines.map { String($0.prefix(7)).trimmingCharacters(in: .whitespaces) }, ["Item 9", "Item 10", "Item 11", "Item 12", "Item 13"])
        XCTAssertEqual(surface.style(x: 0, y: 4).role, .selection, "selected row is lit")
        XCTAssertEqual(surface.cursor?.position, Point(x: 0, y: 4), "cursor parked on the selection")
        XCTAssertTrue(surface.lines.allSatisfy { $0.hasSuffix("│") || $0.hasSuffix("┃") }, "scroll bar in last column")
    }

    func testShortListHasNoScrollBar() {
        let surface = MemorySurface(width: 20, height: 5)
        let state = ListState(count: 2)
        ListView().render(state, into: surface, rect: surface.bounds) { index, _ in [Span(self.items[index])] }
        XCTAssertEqual(surface.lines, ["Item 1", "Item 2", "", "", ""])
    }

    func testSearchTypingSubmitAndStepping() {
        var search = SearchState()
        search.begin()
        XCTAssertTrue(search.isTyping)
        for c in "item 1" { XCTAssertEqual(search.handleTyping(.character(c)), .changed) }
        search.update(items: items, from: 0)
        XCTAssertEqual(search.hits, [0, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
        XCTAssertEqual(search.handleTyping(.enter), .submitted)
        XCTAssertFalse(search.isTyping)
        XCTAssertEqual(search.query, "item 1")
        XCTAssertEqual(search.currentHit, 0)
        XCTAssertEqual(search.step(forward: true), 9)
        XCTAssertEqual(search.step(forward: false), 0)
        XCTAssertEqual(search.step(forward: false), 18, "wraps backwards")
        XCTAssertEqual(search.step(forward: true), 0, "wraps forwards")
    }

    func testSearchStartsFromPositionAndCancels() {
        var search = SearchState()
        search.begin()
        for c in "2" { _ = search.handleTyping(.character(c)) }
        search.update(items: items, from: 15)
        XCTAssertEqual(search.currentHit, 19, "first hit at or after the position")
        XCTAssertEqual(search.handleTyping(.escape), .cancelled)
        XCTAssertEqual(search.query, "")
    }

    /// On an ASCII terminal a search finds what is drawn ("4½" is drawn "4 1/2") and highlights
    /// where it is drawn.
    func testOnAnASCIITerminalASearchFindsWhatTheScreenShows() {
        ASCIIText.isOn = true
        defer { ASCIIText.isOn = false }
        XCTAssertTrue(TextMatcher.matches("9 for 4½. Above", query: "1/2"))
        XCTAssertTrue(TextMatcher.matches("9 for 4½. Above", query: "½"))
        XCTAssertEqual(TextMatcher.columnRanges(of: "1/2", in: "9 for 4½. Above"), [8..<11])
        XCTAssertEqual(ASCIIText.transliterate("9 for 4½. Above").dropFirst(8).prefix(3), "1/2")
    }

    func testMatcherIgnoresCaseAndAccents() {
        XCTAssertTrue(TextMatcher.matches("Pénalités", query: "penalites"))
        XCTAssertTrue(TextMatcher.matches("ÁRBITRO", query: "arbitro"))
        XCTAssertFalse(TextMatcher.matches("Rules", query: ""))
        XCTAssertEqual(TextMatcher.columnRanges(of: "pen", in: "Une pénalité, pen"), [4..<7, 14..<17])
        XCTAssertEqual(TextMatcher.columnRanges(of: "文", in: "中文 文"), [2..<4, 5..<7])
    }
}
