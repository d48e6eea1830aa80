import FoundationEssentials
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

/// A screen the shell frames (one of the app's tabs, or a console of its own such as the meet's):
/// binds a view-model to widgets and maps keys to the view-model's intents. Screens never change
/// models themselves and never do I/O.
public protocol Screen: AnyObject {
    /// Every key table of the screen, one per mode, in the interface language: the help overlay
    /// shows them all and docs/KEYS.md is checked against them. Labels and help texts never
    /// depend on the screen's state (footers and actions may).
    func keyTables(_ localizer: Localizer) -> [KeyTable]
    /// The table of the mode the screen is in now: `handle` runs it, the footer shows it.
    func activeKeys(_ localizer: Localizer) -> KeyTable
    /// A short status for the status line when no notice is shown ("12 of 48").
    func status(_ localizer: Localizer) -> String?
    /// Handles a key the shell did not take. Returns whether it was used.
    func handle(_ key: Key) -> Bool
    /// Computes, from the area the screen is given, what keys and drawing need: list heights,
    /// text wrapped to the width, scroll positions that keep the selection in view. The shell
    /// calls it before each key and each frame; it is the only place layout is stored.
    func layout(_ area: Rect, context: RenderContext)
    /// Draws the screen into `rect` (the area of the last `layout`) and parks the cursor on the
    /// focused item. Drawing only reads.
    func render(into surface: Surface, rect: Rect, context: RenderContext)
    /// True while a text field has focus: global keys (digits, q, L, T …) then go to the screen.
    var capturesText: Bool { get }
    /// True when quitting now would lose edits; `q` then asks first.
    var hasUnsavedChanges: Bool { get }
    /// What quitting now would lose, as the quit question says it ("The quiz under way …");
    /// by default "unsaved changes" while `hasUnsavedChanges`.
    func unsavedWork(_ localizer: Localizer) -> String?
    /// Registers a callback for changes of the screen's view-model (so the app redraws).
    func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken?
    /// True while a change waits to be saved; the app saves it once keys pause (or at quit),
    /// so holding an arrow key does not write the file at every step.
    var hasPendingWork: Bool { get }
    /// Saves what is pending.
    func flushPendingWork()
    /// True while the screen has work that a key would otherwise wait for: building itself
    /// (see `LazyScreen`), or preparing what its keys use (the Rules text folded for search).
    var needsWarmUp: Bool { get }
    /// Does that work now, while keys pause, so a key later is only its own change and drawing.
    func warmUp()
    /// Text a key asked to copy (a map link), taken once by the app for the next frame.
    func takeClipboard() -> String?
    /// The question the screen asks (abandon a quiz, book a game), which the shell draws on the
    /// status line's rows, where every question of the app is asked.
    var question: ConfirmDialog? { get }
    /// When the screen's status message goes away by itself (nil: none), so the run loop wakes
    /// to redraw without it.
    var messageExpiry: Date? { get }
    /// Problems found while the screen was built (a file set aside at start-up), once: the shell
    /// shows them in the status line whatever tab is open, one after another.
    func takeStartupProblems() -> [String]
    /// What the screen's glyphs mean ("✓ passed or secured"), shown in the help after the keys
    /// of the current mode; nil when it draws none that need saying.
    func legend(_ localizer: Localizer, glyphs: Glyphs) -> HelpSection?
}

/// The screen of one of the app's tabs.
public protocol TabScreen: Screen {
    var tab: Tab { get }
}

extension Screen {
    /// The active table's footer hints, most important first.
    public func footerHints(_ localizer: Localizer) -> [KeyHint] { activeKeys(localizer).footerHints }
    public func status(_ localizer: Localizer) -> String? { nil }
    public func layout(_ area: Rect, context: RenderContext) {}
    public var capturesText: Bool { false }
    public var hasUnsavedChanges: Bool { false }
    public func unsavedWork(_ localizer: Localizer) -> String? {
        hasUnsavedChanges ? localizer.t("You have unsaved changes.") : nil
    }
    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? { nil }
    public var hasPendingWork: Bool { false }
    public func flushPendingWork() {}
    public var needsWarmUp: Bool { false }
    public func warmUp() {}
    public func takeClipboard() -> String? { nil }
    public var question: ConfirmDialog? { nil }
    public var messageExpiry: Date? { nil }
    public func takeStartupProblems() -> [String] { [] }
    public func legend(_ localizer: Localizer, glyphs: Glyphs) -> HelpSection? { nil }
}
