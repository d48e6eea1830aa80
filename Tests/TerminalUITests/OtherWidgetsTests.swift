import XCTest
@testable import TerminalUI

final class OtherWidgetsTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    /// Issue 27, item 14: when the titles do not fit, the catalogue's abbreviations come first,
    /// so Spanish reads "Penaliz." rather than "Penalizacion." (a cut that looks misspelt).
    func testTabBarUsesTheLanguagesAbbreviationsBeforeCutting() {
        let spanish = ["Reglas", "Penalizaciones", "Test", "Notas", "Entrenamiento", "Partidos"]
        let short = ["Reglas", "Penaliz.", "Test", "Notas", "Entren.", "Partidos"]
        let labels = TabBar(titles: spanish, shortTitles: short, selected: 2).fittedLabels(width: 79)
        XCTAssertTrue(labels.contains(" 2 Penaliz. "), "\(labels)")
        XCTAssertTrue(labels.contains(" 3 Test "), "the selected tab keeps its title")
        XCTAssertFalse(labels.joined().contains("Penalizacion."), "\(labels)")
        let full = TabBar(titles: spanish, shortTitles: short, selected: 2).fittedLabels(width: 200)
        XCTAssertTrue(full.contains(" 2 Penalizaciones "), "with room, the full titles")
    }

    func testTabBarFullAndCompressed() {
        let titles = ["Rules", "Penalties", "Quiz", "Grades", "Workout", "Games"]
        let wide = MemorySurface(width: 80, height: 1)
        TabBar(titles: titles, selected: 1).render(into: wide, row: wide.bounds)
        XCTAssertEqual(wide.lines[0], "  1 Rules   2 Penalties   3 Quiz   4 Grades   5 Workout   6 Games")
        XCTAssertEqual(wide.style(x: 11, y: 0).role, .tabActive)
        let french = ["Règles", "Pénalités", "Quiz", "Notes", "Entraînement", "Matchs"]
        let narrow = MemorySurface(width: 60, height: 1)
        TabBar(titles: french, selected: 4).render(into: narrow, row: narrow.bounds)
        let line = narrow.lines[0]
        XCTAssertLessThanOrEqual(line.displayWidth, 60)
        XCTAssertTrue(line.contains("5 Entraînement"), "the selected tab keeps its full name: \(line)")
        for n in 1...6 { XCTAssertTrue(line.contains("\(n) "), "tab \(n) keeps its number") }
    }

    func testFooterDropsHintsThatDoNotFit() {
        let surface = MemorySurface(width: 24, height: 1)
        Footer(hints: [KeyHint("?", "help"), KeyHint("q", "quit"), KeyHint("L", "language")])
            .render(into: surface, row: surface.bounds)
        XCTAssertEqual(surface.lines, [" ? help  q quit"])
    }

    /// A status of parts joined by " · " breaks between parts, not inside one: the French Rules
    /// status at 80 columns left its total alone on the second line ("… sur" / "716").
    func testAStatusBreaksBetweenItsPartsNotInsideOne() {
        let status = "Article 8.5.4 · 3 résultats pour « juge » · lignes 183–201 sur 716"
        XCTAssertEqual(Banner.wrap(status, width: 62, maxRows: 2, ellipsis: "…").last, "716")
        let lines = Banner.wrapKeepingParts(status, width: 62, maxRows: 2, ellipsis: "…")
        XCTAssertEqual(lines, ["Article 8.5.4 · 3 résultats pour « juge » ·", "lignes 183–201 sur 716"])
        // A part longer than a line still wraps at its spaces, and the text comes back unchanged.
        let long = Banner.wrapKeepingParts("Article 8 · " + String(repeating: "word ", count: 20), width: 30, maxRows: 5, ellipsis: "…")
        XCTAssertTrue(long.allSatisfy { $0.displayWidth <= 30 && !$0.contains("\u{2007}") }, "\(long)")
    }

    func testBannerCarriesKindWithoutColour() {
        let surface = MemorySurface(width: 30, height: 1, glyphs: .ascii)
        Banner("Saved", kind: .success).render(into: surface, row: surface.bounds)
        XCTAssertEqual(surface.lines, [" v Saved"])
        let error = MemorySurface(width: 30, height: 1)
        Banner("Disk full", kind: .error).render(into: error, row: error.bounds)
        XCTAssertEqual(error.lines, [" ✗ Disk full"])
    }

    func testConfirmDialogKeysAndRender() {
        var dialog = ConfirmDialog(title: "Quit?", message: "Unsaved edits will be lost.", yesLabel: "Quitter", noLabel: "Rester")
        XCTAssertNil(dialog.handle(.right))
        XCTAssertEqual(dialog.handle(.enter), .yes)
        dialog.yesSelected = false
        XCTAssertEqual(dialog.handle(.enter), .no)
        XCTAssertEqual(dialog.handle(.escape), .no)
        XCTAssertEqual(dialog.handle(.character("Q")), .yes, "first letter of the translated label")
        XCTAssertEqual(dialog.handle(.character("r")), .no)
        XCTAssertEqual(dialog.handle(.character("y")), .yes)
        let surface = MemorySurface(width: 60, height: 9)
        dialog.render(into: surface, area: surface.bounds)
        // On the bottom rows, where the status line is: the question, then its two buttons.
        XCTAssertEqual(surface.lines.last?.trimmingCharacters(in: .whitespaces), "Quit? Unsaved edits will be lost.   [ Quitter ] [ Rester ]")
        XCTAssertTrue(surface.lines[surface.lines.count - 2].allSatisfy { $0 == "─" }, "a rule above it")
    }

    func testDateTimePicker() {
        let start = ISO8601DateFormatter().date(from: "2027-01-31T18:30:00Z")!
        var picker = DateTimePickerState(date: start, timeZone: utc, minuteStep: 5)
        XCTAssertEqual(picker.focused, .day)
        _ = picker.handle(.left)
        XCTAssertEqual(picker.focused, .month)
        _ = picker.handle(.up)
        XCTAssertEqual(picker.month, 2)
        XCTAssertEqual(picker.day, 28, "31 January + 1 month clamps to 28 February 2027")
        _ = picker.handle(.down)
        _ = picker.handle(.down)
        XCTAssertEqual(picker.month, 12, "months carry into the year")
        XCTAssertEqual(picker.year, 2026)
        _ = picker.handle(.right); _ = picker.handle(.right); _ = picker.handle(.right)
        XCTAssertEqual(picker.focused, .minute)
        _ = picker.handle(.up)
        XCTAssertEqual(picker.minute, 35)
        _ = picker.handle(.left)
        _ = picker.handle(.character("0")); _ = picker.handle(.character("7"))
        XCTAssertEqual(picker.hour, 7)
        XCTAssertEqual(picker.focused, .minute, "typing two digits moves on")
        XCTAssertEqual(ISO8601DateFormatter().string(from: picker.date!), "2026-12-28T07:35:00Z")
        let surface = MemorySurface(width: 20, height: 1)
        DateTimePicker().render(picker, into: surface, at: Point(x: 0, y: 0), focused: true)
        XCTAssertEqual(surface.lines, ["2026-12-28  07:35"])
        XCTAssertEqual(surface.style(x: 15, y: 0).role, .selection)
    }

    /// Issue 26, item 5: values carry into the next unit, typing never spills into another
    /// field, and a year Locker cannot take is refused, not changed into another.
    func testDateTimePickerCarriesAndNeverSpills() {
        let start = ISO8601DateFormatter().date(from: "2026-12-25T23:55:00Z")!
        var picker = DateTimePickerState(date: start, timeZone: utc, minuteStep: 5)
        _ = picker.handle(.pageUp)
        XCTAssertEqual(picker.localText, "2027-01-01T23:55", "the 25th + 7 days is the 1st of next month, next year")
        _ = picker.handle(.down)
        XCTAssertEqual(picker.localText, "2026-12-31T23:55")
        _ = picker.handle(.right); _ = picker.handle(.right)
        XCTAssertEqual(picker.focused, .minute)
        _ = picker.handle(.up)
        XCTAssertEqual(picker.localText, "2027-01-01T00:00", "23:55 + 5 minutes is midnight the next day")
        // Typing past the minutes stays on the minutes.
        for c in "3045" { _ = picker.handle(.character(c)) }
        XCTAssertEqual(picker.focused, .minute)
        XCTAssertEqual(picker.localText, "2027-01-01T00:45", "the year is untouched")
        // 1830 is no year Locker takes: refused, the year kept.
        for _ in 0..<4 { _ = picker.handle(.left) }
        XCTAssertEqual(picker.focused, .year)
        for c in "1830" { _ = picker.handle(.character(c)) }
        XCTAssertEqual(picker.year, 2027)
        XCTAssertTrue(picker.refusedTyping)
        for c in "2028" { _ = picker.handle(.character(c)) }
        XCTAssertEqual(picker.year, 2028)
        XCTAssertFalse(picker.refusedTyping)
        XCTAssertEqual(picker.focused, .month)
    }

    func testTableLayoutAndRender() {
        let table = Table(columns: [
            TableColumn("Name", width: .flexible(min: 6, weight: 1)),
            TableColumn("Coef", width: .fixed(4), alignment: .right),
            TableColumn("Note", width: .flexible(min: 10, weight: 1)),
        ])
        XCTAssertEqual(table.layout(width: 30), [9, 4, 13], "spare columns shared by weight")
        XCTAssertEqual(table.layout(width: 15), [9, 4, 0], "a column that cannot get its minimum is hidden")
        let surface = MemorySurface(width: 31, height: 3)
        let state = ListState(count: 2)
        table.render(state, into: surface, rect: surface.bounds) { row, column in
            Span([["Maths", "3", "good"], ["Art", "1.5", "late"]][row][column])
        }
        XCTAssertEqual(surface.lines, ["Name       Coef  Note", "Maths         3  good", "Art         1.5  late"])
    }

    func testBrailleCanvasDotsLevelsAndAscii() {
        var canvas = BrailleCanvas(columns: 2, rows: 1)
        canvas.set(x: 0, y: 0, level: 1)
        canvas.set(x: 1, y: 3, level: 3)
        canvas.set(x: 0, y: 1, level: 2)
        XCTAssertEqual(canvas.level(column: 0, row: 0), 3, "the highest level in a cell wins")
        XCTAssertFalse(canvas.hasDots(column: 1, row: 0))
        let surface = MemorySurface(width: 2, height: 1)
        canvas.render(into: surface, at: Point(x: 0, y: 0)) { Style(.heat($0)) }
        XCTAssertEqual(surface.lines, ["\u{2883}"], "dots 1, 2 and 8")
        XCTAssertEqual(surface.style(x: 0, y: 0).role, .heat(3))
        let ascii = MemorySurface(width: 2, height: 1, glyphs: .ascii)
        canvas.render(into: ascii, at: Point(x: 0, y: 0)) { _ in .plain }
        XCTAssertEqual(ascii.lines, [":"])
    }

    func testBrailleLineAndLabels() {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        canvas.line(from: (0, 0), to: (7, 7), level: 0)
        canvas.label("S", x: 0, y: 0, style: Style(.good))
        let surface = MemorySurface(width: 4, height: 2)
        canvas.render(into: surface, at: Point(x: 0, y: 0)) { _ in .plain }
        XCTAssertEqual(surface.lines[0].first, "S")
        XCTAssertTrue((0..<4).allSatisfy { canvas.hasDots(column: $0, row: $0 / 2) })
    }

    func testHelpOverlayRendersSectionsAndScrolls() {
        let overlay = HelpOverlay(title: "Help", sections: [
            HelpSection(title: "Global keys", hints: (1...30).map { KeyHint("k\($0)", "action \($0)") }),
        ], closeHint: "Esc closes")
        let surface = MemorySurface(width: 60, height: 20)
        let layout = overlay.layout(in: surface.bounds)
        var state = TextViewState()
        state.setLines(layout.lines, height: layout.inner.height)
        overlay.render(state, layout: layout, into: surface)
        XCTAssertTrue(surface.text.contains("Global keys"))
        XCTAssertTrue(surface.text.contains("k1   action 1"))
        XCTAssertFalse(surface.text.contains("action 30"), "long help scrolls")
        XCTAssertTrue(surface.text.contains("Esc closes"))
        _ = state.handle(.end, height: layout.inner.height)
        let after = MemorySurface(width: 60, height: 20)
        overlay.render(state, layout: layout, into: after)
        XCTAssertTrue(after.text.contains("action 30"))
    }

    /// Issue 27, item 16: a key wider than its column is not cut and does not run into its
    /// label (it takes a line of its own); a close hint too long for the box ends with "…".
    func testHelpKeysAreNeverCutAndTheCloseHintEndsWithAnEllipsis() {
        let overlay = HelpOverlay(title: "Help", sections: [
            HelpSection(title: "Keys", hints: [KeyHint("↑ ↓ PgUp PgDn Home End Shift-Tab", "Move"), KeyHint("q", "Quit")]),
        ], closeHint: "Esc or ? closes · ↑↓ PgUp PgDn scroll · Home End jump to the ends of the help text")
        let surface = MemorySurface(width: 40, height: 20)
        let layout = overlay.layout(in: surface.bounds)
        var state = TextViewState()
        state.setLines(layout.lines, height: layout.inner.height)
        overlay.render(state, layout: layout, into: surface)
        XCTAssertTrue(surface.text.contains("Shift-Tab"), "the whole key, wrapped between its names: \n" + surface.text)
        XCTAssertTrue(surface.lines.contains { $0.contains("Move") && !$0.contains("Shift-Tab") }, "\n" + surface.text)
        XCTAssertTrue(surface.text.contains("…"), "the cut close hint ends with an ellipsis: \(surface.text)")
    }
}
