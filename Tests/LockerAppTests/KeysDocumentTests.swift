import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

/// docs/KEYS.md's key tables are the screens' own `KeyTable`s, in English: each sits between
/// `<!-- keys:ID -->` and `<!-- /keys -->`. This test fails when the file and the code disagree;
/// `LOCKER_RECORD_KEYS=1 swift test --filter KeysDocumentTests` rewrites the blocks (a table
/// with no block yet is added at the end of the file, to be moved where it belongs).
final class KeysDocumentTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let document = root.appendingPathComponent("docs/KEYS.md")

    func testKeysDocumentIsTheScreensTables() throws {
        let tables = try allTables()
        var text = try String(contentsOf: Self.document, encoding: .utf8)
        let documented = Self.blocks(in: text)
        let record = ProcessInfo.processInfo.environment["LOCKER_RECORD_KEYS"] == "1"
        for table in tables {
            let expected = Self.block(table)
            // Ranges move as blocks are rewritten: find this one again in the current text.
            if documented[table.id] != nil, let found = Self.blocks(in: text)[table.id] {
                if text[found] != expected {
                    if record { text.replaceSubrange(found, with: expected) } else {
                        XCTFail("docs/KEYS.md: the \(table.id) table differs from the code:\n\(expected)")
                    }
                }
            } else if record {
                text += "\n" + expected + "\n"
            } else {
                XCTFail("docs/KEYS.md has no block for the \(table.id) table:\n\(expected)")
            }
        }
        let stale = Set(documented.keys).subtracting(tables.map(\.id))
        XCTAssert(stale.isEmpty, "docs/KEYS.md documents tables the code no longer has: \(stale.sorted())")
        XCTAssertEqual(Set(tables.map(\.id)).count, tables.count, "two tables share an id")
        if record { try text.write(to: Self.document, atomically: true, encoding: .utf8) }
    }

    /// A binding's label (its row in KEYS.md and the help) names every key it acts on: the
    /// label cannot leave out Space in the calculator or Shift-Tab in a form.
    func testEveryBindingNamesEveryKeyItTakes() throws {
        var omissions: [String] = []
        for table in try allTables() {
            for binding in table.bindings where !binding.label.isEmpty {
                let named = Set(binding.label.split(separator: " ").map(String.init))
                let missing = (binding.keys ?? []).map(\.label).filter { !$0.isEmpty && !named.contains($0) }
                if !missing.isEmpty { omissions.append("\(table.id): “\(binding.label)” leaves out \(missing.joined(separator: " "))") }
            }
        }
        XCTAssert(omissions.isEmpty, "\(omissions.count) bindings leave keys out:\n" + omissions.joined(separator: "\n"))
    }

    /// Every table of every tab, and the shell's global keys, as an English user sees them.
    func allTables() throws -> [KeyTable] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locker-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let localizer = Localizer(directory: Self.root.appendingPathComponent("Localization"), language: .en)
        let options = AppOptions(choices: StartupChoices(language: .en), ascii: false, paths: DataPaths(directory: directory),
                                 resources: Resources(root: Self.root))
        let (screens, _) = ScreenFactory.makeScreens(options: options, localizer: localizer, work: BackgroundWork()) { _ in }
        let viewModel = ShellViewModel(localizer: localizer, repository: JSONRepository<Settings>(url: directory.appendingPathComponent("settings.json")),
                                       choices: StartupChoices(language: .en), writable: true)
        let shell = Shell(viewModel: viewModel, tabs: screens, glyphs: .unicode)
        let byTab = Dictionary(screens.map { ($0.tab, $0) }, uniquingKeysWith: { first, _ in first })
        // The meet console (locker meet DIR): its own global keys (no tabs) and its screen's.
        let meet = MeetScreen(viewModel: MeetConsoleViewModel(directory: directory, packsDirectory: directory, localizer: localizer,
                                                              work: BackgroundWork()), failures: [])
        let console = Shell(viewModel: viewModel, console: meet, title: { $0.t("Meet") }, glyphs: .unicode)
        // A judge's pad and the scoreboard: consoles of their own, with the same global keys.
        let pad = JudgePadScreen(viewModel: MeetPadViewModel(directory: directory, seat: 1, localizer: localizer, work: BackgroundWork()))
        let board = MeetBoardScreen(viewModel: MeetConsoleViewModel(directory: directory, packsDirectory: directory, localizer: localizer,
                                                                   work: BackgroundWork()))
        return [shell.globalKeys()] + Tab.allCases.flatMap { byTab[$0].map { $0.screen.keyTables(localizer) } ?? [] } + [console.globalKeys()] + meet.keyTables(localizer)
            + pad.keyTables(localizer) + board.keyTables(localizer)
    }

    static func block(_ table: KeyTable) -> String {
        "<!-- keys:\(table.id) -->\n**\(table.title)**\n\n\(table.markdown)\n<!-- /keys -->"
    }

    /// The ranges of the generated blocks in `text`, by table id.
    static func blocks(in text: String) -> [String: Range<String.Index>] {
        var found: [String: Range<String.Index>] = [:]
        var rest = text.startIndex..<text.endIndex
        while let open = text.range(of: "<!-- keys:", range: rest),
              let idEnd = text.range(of: " -->", range: open.upperBound..<text.endIndex),
              let close = text.range(of: "<!-- /keys -->", range: idEnd.upperBound..<text.endIndex) {
            found[String(text[open.upperBound..<idEnd.lowerBound])] = open.lowerBound..<close.upperBound
            rest = close.upperBound..<text.endIndex
        }
        return found
    }
}
