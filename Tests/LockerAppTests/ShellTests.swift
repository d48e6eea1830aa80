import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

final class ShellTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locker-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func makeShell(language: Language = .en, glyphs: Glyphs = .unicode, screens: [TabScreen] = []) -> Shell {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        let repository = JSONRepository<Settings>(url: directory.appendingPathComponent("settings.json"))
        let viewModel = ShellViewModel(localizer: localizer, repository: repository,
                                       choices: StartupChoices(language: language), writable: true)
        return Shell(viewModel: viewModel, screens: BlankScreen.filling(screens), glyphs: glyphs)
    }

    func render(_ shell: Shell, _ width: Int, _ height: Int, glyphs: Glyphs = .unicode) -> MemorySurface {
        // An ASCII-only terminal: text is measured and drawn through ASCIIText, as the app does.
        ASCIIText.isOn = glyphs.ascii
        defer { ASCIIText.isOn = false }
        let surface = MemorySurface(width: width, height: height, glyphs: glyphs)
        shell.render(into: surface)
        return surface
    }

    // MARK: Golden screens

    func testShellAt80x24() {
        assertGolden(render(makeShell(), 80, 24), "shell-rules-80x24")
    }

    func testShellAt120x40() {
        assertGolden(render(makeShell(), 120, 40), "shell-rules-120x40")
    }

    func testHelpOverlayAt80x24And120x40() {
        let shell = makeShell()
        _ = shell.handle(.character("?"), size: Size(width: 80, height: 24))
        assertGolden(render(shell, 80, 24), "shell-help-80x24")
        assertGolden(render(shell, 120, 40), "shell-help-120x40")
    }

    func testFrenchAndAsciiAt80x24() {
        let shell = makeShell(language: .fr, glyphs: .ascii)
        _ = shell.handle(.character("?"), size: Size(width: 80, height: 24))
        assertGolden(render(shell, 80, 24, glyphs: .ascii), "shell-help-fr-ascii-80x24")
    }

    func testTooSmallTerminal() {
        let surface = render(makeShell(), 50, 15)
        assertGolden(surface, "shell-too-small-50x15")
        XCTAssertTrue(surface.text.contains("60×20"))
        XCTAssertTrue(surface.text.contains("50×15"))
    }

    /// At 20×5 the whole sentence does not fit: a short one says which key works.
    func testATinyTerminalStillSaysThatQQuits() {
        let shell = makeShell()
        let text = render(shell, 20, 5).text
        XCTAssertTrue(text.contains("q quits."), text)
        XCTAssertTrue(text.contains("20×5"), text)
    }

    /// The shell enumerates the registry: its tabs are `Tab`'s, in the same order.
    func testTheRegistryHoldsEveryTabInOrder() {
        XCTAssertEqual(TabRegistry.entries.map(\.tab), Tab.allCases)
        let keys = makeShell(language: .en).globalKeys()
        XCTAssertTrue(keys.bindings.contains { $0.label == "1 … \(Tab.allCases.count)" })
        XCTAssertTrue(keys.bindings.contains { $0.help == "Rules, Penalties, Quiz, Grades, Workout, Games" })
    }

    func testEveryLanguageFitsAt60Columns() {
        for language in Language.allCases {
            let shell = makeShell(language: language)
            for tab in Tab.allCases {
                shell.viewModel.select(tab)
                let surface = render(shell, 60, 20)
                let bar = surface.lines[0]
                for n in 1...6 { XCTAssertTrue(bar.contains("\(n) "), "\(language) \(tab): \(bar)") }
                XCTAssertTrue(bar.contains(TabRegistry.title(of: tab, shell.viewModel.localizer)), "\(language): the current tab's full name shows: \(bar)")
            }
        }
    }

    // MARK: Keys

    func testDigitsAndBracketsSwitchTabs() {
        let shell = makeShell()
        let size = Size(width: 80, height: 24)
        _ = shell.handle(.character("4"), size: size)
        XCTAssertEqual(shell.viewModel.tab, .grades)
        _ = shell.handle(.character("]"), size: size)
        XCTAssertEqual(shell.viewModel.tab, .workout)
        _ = shell.handle(.character("["), size: size)
        _ = shell.handle(.character("["), size: size)
        XCTAssertEqual(shell.viewModel.tab, .quiz)
        _ = shell.handle(.character("7"), size: size)
        XCTAssertEqual(shell.viewModel.tab, .quiz, "there is no tab 7")
    }

    func testHelpOpensAndCloses() {
        let shell = makeShell()
        let size = Size(width: 80, height: 24)
        _ = shell.handle(.function(1), size: size)
        XCTAssertTrue(shell.isHelpOpen)
        _ = shell.handle(.character("4"), size: size)
        XCTAssertEqual(shell.viewModel.tab, .rules, "keys go to the overlay while it is open")
        _ = shell.handle(.escape, size: size)
        XCTAssertFalse(shell.isHelpOpen)
        _ = shell.handle(.character("?"), size: size)
        _ = shell.handle(.character("?"), size: size)
        XCTAssertFalse(shell.isHelpOpen)
    }

    func testLanguageKeyRenamesTabsLive() {
        let shell = makeShell()
        _ = shell.handle(.character("L"), size: Size(width: 80, height: 24))
        let surface = render(shell, 80, 24)
        XCTAssertTrue(surface.lines[0].contains("Règles"), surface.lines[0])
        XCTAssertTrue(surface.lines[0].contains("Pénalités"))
        XCTAssertTrue(surface.lines[22].contains("Langue\u{202F}: Français"), surface.lines[22])
        XCTAssertTrue(surface.lines[22].hasSuffix("FR"))
        _ = shell.handle(.character("L"), size: Size(width: 80, height: 24))
        XCTAssertTrue(render(shell, 80, 24).lines[0].contains("Reglas"))
        _ = shell.handle(.character("L"), size: Size(width: 80, height: 24))
        XCTAssertTrue(render(shell, 80, 24).lines[0].contains("Regole"))
        _ = shell.handle(.character("L"), size: Size(width: 80, height: 24))
        XCTAssertTrue(render(shell, 80, 24).lines[0].contains("Rules"))
    }

    func testQuitControlCRepaintAndTinyTerminal() {
        let shell = makeShell()
        XCTAssertEqual(shell.handle(.character("q"), size: Size(width: 80, height: 24)), .quit)
        XCTAssertEqual(shell.handle(.control("c"), size: Size(width: 80, height: 24)), .quit)
        XCTAssertEqual(shell.handle(.control("l"), size: Size(width: 80, height: 24)), .repaint)
        XCTAssertEqual(shell.handle(.character("2"), size: Size(width: 40, height: 10)), .none)
        XCTAssertEqual(shell.viewModel.tab, .rules, "only q and Ctrl-C work below the minimum size")
        XCTAssertEqual(shell.handle(.character("q"), size: Size(width: 40, height: 10)), .quit)
    }

    /// A message wider than the status line wraps over up to three rows, growing upwards, so an
    /// error (a full disk, a long path) can be read whole; longer ones end with an ellipsis.
    func testLongStatusMessagesWrapUpwards() {
        let shell = makeShell()
        let reason = "/home/someone/.local/share/locker/grades.json: the file would be larger than this system allows"
        shell.viewModel.post(.error, "Your grades could not be saved: \(reason). They stay in memory.")
        let lines = render(shell, 80, 24).lines
        XCTAssertTrue(lines[20].hasPrefix(" ✗ Your grades could not be saved:"), lines[20])
        XCTAssertTrue(lines[21].contains("grades.json: the file would be larger"), lines[21])
        XCTAssertTrue(lines[22].contains("than this system allows. They stay in memory."), lines[22])
        XCTAssertTrue(lines[22].hasSuffix(" EN"), "the language stays on the last status row")
        XCTAssertTrue(lines[23].contains("quit"), lines[23])
        shell.viewModel.clearNotice()   // a second problem would wait behind the first
        shell.viewModel.post(.error, String(repeating: "word ", count: 100))
        let cut = render(shell, 80, 24).lines
        XCTAssertTrue(cut[22].contains("…"), cut[22])
        XCTAssertFalse(cut[19].contains("word"), "at most three rows")
    }

    final class EditingScreen: TabScreen {
        let tab = Tab.grades
        var unsaved = true
        var typing = false
        var received: [Key] = []
        func keyTables(_ localizer: Localizer) -> [KeyTable] { [activeKeys(localizer)] }
        func activeKeys(_ localizer: Localizer) -> KeyTable {
            KeyTable(id: "editing", title: "Grades", [.described("e", help: "edit", footer: "edit")])
        }
        func handle(_ key: Key) -> Bool { received.append(key); return true }
        func render(into surface: Surface, rect: Rect, context: RenderContext) {
            surface.write("editing", x: rect.x, y: rect.y)
        }
        func unsavedWork(_ l: Localizer) -> String? { unsaved ? unsavedChanges(l) : nil }
        var capturesText: Bool { typing }
    }

    func testQuitAsksWhenEditsAreUnsaved() {
        let screen = EditingScreen()
        let shell = makeShell(screens: [screen])
        let size = Size(width: 80, height: 24)
        XCTAssertEqual(shell.handle(.character("q"), size: size), .none)
        XCTAssertTrue(shell.isAskingToQuit)
        XCTAssertTrue(render(shell, 80, 24).text.contains("You have unsaved changes"))
        XCTAssertEqual(render(shell, 80, 24).lines[23], " y Quit  n Esc Stay  ←→ choose", "the footer names the question's keys only")
        XCTAssertEqual(shell.handle(.escape, size: size), .none)
        XCTAssertFalse(shell.isAskingToQuit)
        _ = shell.handle(.character("q"), size: size)
        XCTAssertEqual(shell.handle(.character("y"), size: size), .quit)
    }

    func testTextEntryTakesGlobalKeys() {
        let screen = EditingScreen()
        screen.typing = true
        let shell = makeShell(screens: [screen])
        shell.viewModel.select(.grades)
        let size = Size(width: 80, height: 24)
        for key: Key in [.character("2"), .character("q"), .character("L"), .character("?")] {
            XCTAssertEqual(shell.handle(key, size: size), .none)
        }
        XCTAssertEqual(screen.received, [.character("2"), .character("q"), .character("L"), .character("?")])
        XCTAssertEqual(shell.viewModel.tab, .grades)
        XCTAssertEqual(shell.viewModel.language, .en)
        XCTAssertEqual(shell.handle(.control("c"), size: size), .quit, "Ctrl-C always quits")
    }

    func testScreenHintsAndHelpAreShown() {
        let shell = makeShell(screens: [EditingScreen()])
        shell.viewModel.select(.grades)
        XCTAssertTrue(render(shell, 80, 24).lines[23].hasPrefix(" e edit  1-6 tabs"))
        XCTAssertTrue(render(shell, 80, 24).lines[23].hasSuffix("? help  q quit"), "help and quit end the footer")
        _ = shell.handle(.character("?"), size: Size(width: 80, height: 24))
        let text = render(shell, 80, 24).text
        XCTAssertTrue(text.contains("Global keys"))
        XCTAssertTrue(text.contains("Grades"))
    }

    func testCursorIsParkedOnTheFocusedItem() {
        let surface = render(makeShell(), 80, 24)
        XCTAssertEqual(surface.cursor?.visible, false)
        XCTAssertEqual(surface.cursor?.position.y, 0, "a screen that parks nothing: on the selected tab's title")
    }
}
