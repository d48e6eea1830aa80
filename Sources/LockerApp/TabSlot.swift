import FoundationEssentials
import LockerKit
import TerminalUI

/// One tab's place in the shell: its screen, built the first time it is shown — or earlier, when
/// the shell warms it up while keys pause after the first frame — so start-up pays only for the
/// tab it opens on. It is not a `Screen` and forwards nothing: the shell asks `screen` (which
/// builds it) where the tab must be there, and `built` where a tab not built yet has nothing to
/// say (no unsaved work, no message), so a member added to `Screen` needs no change here.
final class TabSlot {
    let tab: Tab
    private let make: () -> Screen
    /// The screen, once built.
    private(set) var built: Screen?
    private var whenBuilt: [(Screen) -> Void] = []

    init(tab: Tab, make: @escaping () -> Screen) {
        self.tab = tab
        self.make = make
    }

    /// A slot whose screen is already built.
    init(_ screen: TabScreen) {
        tab = screen.tab
        make = { screen }
        built = screen
    }

    /// The screen, built on first use.
    var screen: Screen {
        if let built { return built }
        let screen = make()
        built = screen
        let waiting = whenBuilt
        whenBuilt = []
        for action in waiting { action(screen) }
        return screen
    }

    /// Runs `action` with the screen once it is built (now, if it is).
    func whenBuilt(_ action: @escaping (Screen) -> Void) {
        if let built { action(built) } else { whenBuilt.append(action) }
    }
}

/// A value computed once, on first use (bundled files shared by several tabs).
final class Lazy<Value> {
    private let make: () -> Value
    private var value: Value?
    init(_ make: @escaping () -> Value) { self.make = make }
    var get: Value {
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}
