import FoundationEssentials
import LockerKit
import TerminalUI

/// The tab shell: global keys, tab routing, the help overlay, the quit question, and the frame
/// around every screen (tab bar, status line, footer). It frames either the app's tabs or one
/// console of its own (`locker meet DIR`), whose title takes the tab bar's place and which has no
/// tab keys. It draws into any `Surface`, so view tests render it in memory exactly as the
/// terminal shows it.
///
/// This file holds its state and routes keys; `ShellFrame.swift` lays out and draws the frame,
/// `ShellHelp.swift` is the help overlay, and `ShellIdle.swift` is what happens while keys pause.
public final class Shell {
    /// What the run loop must do after a key.
    public enum Action: Equatable { case none, quit, repaint }

    /// Below this size the shell asks for a larger terminal instead of drawing screens.
    public static let minimumSize = Size(width: 60, height: 20)
    /// This shell's smallest size: the tabs' `minimumSize`, or a console's own (a judge's pad
    /// fits a phone's 40×12).
    public let minimumSize: Size

    public let viewModel: ShellViewModel
    public private(set) var glyphs: Glyphs
    var tabs: [Tab: TabSlot]
    /// The one screen of a console shell, with its title (nil: the app's tabs).
    let console: (screen: Screen, title: (Localizer) -> String)?
    var help: TextViewState?
    /// The frame as last laid out (nil below the minimum size).
    var frame: Frame?
    var quitDialog: ConfirmDialog?
    var tokens: [ObservationToken] = []
    /// Set when something changed since the last frame.
    public internal(set) var needsRender = true
    /// Lines tabs want seen from every tab (today's games), each drawn above the tabs other than
    /// its own, started once keys pause.
    let attention: [AttentionSource]
    /// The bell rings once per urgent line (`AttentionLine.bellID`).
    var bellRungFor: Set<String> = []
    var bellPending = false

    /// When the last key came (start-up counts as one).
    var lastKeyAt = Date()

    /// The latest screen-message expiry already drawn away.
    var lastExpiryDrawn = Date.distantPast

    /// Text a screen asked to copy, until the app takes it.
    var clipboard: String?
    /// The screens' statuses as wrapped lately, by text and width (`ShellFrame.swift`).
    var wrappedStatuses: [StatusKey: [String]] = [:]
    /// The tab bar's labels as fitted for a language, width and tab (`ShellFrame.swift`).
    var fittedTabLabels: (key: TabLabelsKey?, labels: [String]) = (nil, [])

    /// Where screens' slow work runs; its results are delivered here, on the UI thread, when
    /// the run loop wakes.
    public var background: BackgroundWork?

    /// A shell of the app's tabs: one screen for every tab.
    public convenience init(viewModel: ShellViewModel, screens: [TabScreen], attention: [AttentionSource] = [], glyphs: Glyphs) {
        self.init(viewModel: viewModel, tabs: screens.map(TabSlot.init), attention: attention, glyphs: glyphs)
    }

    /// A shell of the app's tabs, each built when first needed.
    init(viewModel: ShellViewModel, tabs: [TabSlot], attention: [AttentionSource] = [], glyphs: Glyphs) {
        let byTab = Dictionary(tabs.map { ($0.tab, $0) }, uniquingKeysWith: { _, last in last })
        precondition(byTab.count == Tab.allCases.count, "the shell needs a screen for every tab")
        self.tabs = byTab
        console = nil
        minimumSize = Shell.minimumSize
        self.viewModel = viewModel
        self.attention = attention
        self.glyphs = glyphs
        observeScreens()
    }

    /// A console's shell: one screen, its title where the tab bar would be, and no tab keys.
    public init(viewModel: ShellViewModel, console screen: Screen, title: @escaping (Localizer) -> String, glyphs: Glyphs,
                minimumSize: Size = Shell.minimumSize) {
        tabs = [:]
        console = (screen, title)
        self.minimumSize = minimumSize
        self.viewModel = viewModel
        attention = []
        self.glyphs = glyphs
        observeScreens()
    }

    private func observeScreens() {
        tokens.append(viewModel.observe { [weak self] in
            self?.needsRender = true
            self?.refreshGlobalKeys()
        })
        let observe = { [weak self] (screen: Screen) in
            guard let self, let token = screen.observeChanges({ [weak self] in self?.needsRender = true }) else { return }
            tokens.append(token)
        }
        if let console { observe(console.screen) }
        for slot in tabs.values { slot.whenBuilt(observe) }
        for source in attention {
            tokens.append(source.observe { [weak self] in
                self?.needsRender = true
                self?.checkBell()
            })
        }
        refreshGlobalKeys()
    }

    var localizer: Localizer { viewModel.localizer }
    public var currentScreen: Screen { console?.screen ?? tabs[viewModel.tab]!.screen }
    /// Every screen the shell frames and has built (a tab not built yet has nothing to say).
    var allScreens: [Screen] { console.map { [$0.screen] } ?? Tab.allCases.compactMap { tabs[$0]?.built } }
    /// The title of what is shown: the console's, or the current tab's name.
    var pageTitle: String { console?.title(localizer) ?? TabRegistry.title(of: viewModel.tab, localizer) }
    public var isHelpOpen: Bool { help != nil }
    public var isAskingToQuit: Bool { quitDialog != nil }

    // MARK: Keys

