import LockerKit
import TerminalUI

/// What a screen gets to draw with.
public struct RenderContext {
    public let localizer: Localizer
    public let glyphs: Glyphs
    /// False in the mono theme (and with NO_COLOR): meaning must then not rest on colour.
    public let colour: Bool

    public init(localizer: Localizer, glyphs: Glyphs, colour: Bool = true) {
        self.localizer = localizer
        self.glyphs = glyphs
        self.colour = colour
    }
}

/// One tab's screen: binds a view-model to widgets and maps keys to the view-model's intents.
/// Screens never change models themselves and never do I/O.
public protocol Screen: AnyObject {
    var tab: Tab { get }
    /// Keys for the footer, most important first.
    func footerHints(_ localizer: Localizer) -> [KeyHint]
    /// This screen's keys for the help overlay.
    func helpSections(_ localizer: Localizer) -> [HelpSection]
    /// A short status for the status line when no notice is shown ("12 of 48").
    func status(_ localizer: Localizer) -> String?
    /// Handles a key the shell did not take. Returns whether it was used.
    func handle(_ key: Key) -> Bool
    /// Draws the screen into `rect` and parks the cursor on the focused item.
    func render(into surface: Surface, rect: Rect, context: RenderContext)
    /// True while a text field has focus: global keys (digits, q, L, T …) then go to the screen.
    var capturesText: Bool { get }
    /// True when quitting now would lose edits; `q` then asks first.
    var hasUnsavedChanges: Bool { get }
    /// Registers a callback for changes of the screen's view-model (so the app redraws).
    func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken?
    /// True while a change waits to be saved; the app saves it once keys pause (or at quit),
    /// so holding an arrow key does not write the file at every step.
    var hasPendingWork: Bool { get }
    /// Saves what is pending.
    func flushPendingWork()
    /// True while the screen has not built itself yet (see `LazyScreen`).
    var needsWarmUp: Bool { get }
    /// Builds the screen now (reads its files), so showing it later is only drawing.
    func warmUp()
}

extension Screen {
    public func status(_ localizer: Localizer) -> String? { nil }
    public var capturesText: Bool { false }
    public var hasUnsavedChanges: Bool { false }
    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? { nil }
    public var hasPendingWork: Bool { false }
    public func flushPendingWork() {}
    public var needsWarmUp: Bool { false }
    public func warmUp() {}
}

/// The screen of a tab whose feature has not landed yet: one honest line, no fake content.
public final class UnavailableScreen: Screen {
    public let tab: Tab

    public init(tab: Tab) { self.tab = tab }

    public func footerHints(_ localizer: Localizer) -> [KeyHint] { [] }
    public func helpSections(_ localizer: Localizer) -> [HelpSection] { [] }
    public func handle(_ key: Key) -> Bool { false }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let message = context.localizer.t("This tab is not available yet.")
        let line = rect.centered(width: min(rect.width, message.displayWidth), height: 1)
        surface.write(message, x: line.x, y: line.y, style: Style(.muted), clip: rect)
        surface.parkCursor(x: line.x, y: line.y)
    }
}
