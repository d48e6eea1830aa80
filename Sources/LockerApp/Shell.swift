import FoundationEssentials
import LockerKit
import TerminalUI

/// The tab shell: global keys, tab routing, the help overlay, the quit question, and the frame
/// around every screen (tab bar, status line, footer). It frames either the app's tabs or one
/// console of its own (`locker meet DIR`), whose title takes the tab bar's place and which has no
/// tab keys. It draws into any `Surface`, so view tests render it in memory exactly as the
/// terminal shows it.
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
    private var tabs: [Tab: TabSlot]
    /// The one screen of a console shell, with its title (nil: the app's tabs).
    private let console: (screen: Screen, title: (Localizer) -> String)?
    private var help: TextViewState?
    /// The frame as last laid out (nil below the minimum size).
    private var frame: Frame?
    private var quitDialog: ConfirmDialog?
    private var tokens: [ObservationToken] = []
    /// Set when something changed since the last frame.
    public private(set) var needsRender = true
    /// Lines tabs want seen from every tab (today's games), each drawn above the tabs other than
    /// its own, started once keys pause.
    private let attention: [AttentionSource]
    /// The bell rings once per urgent line (`AttentionLine.bellID`).
    private var bellRungFor: Set<String> = []
    private var bellPending = false

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

    private var localizer: Localizer { viewModel.localizer }
    public var currentScreen: Screen { console?.screen ?? tabs[viewModel.tab]!.screen }
    /// Every screen the shell frames and has built (a tab not built yet has nothing to say).
    private var allScreens: [Screen] { console.map { [$0.screen] } ?? Tab.allCases.compactMap { tabs[$0]?.built } }
    /// The title of what is shown: the console's, or the current tab's name.
    private var pageTitle: String { console?.title(localizer) ?? TabRegistry.title(of: viewModel.tab, localizer) }
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

    private var globalTable: (language: Language, table: KeyTable)?

    private func refreshGlobalKeys() {
        guard globalTable?.language != viewModel.language else { return }
        globalTable = (viewModel.language, makeGlobalKeys())
    }

    private func makeGlobalKeys() -> KeyTable {
        let l = localizer
        let help = KeyBinding([.character("?"), .function(1)], "? F1", help: l.t("This help"), footer: l.t("help"), footerKeys: "?") { [unowned self] in
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

            KeyBinding([.character("]"), .character("[")], "] [", help: l.t("Next / previous tab")) { [unowned self] key in
                if key == .character("]") { self.viewModel.nextTab() } else { self.viewModel.previousTab() }
                return true
            },
        ]
        return KeyTable(id: console == nil ? "global" : "console-global", title: l.t("Global keys"), [help] + (console == nil ? tabs : []) + [
            KeyBinding([.character("L")], "L", help: l.t("Next language: en → fr → es → it"), footer: l.t("language")) { [unowned self] in
                self.viewModel.cycleLanguage()
                TextMatcher.language = self.localizer.language.rawValue
            }.ranked(1000),
            KeyBinding([.character("T")], "T", help: l.t("Next theme: {themes}", ["themes": [l.t("dark"), l.t("light"), l.t("no colour")].joined(separator: " → ")]), footer: l.t("theme")) { [unowned self] in
                self.viewModel.cycleTheme()
            }.ranked(1010),
            .described("q", help: l.t("Quit (asks first when edits are unsaved)"), footer: l.t("quit")),
            .described("Ctrl-C", help: l.t("Quit at once")),
            .described("Ctrl-L", help: l.t("Redraw the screen")),
            .described("↑ ↓ PgUp PgDn", help: l.t("Move; Home and End jump to the ends")),
            .described("Enter / Esc", help: l.t("Open or confirm / go back or cancel")),
            .described("Tab", help: l.t("Move focus (Shift-Tab: back)")),
            .described("/ n N", help: l.t("Search; next / previous hit")),
        ])
    }

    private func requestQuit() -> Action {
        let losses = allScreens.compactMap { $0.unsavedWork(localizer) }
        guard !losses.isEmpty else { return .quit }
        quitDialog = ConfirmDialog(title: localizer.t("Quit Locker?"),
                                   message: losses.joined(separator: " ") + " " + localizer.t("Quit anyway?"),
                                   yesLabel: localizer.t("Quit"), noLabel: localizer.t("Stay"))
        return .none
    }

    /// Periodic work while no key comes (and after a wake-up): deliver background results,
    /// expire the notice, write pending settings.
    public func tick(now: Date = Date()) {
        if background?.deliver() == true { needsRender = true }
        if viewModel.expireNotice(now: now) { needsRender = true }
        // A screen's own message that has just gone is drawn away.
        let expired = allScreens.compactMap(\.messageExpiry).filter { $0 <= now && $0 > lastExpiryDrawn }
        if let latest = expired.max() {
            lastExpiryDrawn = latest
            needsRender = true
        }
        viewModel.saveSettingsIfNeeded()
        flushPendingWork()
        startAttention(now: now)
        let builtOne = warmUpNextScreen()
        collectEffects()
        if builtOne { return }
        // Relative times ("in 12 minutes") move on, and a line may become urgent.
        if attention.contains(where: { $0.started && $0.attentionRefresh != nil }) {
            needsRender = true
            checkBell()
        }
    }

    /// Takes what the screens built so far produced: their notices go to the status line (a
    /// grades or quiz file set aside at start-up, a file another program changed), one after
    /// another so none is hidden behind another; text to copy waits for the next frame.
    private func collectEffects() {
        for screen in allScreens {
            let effects = screen.takeEffects()
            for notice in effects.notices {
                viewModel.post(.warning, notice)
                needsRender = true
            }
            if let text = effects.clipboard { clipboard = text }
        }
    }

    /// Text a screen asked to copy, until the app takes it.
    private var clipboard: String?

    /// Starts each attention source once keys pause: a quarter second on its own tab, a full
    /// second elsewhere (its first look starts a helper process, kept out of the middle of
    /// typing and of quick tab switches).
    private func startAttention(now: Date) {
        let idle = now.timeIntervalSince(lastKeyAt) * 1000
        for source in attention where !source.started && idle >= Double(attentionDelay(source)) { source.start() }
    }

    private func attentionDelay(_ source: AttentionSource) -> Int {
        source.tab == viewModel.tab ? Shell.attentionDelayOnItsTab : Shell.attentionDelay
    }

    /// Asks for the bell when an urgent line appears that has not rung yet.
    private func checkBell() {
        for source in attention where source.started {
            guard let line = source.attention(), line.urgent, let id = line.bellID, !bellRungFor.contains(id) else { continue }
            bellRungFor.insert(id)
            bellPending = true
        }
    }

    /// Text a screen asked to copy, once (the app puts it on the clipboard, OSC 52).
    public func takeClipboard() -> String? {
        collectEffects()
        defer { clipboard = nil }
        return clipboard
    }

    /// True once after an urgent line appeared: the run loop rings the terminal bell.
    public func takeBell() -> Bool {
        defer { bellPending = false }
        return bellPending
    }

    /// Milliseconds without a key before pending changes are saved.
    static let saveDelay = 250

    /// Milliseconds without a key before the next unbuilt tab is built (after the first frame).
    static let warmUpDelay = 10
    /// Milliseconds without a key before attention sources (today's games) first look.
    static let attentionDelay = 1000
    /// The same on the source's own tab, where the user is waiting for it.
    static let attentionDelayOnItsTab = 250
    /// When the last key came (start-up counts as one).
    private var lastKeyAt = Date()
    /// The latest screen-message expiry already drawn away.
    private var lastExpiryDrawn = Date.distantPast

    /// Milliseconds the run loop may wait for a key before `tick` has work (nil: forever).
    public var idleTimeout: Int? {
        let idle = allScreens.compactMap(\.idleWork?.kind)
        if idle.contains(.warmUp) || tabs.values.contains(where: { $0.built == nil }) { return Shell.warmUpDelay }
        if idle.contains(.save) { return Shell.saveDelay }
        if let waiting = attention.filter({ !$0.started }).map(attentionDelay).min() { return waiting }
        if viewModel.notice != nil { return 500 }
        let now = Date()
        if let next = allScreens.compactMap(\.messageExpiry).filter({ $0 > now }).min() {
            return max(1, Int(next.timeIntervalSince(now) * 1000) + 1)
        }
        if viewModel.hasPendingSettings { return 1000 }
        return attention.filter(\.started).compactMap(\.attentionRefresh).min()
    }

    // MARK: Drawing

    /// Warms one tab up: the current one first (what its keys will use, such as the Rules text
    /// folded for search), then the tabs after it not built yet, so the first switch to one is as
    /// quick as any other. Returns whether one was warmed.
    func warmUpNextScreen() -> Bool {
        func warmUp(_ screen: Screen) -> Bool {
            guard let work = screen.idleWork, work.kind == .warmUp else { return false }
            work.run()
            return true
        }
        if let console { return warmUp(console.screen) }
        let order = Tab.allCases.count
        for offset in 0..<order {
            let tab = Tab.allCases[(viewModel.tab.number - 1 + offset) % order]
            guard let slot = tabs[tab] else { continue }
            guard let screen = slot.built else {
                _ = slot.screen
                return true
            }
            if warmUp(screen) { return true }
        }
        return false
    }

    /// Saves what every screen has pending (called when keys pause, and at quit).
    public func flushPendingWork() {
        for work in allScreens.compactMap(\.idleWork) where work.kind == .save { work.run() }
    }

    /// Where everything goes for one size: the current screen's area (below the tab bar and any
    /// attention line, above the status lines and the footer), the status text as wrapped, and
    /// the help overlay's box and lines.
    private struct Frame {
        var size: Size
        var content: Rect
        var status: StatusText
        var attention: AttentionLine?
        var help: HelpOverlay.Layout?
    }

    private var renderContext: RenderContext {
        RenderContext(localizer: localizer, glyphs: glyphs, colour: viewModel.theme != .mono)
    }

    /// Lays the frame out for `size` and lets the current screen lay itself out in its area:
    /// before every frame, and before a key when the frame on screen is stale. The only place
    /// layout changes; drawing then only reads.
    public func layout(size: Size) {
        guard size.width >= minimumSize.width, size.height >= minimumSize.height else {
            frame = nil
            return
        }
        // A long status message (an error, in a long language) takes up to three rows, growing
        // upwards, so it can be read whole.
        let attention = attentionLine()
        func contentRect(statusRows: Int) -> Rect {
            let top = attention == nil ? 1 : 2
            return Rect(x: 0, y: top, width: size.width, height: size.height - top - 1 - max(1, statusRows))
        }
        // The status describes the laid-out screen (a jump, a resize), and its height shapes the
        // screen's area: lay out, read the status, and lay out again if its height changed.
        let statusWidth = size.width - statusLanguage.displayWidth - 2
        var status = statusText(width: statusWidth, glyphs: glyphs)
        var content = contentRect(statusRows: status.lines.count)
        currentScreen.layout(content, context: renderContext)
        let described = statusText(width: statusWidth, glyphs: glyphs)
        if max(1, described.lines.count) != max(1, status.lines.count) {
            content = contentRect(statusRows: described.lines.count)
            currentScreen.layout(content, context: renderContext)
            status = statusText(width: statusWidth, glyphs: glyphs)
        } else {
            status = described
        }
        var helpLayout: HelpOverlay.Layout?
        if var state = help {
            let laidOut = helpOverlay().layout(in: content)
            state.setLines(laidOut.lines, height: laidOut.inner.height)
            help = state
            helpLayout = laidOut
        }
        frame = Frame(size: size, content: content, status: status, attention: attention, help: helpLayout)
    }

    /// Lays out for the surface's size, then draws.
    public func render(into surface: Surface) {
        needsRender = false
        let size = Size(width: surface.width, height: surface.height)
        layout(size: size)
        guard let frame else {
            renderTooSmall(into: surface, size: size)
            return
        }
        let context = renderContext
        let bounds = surface.bounds
        let selectedTab: Range<Int>
        if console != nil {
            // A console's title alone, where the tabs would be.
            surface.fill(bounds.row(0), style: Style(.bar))
            let title = " " + pageTitle.truncated(toWidth: max(1, bounds.width - 4), ellipsis: glyphs.ellipsis) + " "
            selectedTab = 1..<surface.write(title, x: 1, y: 0, style: Style(.tabActive), clip: bounds.row(0))
        } else {
            let titles = TabRegistry.entries.map { $0.title(localizer) }
            selectedTab = TabBar(titles: titles, shortTitles: TabRegistry.entries.map { $0.shortTitle(localizer) },
                                 selected: viewModel.tab.number - 1)
                .render(into: surface, row: bounds.row(0))
        }
        if let line = frame.attention { AttentionBar.render(line, into: surface, row: bounds.row(1)) }
        surface.cursor = nil
        currentScreen.render(into: surface, rect: frame.content, context: context)
        if surface.cursor == nil { surface.parkCursor(x: selectedTab.lowerBound, y: 0) }
        let statusRows = max(1, frame.status.lines.count)
        renderStatus(frame.status, into: surface, rows: Rect(x: 0, y: bounds.height - 1 - statusRows, width: bounds.width, height: statusRows))
        if let help, let layout = frame.help {
            // The help covers the tab below it completely.
            surface.fill(Rect(x: 0, y: 1, width: bounds.width, height: bounds.height - 2))
            helpOverlay().render(help, layout: layout, into: surface)
        }
        let footer = footer()
        Footer(hints: footer.hints, pinned: footer.pinned).render(into: surface, row: bounds.row(bounds.height - 1))
        // A question (quit, or the tab's own) on the status line's rows, above the footer.
        if let question = quitDialog ?? (help == nil ? currentScreen.question : nil) {
            question.render(into: surface, area: Rect(x: 0, y: 1, width: bounds.width, height: bounds.height - 2))
        }
    }

    /// The line drawn above the current tab: the first attention source's, unless the tab is its own.
    private func attentionLine() -> AttentionLine? {
        attention.lazy.filter { $0.started && $0.tab != self.viewModel.tab }.compactMap { $0.attention() }.first
    }

    /// The tab a digit key selects (1 is the first tab of `TabRegistry`), or nil.
    static func tabNumber(_ key: Key) -> Int? {
        guard let character = key.character, let number = character.wholeNumberValue, character.isASCII,
              (1...TabRegistry.entries.count).contains(number) else { return nil }
        return number
    }

    /// The keys of the open help overlay: the footer shows them and `handle` runs them.
    private func helpKeys() -> KeyTable {
        let l = localizer
        return KeyTable(id: "help", title: l.t("Help — {tab}", ["tab": pageTitle]), [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end, .character(" ")] + ViMoves.keys, "↑ ↓ PgUp PgDn Space Home End " + ViMoves.label, help: l.t("scroll"),
                       footer: l.t("scroll"), footerKeys: "↑↓") { [unowned self] key in
                guard var state = self.help else { return false }
                _ = state.handle(key, height: self.frame?.help?.inner.height ?? 1)
                self.help = state
                return true
            },
            KeyBinding([.character("a")], "a", help: l.t("About Locker: what it is, and where its data comes from"), footer: l.t("about")) { [unowned self] in
                guard var state = self.help, let layout = self.frame?.help,
                      let first = AboutText.sections(l).first?.heading,
                      let line = layout.lines.firstIndex(where: { $0.text == first }) else { return }
                state.scroll(to: line, height: layout.inner.height)
                self.help = state
            },
            KeyBinding([.escape, .character("?"), .function(1), .character("q"), .enter], "Esc ? F1 q Enter", help: l.t("close"),
                       footer: l.t("close"), footerKeys: "Esc") { [unowned self] in self.help = nil },
        ])
    }

    /// The footer (the global keys only when they act, not while a field is typed into, where
    /// they would be typed): its hints, and those it keeps at its end: `? help` and `q quit` stay when space
    /// is short, and the screen's hints give way first.
    func footer() -> (hints: [KeyHint], pinned: [KeyHint]) {
        if let quitDialog { return (quitDialog.footerHints(choose: localizer.t("choose")), []) }
        if help != nil { return (helpKeys().footerHints, []) }
        let screen = currentScreen.footerHints(localizer)
        if currentScreen.capturesText { return (screen, []) }
        var global = globalKeys().footerHints
        if currentScreen.activeKeys(localizer).binds(.character("q")) { global.removeAll { $0.key == "q" } }
        let pinnedKeys: Set<String> = ["?", "q"]
        return (screen + global.filter { !pinnedKeys.contains($0.key) }, global.filter { pinnedKeys.contains($0.key) })
    }

    static let maxStatusRows = 3

    private var statusLanguage: String { " \(viewModel.language.rawValue.uppercased()) " }

    /// The status line as drawn, wrapped once per frame: the notice (a banner in its kind's
    /// style) or else the screen's status (muted, its web addresses made links).
    private struct StatusText {
        var lines: [String] = []
        var style = Style(.muted)
        var links = false
    }

    private func statusText(width: Int, glyphs: Glyphs) -> StatusText {
        if let notice = viewModel.notice {
            let banner = Banner(notice.message, kind: bannerKind(notice.kind))
            return StatusText(lines: banner.lines(width: width, maxRows: Shell.maxStatusRows, glyphs: glyphs), style: banner.style)
        }
        guard let status = currentScreen.status(localizer) else { return StatusText() }
        let key = StatusKey(text: status, width: width, ellipsis: glyphs.ellipsis)
        if key != wrappedStatus.key {
            wrappedStatus = (key, Banner.wrap(status, width: width, maxRows: Shell.maxStatusRows, ellipsis: glyphs.ellipsis))
        }
        return StatusText(lines: wrappedStatus.lines, links: true)
    }

    /// The screen's status as last wrapped: a frame asks for it twice (before and after the
    /// screen's layout) and it seldom changes between frames.
    private struct StatusKey: Equatable { var text: String, width: Int, ellipsis: String }
    private var wrappedStatus: (key: StatusKey?, lines: [String]) = (nil, [])

    private func renderStatus(_ status: StatusText, into surface: Surface, rows: Rect) {
        let right = statusLanguage
        let rightX = rows.maxX - right.displayWidth
        surface.write(right, x: rightX, y: rows.maxY - 1, style: Style(.muted))
        let left = Rect(x: rows.x, y: rows.y, width: max(0, rightX - rows.x - 1), height: rows.height)
        for (i, line) in status.lines.enumerated() {
            surface.write(line, x: left.x + 1, y: left.y + i, style: status.style, clip: left)
            // A web address in the status line (a game's map link) is also a terminal hyperlink.
            if status.links, let start = line.firstRange(of: "https://") {
                let url = String(line[start.lowerBound...].prefix { !$0.isWhitespace })
                let x = left.x + 1 + String(line[..<start.lowerBound]).displayWidth
                if x + url.displayWidth <= left.maxX {
                    surface.hyperlinks.append(Hyperlink(x: x, y: left.y + i, text: url, url: url))
                }
            }
        }
    }

    private func bannerKind(_ kind: Notice.Kind) -> Banner.Kind {
        switch kind {
        case .info: return .info
        case .success: return .success
        case .warning: return .warning
        case .error: return .error
        }
    }

    /// The keys of the mode the screen is in first, then its other modes', then the global keys.
    private func helpSections() -> [HelpSection] {
        let active = currentScreen.activeKeys(localizer)
        let others = currentScreen.keyTables(localizer).filter { $0.id != active.id }
        let legend = currentScreen.legend(localizer, glyphs: glyphs).map { [$0] } ?? []
        // The About page ends the help, as the Diving Rules app's About tab ends its tabs.
        let about = AboutText.sections(localizer).map { HelpSection(title: $0.heading, hints: [], paragraphs: $0.paragraphs) }
        return ([active.helpSection] + legend + others.map(\.helpSection) + [globalKeys().helpSection]).filter { !$0.hints.isEmpty } + about
    }

    private func helpOverlay() -> HelpOverlay {
        HelpOverlay(title: localizer.t("Help — {tab}", ["tab": pageTitle]),
                    sections: helpSections(),
                    closeHint: localizer.t("Esc or ? closes · ↑↓ PgUp PgDn scroll"))
    }

    private func renderTooSmall(into surface: Surface, size: Size) {
        var text = localizer.t("Locker needs a terminal of at least {min}. This one is {size}. Please enlarge it, or press q to quit.",
                               ["min": "\(minimumSize.width)×\(minimumSize.height)",
                                "size": "\(size.width)×\(size.height)"])
        // q asked first: the question is what shows, with its answers.
        if let dialog = quitDialog {
            text = dialog.title + " " + dialog.message + " " + dialog.footerHints(choose: "").prefix(2).map { "\($0.key) \($0.label)" }.joined(separator: " · ")
        }
        let lines = WordWrap.wrap(text, width: max(1, size.width - 2))
        let top = max(0, (size.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < size.height {
            let x = max(0, (size.width - line.displayWidth) / 2)
            surface.write(line, x: x, y: top + i, style: Style(.warn, [.bold]))
        }
        surface.parkCursor(x: 0, y: top)
    }
}
