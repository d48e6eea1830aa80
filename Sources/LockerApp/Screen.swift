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
///
/// Four requirements say what a screen is (its keys, and how it draws); the others have
/// defaults, for the screens that have something to say.
public protocol Screen: AnyObject {
    /// Every key table of the screen, one per mode, in the interface language: the help overlay
    /// shows them all and docs/KEYS.md is checked against them. Labels and help texts never
    /// depend on the screen's state (footers and actions may).
    func keyTables(_ localizer: Localizer) -> [KeyTable]
    /// The table of the mode the screen is in now: `handle` runs it, the footer shows it.
    func activeKeys(_ localizer: Localizer) -> KeyTable
    /// Handles a key the shell did not take. Returns whether it was used.
    func handle(_ key: Key) -> Bool
    /// Draws the screen into `rect` (the area of the last `layout`) and parks the cursor on the
    /// focused item. Drawing only reads.
    func render(into surface: Surface, rect: Rect, context: RenderContext)

    /// Computes, from the area the screen is given, what keys and drawing need: list heights,
    /// text wrapped to the width, scroll positions that keep the selection in view. The shell
    /// calls it before each key and each frame; it is the only place layout is stored.
    func layout(_ area: Rect, context: RenderContext)
    /// A short status for the status line when no notice is shown ("12 of 48").
    func status(_ localizer: Localizer) -> String?
    /// When the screen's status message goes away by itself (nil: none), so the run loop wakes
    /// to redraw without it.
    var messageExpiry: Date? { get }
    /// True while a text field has focus: global keys (digits, q, L, T …) then go to the screen.
    var capturesText: Bool { get }
    /// The question the screen asks (abandon a quiz, book a game), which the shell draws on the
    /// status line's rows, where every question of the app is asked.
    var question: ConfirmDialog? { get }
    /// What quitting now would lose, as the quit question says it ("The quiz under way …");
    /// nil when nothing would be lost.
    func unsavedWork(_ localizer: Localizer) -> String?
    /// Work to do while keys pause, so a key later is only its own change and drawing:
    /// preparing what keys use (the Rules text folded for search), or saving a change (so
    /// holding an arrow key does not write the file at every step). Nil when there is none.
    var idleWork: IdleWork? { get }
    /// What a key or an answer produced for the shell, once: text to copy, notices for the
    /// status line (a file set aside at start-up, another program's change).
    func takeEffects() -> ScreenEffects
    /// What the screen's glyphs mean ("✓ passed or secured"), shown in the help after the keys
    /// of the current mode; nil when it draws none that need saying.
    func legend(_ localizer: Localizer, glyphs: Glyphs) -> HelpSection?
    /// Registers a callback for changes of the screen's view-model (so the app redraws).
    func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken?
}

/// Work a screen does while keys pause (`Screen.idleWork`).
public struct IdleWork {
    public enum Kind: Equatable {
        /// Preparing what keys will use; done soon after keys pause.
        case warmUp
        /// Writing a pending change; done once keys pause a little longer, and at quit.
        case save
        /// Waiting for a write already on its way; done at quit only.
        case beforeQuit
    }

    public let kind: Kind
    public let run: () -> Void

    public init(_ kind: Kind, _ run: @escaping () -> Void) {
        self.kind = kind
        self.run = run
    }
}

/// What a screen hands the shell once (`Screen.takeEffects`).
public struct ScreenEffects {
    /// Text to put on the clipboard (a map link), where the terminal allows it.
    public var clipboard: String?
    /// Lines for the status line, shown one after another whatever tab is open.
    public var notices: [String]

    public init(clipboard: String? = nil, notices: [String] = []) {
        self.clipboard = clipboard
        self.notices = notices
    }
}

/// The screen of one of the app's tabs.
public protocol TabScreen: Screen {
    var tab: Tab { get }
}

extension Screen {
    /// The active table's footer hints, most important first.
    public func footerHints(_ localizer: Localizer) -> [KeyHint] { activeKeys(localizer).footerHints }
    public func layout(_ area: Rect, context: RenderContext) {}
    public func status(_ localizer: Localizer) -> String? { nil }
    public var messageExpiry: Date? { nil }
    public var capturesText: Bool { false }
    public var question: ConfirmDialog? { nil }
    public func unsavedWork(_ localizer: Localizer) -> String? { nil }
    public var idleWork: IdleWork? { nil }
    public func takeEffects() -> ScreenEffects { ScreenEffects() }
    public func legend(_ localizer: Localizer, glyphs: Glyphs) -> HelpSection? { nil }
    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? { nil }

    /// What the quit question says of edits not saved yet.
    public func unsavedChanges(_ localizer: Localizer) -> String { localizer.t("You have unsaved changes.") }
}
