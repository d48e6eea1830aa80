import FoundationEssentials
import LockerKit
import TerminalUI

/// A screen built the first time it is shown — or earlier, when the shell warms it up while keys
/// pause after the first frame — so start-up pays only for the tab it opens on. Until then it
/// forwards nothing and reports no unsaved changes; the shell's change callback is attached as
/// soon as the real screen exists.
final class LazyScreen: TabScreen {
    let tab: Tab
    private let make: () -> Screen
    private var made: Screen?
    private var observer: (() -> Void)?
    private var token: ObservationToken?

    init(tab: Tab, make: @escaping () -> Screen) {
        self.tab = tab
        self.make = make
    }

    /// The real screen, built on first use.
    var screen: Screen {
        if let made { return made }
        let built = make()
        made = built
        if let observer { token = built.observeChanges(observer) }
        return built
    }

    func keyTables(_ localizer: Localizer) -> [KeyTable] { screen.keyTables(localizer) }
    func activeKeys(_ localizer: Localizer) -> KeyTable { screen.activeKeys(localizer) }
    func status(_ localizer: Localizer) -> String? { screen.status(localizer) }
    func handle(_ key: Key) -> Bool { screen.handle(key) }
    func layout(_ area: Rect, context: RenderContext) { screen.layout(area, context: context) }
    func render(into surface: Surface, rect: Rect, context: RenderContext) { screen.render(into: surface, rect: rect, context: context) }
    var capturesText: Bool { made?.capturesText ?? false }
    var hasUnsavedChanges: Bool { made?.hasUnsavedChanges ?? false }
    func unsavedWork(_ localizer: Localizer) -> String? { made?.unsavedWork(localizer) }
    var hasPendingWork: Bool { made?.hasPendingWork ?? false }
    func flushPendingWork() { made?.flushPendingWork() }
    var needsWarmUp: Bool { made?.needsWarmUp ?? true }
    func warmUp() {
        if let made { made.warmUp() } else { _ = screen }
    }
    func takeClipboard() -> String? { made?.takeClipboard() }
    var messageExpiry: Date? { made?.messageExpiry }
    func takeStartupProblems() -> [String] { made?.takeStartupProblems() ?? [] }
    func legend(_ localizer: Localizer, glyphs: Glyphs) -> HelpSection? { screen.legend(localizer, glyphs: glyphs) }
    var question: ConfirmDialog? { made?.question }

    func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        observer = callback
        if let made { token = made.observeChanges(callback) }
        return nil
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
