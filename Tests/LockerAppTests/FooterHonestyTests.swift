import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

/// The footer shows exactly the keys that act now: in every mode of every tab, each key the
/// footer offers changes something (the screen, the cursor, or asks to quit) when pressed.
final class FooterHonestyTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let size = Size(width: 100, height: 30)
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locker-footer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A shell on the real screens, on a tab, after `path`.
    func shell(_ tab: Tab, _ path: [Key]) -> Shell {
        let localizer = Localizer(directory: Self.root.appendingPathComponent("Localization"), language: .en)
        let options = AppOptions(choices: StartupChoices(language: .en), ascii: false, paths: DataPaths(directory: directory),
                                 resources: Resources(root: Self.root))
        let viewModel = ShellViewModel(localizer: localizer, repository: JSONRepository<Settings>(url: directory.appendingPathComponent("settings.json")),
                                       choices: StartupChoices(tab: tab, language: .en), writable: true)
        let work = BackgroundWork()
        let (screens, _) = ScreenFactory.makeScreens(options: options, localizer: localizer, work: work) { [weak viewModel] in
            viewModel?.select($0)
        }
        let shell = Shell(viewModel: viewModel, tabs: screens, glyphs: .unicode)
        shell.background = work
        settle(shell)
        for key in path {
            _ = shell.handle(key, size: Self.size)
            settle(shell)
        }
        return shell
    }

    /// Lets background work (the Workout tab's listing) finish, as the run loop would.
    func settle(_ shell: Shell) {
        _ = frame(shell)
        let deadline = Date().addingTimeInterval(2)
        repeat {
            shell.tick()
            if shell.background?.isBusy != true { return }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
    }

    func frame(_ shell: Shell) -> (CellGrid, CursorRequest?) {
        let surface = MemorySurface(width: Self.size.width, height: Self.size.height)
        shell.render(into: surface)
        return (surface.grid, surface.cursor)
    }

    /// The keys a footer hint names ("Enter", "Esc", "Tab", "↑↓", "1-6", "?", "q" …), any of
    /// which must act: ↑↓ at the top of a list acts with ↓; "1-6" with another tab's digit.
    static func keys(for hint: KeyHint, on tab: Tab) -> [Key] {
        if hint.key.hasPrefix("1-") { return [.character(tab == .rules ? "2" : "1")] }
        if hint.key.hasPrefix("↑") && hint.key.contains("↓") { return [.up, .down] }
        if hint.key.hasPrefix("←") && hint.key.contains("→") { return [.left, .right] }
        return key(for: hint).map { [$0] } ?? []
    }

    static func key(for hint: KeyHint) -> Key? {
        let name = hint.key.split(separator: " ").first.map(String.init) ?? hint.key
        switch name {
        case "Enter": return .enter
        case "Esc": return .escape
        case "Tab": return .tab
        case "Shift-Tab": return .backTab
        case "Space": return .character(" ")
        case "Backspace": return .backspace
        case "Del", "Delete": return .delete
        case "PgUp": return .pageUp
        case "PgDn": return .pageDown
        case "Home": return .home
        case "End": return .end
        case "F1": return .function(1)
        default: break
        }
        // "^R" is Ctrl-R, as terminals write it.
        if name.count == 2, name.hasPrefix("^"), let letter = name.last { return .control(Character(letter.lowercased())) }
        guard let first = name.first else { return nil }
        switch first {
        case "↑": return .up
        case "↓": return .down
        case "←": return .left
        case "→": return .right
        default: return .character(first)
        }
    }

    /// Key paths from a fresh tab into each of its modes.
    static let modes: [(Tab, String, [Key])] = [
        (.rules, "contents", []),
        (.rules, "help", [.character("?")]),
        (.quiz, "help during a question", [.enter, .character("?")]),
        (.rules, "searching", [.character("/")]),
        (.rules, "search typed", [.character("/"), .character("d"), .character("i")]),
        (.rules, "search kept", [.character("/"), .character("d"), .character("i"), .enter]),
        (.rules, "text", [.tab]),
        (.rules, "calculator", [.character("c")]),
        (.rules, "go to article", [.character("g")]),
        (.penalties, "list", []),
        (.penalties, "searching", [.character("/")]),
        (.penalties, "search kept", [.character("/"), .character("m"), .enter]),
        (.quiz, "start", []),
        (.quiz, "question", [.enter]),
        (.quiz, "abandon question", [.enter, .escape]),
        (.grades, "what do I need", [.character("n")]),
        (.workout, "workout", [.enter]),
        (.grades, "courses", []),
        (.grades, "searching", [.character("/")]),
        (.grades, "editing", [.down, .down, .character("e")]),
        (.workout, "summary", []),
    ]

    func testEveryFooterKeyActsInEveryMode() {
        var checked = 0
        for (tab, mode, path) in Self.modes {
            let walker = shell(tab, path)
            for hint in walker.footerHintsShown {
                let keys = Self.keys(for: hint, on: tab)
                XCTAssertFalse(keys.isEmpty, "\(tab) \(mode): no key for footer hint \(hint)")
                let acts = keys.contains { key in
                    let fresh = shell(tab, path)
                    let before = frame(fresh)
                    let action = fresh.handle(key, size: Self.size)
                    self.settle(fresh)
                    let after = frame(fresh)
                    return action != .none || before.0 != after.0 || before.1 != after.1
                }
                checked += 1
                XCTAssertTrue(acts, "\(tab) \(mode): the footer shows “\(hint.key) \(hint.label)” but \(keys) does nothing")
            }
        }
        XCTAssertGreaterThan(checked, 40)
    }

    /// While a text field has the keys, the footer shows none of the global keys (they are typed).
    func testWhileTypingTheFooterOffersNoGlobalKey() {
        for (tab, mode, path) in Self.modes {
            let walker = shell(tab, path)
            guard walker.currentScreen.capturesText else { continue }
            let keys = Set(walker.footerHintsShown.map(\.key))
            for global in ["?", "q", "1-6", "L", "T"] {
                XCTAssertFalse(keys.contains(global), "\(tab) \(mode): the footer offers \(global) while it is typed")
            }
        }
    }

    /// A key that cannot act now says why, in the status line, instead of falling through.
    func testAKeyThatCannotActSaysWhy() {
        let history = shell(.quiz, [.character("h")])
        _ = history.handle(.enter, size: Self.size)
        XCTAssertTrue(frame(history).0.lines.joined(separator: "\n").contains("No finished quiz yet."))
        // The first penalty (a late dive after the warning) cites one article.
        let penalties = shell(.penalties, [])
        _ = penalties.handle(.tab, size: Self.size)
        XCTAssertTrue(frame(penalties).0.lines.joined(separator: "\n").contains("This penalty cites one article: Enter opens it."))
    }

    /// `?` shows the keys of the mode the screen is in first: during a quiz question, the
    /// question's keys, not the start page's.
    func testHelpStartsWithTheCurrentModesKeys() {
        let question = shell(.quiz, [.enter])
        let active = question.currentScreen.activeKeys(question.viewModel.localizer).title
        _ = question.handle(.character("?"), size: Self.size)
        let surface = MemorySurface(width: Self.size.width, height: Self.size.height)
        question.render(into: surface)
        let firstSection = surface.lines.dropFirst(2).first { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.contains("─") }
        XCTAssertTrue(firstSection?.contains(active) ?? false, "first section: \(firstSection ?? "none"), active: \(active)")
        XCTAssertFalse(surface.lines[1].contains("Quiz"), "the overlay covers the tab: \(surface.lines[1])")
    }

    /// When space is short, the screen's hints give way by rank and `? help` and `q quit` stay last.
    func testHelpAndQuitEndTheFooterAt80Columns() {
        for (tab, mode, path) in Self.modes {
            let walker = shell(tab, path)
            guard !walker.currentScreen.capturesText, !walker.isHelpOpen else { continue }
            let surface = MemorySurface(width: 80, height: 24)
            walker.render(into: surface)
            let footer = surface.lines[23]
            XCTAssertTrue(footer.hasSuffix("? help  q quit"), "\(tab) \(mode): \(footer)")
            // Issue 43, item 7: what gives way is what ranks last. The mode's two first-ranked
            // hints stay, and so does how to reach the other tabs.
            let ranked = walker.footer().hints.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
            for hint in ranked.prefix(2) + ranked.filter({ $0.key.hasPrefix("1-") }) {
                XCTAssertTrue(footer.contains(hint.key + " " + hint.label), "\(tab) \(mode): “\(hint.key) \(hint.label)” gave way: \(footer)")
            }
        }
        // The Grades tab keeps its main features at 80 columns.
        let grades = shell(.grades, [])
        let surface = MemorySurface(width: 80, height: 24)
        grades.render(into: surface)
        for hint in ["←→ mark", "w what do I need", "u undo", "a add", "d delete", "1-6 tabs"] {
            XCTAssertTrue(surface.lines[23].contains(hint), "\(hint): \(surface.lines[23])")
        }
    }
}

extension Shell {
    /// Every hint the footer holds, its pinned ones last.
    var footerHintsShown: [KeyHint] {
        let footer = footer()
        return footer.hints + footer.pinned
    }
}