    /// Routes one key: overlays first, then global keys (unless a text field has focus), then
    /// the current screen.
    public func handle(_ key: Key, size: Size) -> Action {
        lastKeyAt = Date()
        // Keys act on the frame on screen; it is laid out again only when it is stale (something
        // changed since it was drawn, or the size did).
        let frameIsStale = needsRender || frame?.size != size
        needsRender = true
        switch key {
        case .control("c"): return .quit
        case .control("l"): return .repaint
        case .resize: return .none
        default: break
        }
        if size.width < minimumSize.width || size.height < minimumSize.height {
            // The quit question, when q asks one, is answered here too (it is drawn in place
            // of the "please enlarge" text).
            if var dialog = quitDialog {
                let answer = dialog.handle(key)
                quitDialog = answer == nil ? dialog : nil
                return answer == .yes ? .quit : .none
            }
            return key == .character("q") ? requestQuit() : .none
        }
        if frameIsStale { layout(size: size) }
        if var dialog = quitDialog {
            let answer = dialog.handle(key)
            quitDialog = answer == nil ? dialog : nil
            return answer == .yes ? .quit : .none
        }
        if help != nil {
            _ = helpKeys().handle(key)
            return .none
        }
        let screen = currentScreen
        if screen.capturesText {
            _ = screen.handle(key)
            return .none
        }
        // q quits, unless the screen's mode takes it (a box that q closes, as in less and tig).
        if key == .character("q") && !screen.activeKeys(localizer).binds(key) { return requestQuit() }
        if globalKeys().handle(key) { return .none }
        if !screen.handle(key) {
            // A key that cannot act now says why; an unused Esc clears the message.
            if let reason = screen.activeKeys(localizer).disabledReason(for: key) {
                viewModel.post(.info, reason)
            } else if key == .escape {
                viewModel.clearNotice()
            }
        }
        return .none
    }

    /// The keys every tab shares, built when the shell starts and again when the interface
    /// language changes (every key and every frame read them). `q` is declared here and
    /// answered in `handle`, which returns what the run loop must do; Ctrl-C and Ctrl-L are
    /// answered before anything else.
    func globalKeys() -> KeyTable { globalTable?.table ?? makeGlobalKeys() }

    var globalTable: (language: Language, table: KeyTable)?

    func refreshGlobalKeys() {
        guard globalTable?.language != viewModel.language else { return }
        globalTable = (viewModel.language, makeGlobalKeys())
    }

    func makeGlobalKeys() -> KeyTable {
        let l = localizer
        let help = KeyBinding([.character("?"), .function(1)], help: l.t("This help"), footer: l.t("help"), footerKeys: "?") { [unowned self] in
            self.help = TextViewState()
        }
        let tabs = [
            KeyBinding(matching: { Shell.tabNumber($0) != nil }, "1 … \(TabRegistry.entries.count)",
                       help: TabRegistry.entries.map { $0.title(l) }.joined(separator: ", "), footer: l.t("tabs"),
                       footerKeys: "1-\(TabRegistry.entries.count)") { [unowned self] key in
                guard let number = Shell.tabNumber(key) else { return false }
                self.viewModel.select(TabRegistry.entries[number - 1].tab)
                return true
            }.ranked(25),   // after a mode's two first hints: how to reach the other tabs stays

            KeyBinding([.character("]"), .character("[")], help: l.t("Next / previous tab")) { [unowned self] key in
                if key == .character("]") { self.viewModel.nextTab() } else { self.viewModel.previousTab() }
                return true
            },
        ]
        return KeyTable(id: console == nil ? "global" : "console-global", title: l.t("Global keys"), [help] + (console == nil ? tabs : []) + [
            KeyBinding([.character("L")], help: l.t("Next language: en → fr → es → it"), footer: l.t("language")) { [unowned self] in
                self.viewModel.cycleLanguage()
                TextMatcher.language = self.localizer.language.rawValue
            }.ranked(1000),
            KeyBinding([.character("T")], help: l.t("Next theme: {themes}", ["themes": [l.t("dark"), l.t("light"), l.t("no colour")].joined(separator: " → ")]), footer: l.t("theme")) { [unowned self] in
                self.viewModel.cycleTheme()
            }.ranked(1010),
            .described([.character("q")], help: l.t("Quit (asks first when edits are unsaved)"), footer: l.t("quit")),
            .described([.control("c")], help: l.t("Quit at once")),
            .described([.control("l")], help: l.t("Redraw the screen")),
            .described([.up, .down, .pageUp, .pageDown, .home, .end], help: l.t("Move; Home and End jump to the ends")),
            .described([.enter, .escape], help: l.t("Open or confirm / go back or cancel")),
            .described([.tab, .backTab], help: l.t("Move focus (Shift-Tab: back)")),
            .described([.character("/"), .character("n"), .character("N")], help: l.t("Search; next / previous hit")),
        ])
    }

    func requestQuit() -> Action {
        let losses = allScreens.compactMap { $0.unsavedWork(localizer) }
        guard !losses.isEmpty else { return .quit }
        quitDialog = ConfirmDialog(title: localizer.t("Quit Locker?"),
                                   message: losses.joined(separator: " ") + " " + localizer.t("Quit anyway?"),
                                   yesLabel: localizer.t("Quit"), noLabel: localizer.t("Stay"))
        return .none
    }

    /// The tab a digit key selects (1 is the first tab of `TabRegistry`), or nil.
    static func tabNumber(_ key: Key) -> Int? {
        guard let character = key.character, let number = character.wholeNumberValue, character.isASCII,
              (1...TabRegistry.entries.count).contains(number) else { return nil }
        return number
    }
}
