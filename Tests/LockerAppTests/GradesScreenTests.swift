import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

/// Repository in memory: the view tests do not touch the disk.
final class MemoryRepository<Value>: Repository {
    var stored: Value?
    init(_ value: Value? = nil) { stored = value }
    func load() -> LoadOutcome<Value> { stored.map { .loaded($0) } ?? .missing }
    func save(_ value: Value) throws { stored = value }
}

final class GradesScreenTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Issue 28, item 5: the search says which match is shown, or that there is none.
    func testTheSearchSaysWhichMatchIsShown() throws {
        let (screen, localizer, _) = try makeScreen(marks: [:])
        _ = screen.handle(.character("/"))
        for c in "stage" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        let first = screen.status(localizer) ?? ""
        XCTAssertTrue(first.range(of: #"^\d+ of \d+ match(es)? for “stage”$"#, options: .regularExpression) != nil, first)
        _ = screen.handle(.escape)
        _ = screen.handle(.character("/"))
        for c in "zzqx" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.status(localizer), "No match for “zzqx”")
    }

    /// The year line keeps every block's average when the terminal is narrow: the block names
    /// are shortened, not the last average cut off (at 64 columns "Projet/Stage" lost its mark).
    func testTheYearLineKeepsEveryBlocksAverageWhenNarrow() throws {
        let (screen, localizer, _) = try makeScreen(marks: someMarks)
        for width in [60, 64, 65, 66, 80] {
            let line = render(screen, localizer, width, 24).lines[0]
            XCTAssertTrue(line.range(of: #"│ [^│]+ (\d+\.\d\d|—) [^ ]+\s*$"#, options: .regularExpression) != nil, "\(width): \(line)")
            XCTAssertEqual(line.components(separatedBy: "│").count, 3, "\(width): both blocks: \(line)")
        }
    }

    /// Issue 28, item 7: numbers follow the language — "11,00" and "il faut 9,96" in French.
    func testNumbersUseTheLanguagesDecimalSeparator() throws {
        let (screen, localizer, _) = try makeScreen(.fr, marks: ["Programmation Objets": 11])
        let text = render(screen, localizer, 120, 37).text
        XCTAssertTrue(text.contains("11,00"), text)
        XCTAssertFalse(text.contains("11.00"), text)
        XCTAssertTrue(text.range(of: #"il faut \d+,\d\d"#, options: .regularExpression) != nil, text)
    }

    /// Issue 28, item 5: with "What do I need?" open, ↑ ↓ scroll the panel (the tree behind it
    /// stays where it was) and a panel longer than the box shows a scroll bar.
    func testTheNeedsPanelScrollsWithTheArrows() throws {
        let (screen, localizer, _) = try makeScreen(marks: ["Stage": 10])
        _ = screen.handle(.down)
        _ = screen.handle(.character("w"))
        let before = render(screen, localizer, 80, 21)
        let selected = screen.status(localizer)
        for _ in 0..<3 { _ = screen.handle(.down) }
        let after = render(screen, localizer, 80, 21)
        XCTAssertEqual(screen.status(localizer), selected, "the tree behind the panel did not move")
        XCTAssertNotEqual(before.lines[3], after.lines[3], "the panel's lines scrolled")
        XCTAssertTrue(after.text.contains("┃"), "a scroll bar: \(after.text)")
        _ = screen.handle(.home)
        XCTAssertEqual(render(screen, localizer, 80, 21).lines[3], before.lines[3])
    }

    /// Issue 28, item 3: `e`, `d` on every course, Enter threw the marks away without a
    /// question. A course with a mark asks first (in the form and in the tree), `u` undoes the
    /// saved edit and says so, Ctrl-R redoes it.
    func testDeletingAMarkedCourseAsksAndUIsUndo() throws {
        let (screen, localizer, repository) = try makeScreen(marks: ["Processus de développement": 13.5])
        _ = screen.handle(.down)                      // UE1
        _ = screen.handle(.character("e"))
        for _ in 0..<2 { _ = screen.handle(.down) }   // the first course row
        _ = screen.handle(.character("d"))
        let question = try XCTUnwrap(screen.question, "a course with a mark asks before it goes")
        XCTAssertEqual(question.title, "Delete “Processus de développement” and its mark 13.50?")
        XCTAssertEqual(screen.footerHints(localizer).map(\.key), ["y", "n Esc", "←→"], "the question's keys only")
        _ = screen.handle(.character("n"))
        XCTAssertNil(screen.question)
        _ = screen.handle(.character("d"))
        _ = screen.handle(.character("y"))
        for _ in 0..<3 { _ = screen.handle(.character("d")) }   // the unmarked courses go without a question
        XCTAssertNil(screen.question)
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.viewModel.unit("ue1")?.courses.count, 0)
        _ = screen.handle(.character("u"))
        XCTAssertEqual(screen.status(localizer), "Undone: edit of unit “UE1 Génie Logiciel”.")
        XCTAssertEqual(screen.viewModel.course("ue1-c1")?.mark, 13.5, "the mark is back")
        screen.idleWork?.run()
        XCTAssertEqual(repository.stored?.units[0].courses.count, 4, "and saved")
        _ = screen.handle(.control("r"))
        XCTAssertEqual(screen.status(localizer), "Redone: edit of unit “UE1 Génie Logiciel”.")
        _ = screen.handle(.character("u"))
        _ = screen.handle(.character("u"))
        XCTAssertEqual(screen.status(localizer), "Nothing to undo in this run.")
        // In the tree, `d` on a marked course asks too; Esc keeps it.
        _ = screen.handle(.down)
        _ = screen.handle(.character("d"))
        XCTAssertEqual(screen.question?.title, "Delete course “Processus de développement” and its mark 13.50?")
        _ = screen.handle(.escape)
        XCTAssertNotNil(screen.viewModel.course("ue1-c1"))
        // After u the course that came back is selected: the next d asks about it again
        // (it used to act on the row below, which went without a question).
        _ = screen.handle(.character("d")); _ = screen.handle(.character("y"))
        _ = screen.handle(.character("u"))
        XCTAssertTrue(screen.status(localizer)?.hasPrefix("Undone: deletion of course") == true, screen.status(localizer) ?? "")
        _ = screen.handle(.character("d"))
        XCTAssertEqual(screen.question?.title, "Delete course “Processus de développement” and its mark 13.50?")
        _ = screen.handle(.escape)
    }

    /// Issue 28, item 2: `A` adds a block, `a` a unit in the selected block, `d` on a unit or a
    /// block says what goes with it; the tree shows the new rows selected.
    func testAddingAndDeletingBlocksAndUnitsInTheTab() throws {
        let (screen, localizer, _) = try makeScreen()
        _ = screen.handle(.character("A"))
        for c in "Langues" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.viewModel.book.blocks.last?.name, "Langues")
        _ = screen.handle(.character("a"))
        for c in "Anglais" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        _ = screen.handle(.character("a"))
        for c in "Oral" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        _ = screen.handle(.enter)                      // saves the unit
        let text = render(screen, localizer, 80, 21).text
        XCTAssertTrue(text.contains("▾ Langues"), text)
        XCTAssertTrue(text.contains("UE8 Anglais"), text + "\n" + (screen.status(localizer) ?? ""))
        _ = screen.handle(.up)                         // the block row
        _ = screen.handle(.character("d"))
        XCTAssertEqual(screen.question?.title, "Delete block “Langues”?")
        XCTAssertEqual(screen.question?.message, "1 unit in no other block goes with it. u undoes it.")
        _ = screen.handle(.character("y"))
        XCTAssertFalse(render(screen, localizer, 80, 21).text.contains("Langues"))
        XCTAssertEqual(screen.status(localizer), "Done: deletion of block “Langues”. u undoes it.")
    }

    /// Walkthrough of issue 28: a second block named "Total" was accepted, and deleting UE6 from
    /// Total took it out of Projet/Stage too without a word.
    func testBlockNamesAreUniqueAndASharedUnitSaysItLeavesEveryBlock() throws {
        let (screen, localizer, _) = try makeScreen()
        _ = screen.handle(.character("A"))
        for c in "total" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.status(localizer), "There is already a block named “total”.")
        XCTAssertEqual(screen.viewModel.book.blocks.count, 2)
        _ = screen.handle(.escape)
        // Down to UE6's course (its status names the unit), then up to the UE6 row.
        var steps = 0
        while screen.status(localizer)?.hasPrefix("UE6 ") != true && steps < 40 { _ = screen.handle(.down); steps += 1 }
        XCTAssertLessThan(steps, 40, "UE6 is in the tree")
        _ = screen.handle(.up)
        _ = screen.handle(.character("d"))
        XCTAssertEqual(screen.question?.message, "1 course goes with it, it leaves every block that counts it: “Total”, “Projet/Stage”. u undoes it.")
        _ = screen.handle(.escape)
    }

    /// Walkthrough of issue 27: a header wider than the terminal ends with an ellipsis.
    func testTheHeaderEndsWithAnEllipsisWhenCut() throws {
        let (screen, localizer, _) = try makeScreen(.es)
        let header = render(screen, localizer, 50, 21).lines[0]
        XCTAssertTrue(header.hasSuffix("…"), header)
    }

    func makeScreen(_ language: Language = .en, marks: [String: Double] = [:]) throws -> (GradesScreen, Localizer, MemoryRepository<GradeBook>) {
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        var book = try GradeBook.load(from: root.appendingPathComponent("Data/grades/grades.json"), localizer)
        for u in book.units.indices {
            for c in book.units[u].courses.indices {
                if let mark = marks[book.units[u].courses[c].name] { book.units[u].courses[c].mark = mark }
            }
        }
        let repository = MemoryRepository(book)
        let model = GradesViewModel(localizer: localizer, repository: repository, defaults: book)
        return (GradesScreen(viewModel: model), localizer, repository)
    }

    func render(_ screen: GradesScreen, _ localizer: Localizer, _ width: Int, _ height: Int, ascii: Bool = false) -> MemorySurface {
        // An ASCII-only terminal: text is measured and drawn through ASCIIText, as the app does.
        ASCIIText.isOn = ascii
        defer { ASCIIText.isOn = false }
        let surface = MemorySurface(width: width, height: height, glyphs: ascii ? .ascii : .unicode)
        let context = RenderContext(localizer: localizer, glyphs: ascii ? .ascii : .unicode)
        screen.layout(surface.bounds, context: context)
        screen.render(into: surface, rect: surface.bounds, context: context)
        return surface
    }

    let someMarks: [String: Double] = ["Processus de développement": 13.5, "Programmation Objets": 9.25, "Anglais": 16,
                                       "Projet tuteuré": 8, "Android": 11.75]

    func testGoldenScreens() throws {
        let (screen, localizer, _) = try makeScreen(marks: someMarks)
        _ = screen.handle(.down); _ = screen.handle(.down)
        _ = screen.handle(.character(" "))
        assertGolden(render(screen, localizer, 80, 21), "grades-en-80x24")
        assertGolden(render(screen, localizer, 120, 37), "grades-en-120x40")
        let (french, frLocalizer, _) = try makeScreen(.fr, marks: someMarks)
        assertGolden(render(french, frLocalizer, 80, 21, ascii: true), "grades-fr-ascii-80x24")
        // Issue 28, item 2: the new-unit form and the block form, in French and English.
        _ = french.handle(.character("a"))
        for c in "Anglais" { _ = french.handle(.character(c)) }
        _ = french.handle(.enter)
        assertGolden(render(french, frLocalizer, 80, 21), "grades-new-unit-fr-80x24")
        _ = screen.handle(.character("A"))
        for c in "Languages" { _ = screen.handle(.character(c)) }
        assertGolden(render(screen, localizer, 120, 37), "grades-new-block-en-120x40")
    }

    /// The status line says which coefficient is which (issue 28): the unit's, then the course's.
    func testTheStatusLineLabelsBothCoefficients() throws {
        let (screen, localizer, _) = try makeScreen()
        _ = screen.handle(.down); _ = screen.handle(.down)      // the first course of UE1 (unit coefficient 6)
        let status = try XCTUnwrap(screen.status(localizer))
        XCTAssertTrue(status.hasPrefix("UE1 Génie Logiciel (coefficient 6) · "), status)
        XCTAssertTrue(status.hasSuffix(" in the unit)"), status)
    }

    func testSliderKeysChangeTheMarkAndTheAverages() throws {
        let (screen, localizer, repository) = try makeScreen()
        _ = screen.handle(.down); _ = screen.handle(.down)
        _ = screen.handle(.right)               // ungraded → 10
        _ = screen.handle(.right)               // 10.5
        _ = screen.handle(.character(">"))      // 10.6
        _ = screen.handle(.shiftLeft)           // 10.5
        _ = screen.handle(.character("<"))      // 10.4
        let text = render(screen, localizer, 80, 21).text
        XCTAssertTrue(text.contains("10.40"), text)
        XCTAssertTrue(text.lines.contains { $0.contains("UE1 Génie Logiciel") && $0.contains("10.40 ~") }, text)
        XCTAssertTrue(text.lines.contains { $0.contains("Total") && $0.contains("on track") }, text)
        XCTAssertTrue(text.contains("Year: ~ on track, needs 10.00"), "one mark is never a passed year: \(text)")
        screen.idleWork?.run()
        XCTAssertEqual(repository.stored?.units[0].courses[0].mark, 10.4, "saved when keys pause")
        _ = screen.handle(.character("x"))
        XCTAssertFalse(render(screen, localizer, 80, 21).text.contains("10.40"))
    }

    /// The "What do I need?" panel, when it scrolls, has one right edge: its scroll bar is the
    /// box's border, as the help's is (the walkthrough saw a bar beside a second border).
    func testTheNeedsPanelHasOneRightEdge() throws {
        let (screen, localizer, _) = try makeScreen(marks: [:])
        _ = screen.handle(.character("w"))
        let surface = render(screen, localizer, 80, 14)
        XCTAssertTrue(surface.text.contains("What do I need?"), surface.text)
        for line in surface.lines {
            XCTAssertFalse(line.contains("┃ │") || line.contains("│ │") || line.contains("┃│"), "one right edge: \(line)")
        }
    }

    func testNeedsPanelAndFolding() throws {
        var marks: [String: Double] = [:]
        let book = try GradeBook.load(from: root.appendingPathComponent("Data/grades/grades.json"), .english)
        for unit in book.units where unit.code <= 5 { for course in unit.courses { marks[course.name] = 12 } }
        marks["Projet tuteuré"] = 8
        for unit in book.units where unit.code == 6 { for course in unit.courses { marks[course.name] = 8 } }
        let (screen, localizer, _) = try makeScreen(marks: marks)
        _ = screen.handle(.character("w"))
        let surface = render(screen, localizer, 120, 37)
        XCTAssertTrue(surface.text.contains("Projet/Stage: at risk — needs 11.20 in every ungraded course"), surface.text)
        XCTAssertTrue(surface.text.contains("Total: on track — needs 6.40 in every ungraded course"), surface.text)
        XCTAssertTrue(surface.text.contains("Year: at risk — needs 11.20"), surface.text)
        XCTAssertTrue(surface.text.contains("Year: ! at risk, needs 11.20") || surface.text.contains("Year: ⚠ at risk, needs 11.20"),
                      "the header says the same: \(surface.text)")
        assertGolden(surface, "grades-needs-en-120x40")
        let (french, frLocalizer, _) = try makeScreen(.fr, marks: marks)
        _ = french.handle(.character("w"))
        assertGolden(render(french, frLocalizer, 80, 21), "grades-needs-fr-80x24")
        _ = french.handle(.character("w"))
        assertGolden(render(french, frLocalizer, 120, 37), "grades-fr-120x40")
        // Issue 28, item 5: one key, one meaning — n is the search's, w the panel's.
        _ = screen.handle(.escape)
        XCTAssertFalse(screen.handle(.character("n")) && screen.capturesText, "n no longer opens the panel")
        XCTAssertFalse(render(screen, localizer, 120, 37).text.contains("needs 6.40 in every ungraded course"), "n does not open the panel")
        _ = screen.handle(.home)
        _ = screen.handle(.enter)   // fold Total
        let folded = render(screen, localizer, 80, 21).text
        XCTAssertTrue(folded.contains("▸ Total"), folded)
        XCTAssertFalse(folded.contains("UE1 Génie Logiciel") && folded.lines.firstIndex { $0.contains("UE1") }! < folded.lines.firstIndex { $0.contains("Projet/Stage") && $0.contains("▾") }!)
    }

    /// Text typed into a field and not kept yet with Enter is work quitting would lose: the
    /// shell's quit question (asked from the "please enlarge" screen too, where `q` quits) names it.
    func testTypingNotKeptYetIsUnsavedWork() throws {
        let (screen, localizer, _) = try makeScreen()
        _ = screen.handle(.down)
        _ = screen.handle(.character("e"))
        XCTAssertNil(screen.unsavedWork(localizer), "the form is open, nothing typed")
        _ = screen.handle(.character("i"))
        XCTAssertNil(screen.unsavedWork(localizer), "typing has begun, the text is unchanged")
        for c in "abc" { _ = screen.handle(.character(c)) }
        XCTAssertEqual(screen.unsavedWork(localizer), "You have unsaved changes.")
        _ = screen.handle(.escape)   // undo the typing
        XCTAssertNil(screen.unsavedWork(localizer))
    }

    func testEditFormValidatesAndEscDiscards() throws {
        let (screen, localizer, repository) = try makeScreen()
        _ = screen.handle(.down)
        _ = screen.handle(.character("e"))
        XCTAssertTrue(screen.capturesText)
        _ = screen.handle(.down)                   // coefficient
        _ = screen.handle(.character("i"))
        _ = screen.handle(.control("u"))
        for c in "0" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)                  // keep the field
        _ = screen.handle(.enter)                  // try to save
        XCTAssertEqual(screen.status(localizer), "“0” is not a coefficient: write a number from 0.01 to 100, e.g. 6 or 1.5.")
        assertGolden(render(screen, localizer, 80, 21), "grades-edit-en-80x24")
        // Issue 28, item 4: what cannot become a coefficient is refused as it is typed, and said.
        _ = screen.handle(.character("i"))
        _ = screen.handle(.control("u"))
        for c in "1,5.5x999" { _ = screen.handle(.character(c)) }
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("a number from 0.01 to 100, e.g. 1.5"))
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.viewModel.editor.draft?.coefficient, "1,55", "a second separator, a letter and a third decimal are refused")
        _ = screen.handle(.character("i"))
        _ = screen.handle(.control("u"))
        for c in "999999999999" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertEqual(screen.viewModel.editor.draft?.coefficient, "99", "no coefficient above 100")
        _ = screen.handle(.escape)
        XCTAssertFalse(screen.capturesText)
        screen.idleWork?.run()
        XCTAssertEqual(repository.stored?.units[0].coefficient, 6, "nothing reached the file")
    }
}

private extension String {
    var lines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}
