import LockerKit
import TerminalUI
@testable import LockerApp

/// A tab that draws nothing and takes no key: shell tests fill the tabs they do not look at
/// with it (the shell needs a screen for every tab).
final class BlankScreen: TabScreen {
    let tab: Tab
    init(tab: Tab) { self.tab = tab }
    func keyTables(_ localizer: Localizer) -> [KeyTable] { [] }
    func activeKeys(_ localizer: Localizer) -> KeyTable { KeyTable(id: "blank", title: "", []) }
    func handle(_ key: Key) -> Bool { false }
    func render(into surface: Surface, rect: Rect, context: RenderContext) {}

    /// `screens`, with a blank screen for every tab they leave out.
    static func filling(_ screens: [TabScreen]) -> [TabScreen] {
        screens + Tab.allCases.filter { tab in !screens.contains { $0.tab == tab } }.map { BlankScreen(tab: $0) }
    }
}
