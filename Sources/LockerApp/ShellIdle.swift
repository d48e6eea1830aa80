import FoundationEssentials
import LockerKit
import TerminalUI

/// What the shell does while keys pause: background results, expiring messages, saving,
/// warming tabs up, the screens' effects, today's games and the bell.
extension Shell {
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
        // The other languages' catalogues, read on another core, so `L` only switches.
        viewModel.localizer.prefetch()
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
    func collectEffects() {
        for screen in allScreens {
            let effects = screen.takeEffects()
            for notice in effects.notices {
                viewModel.post(.warning, notice)
                needsRender = true
            }
            if let text = effects.clipboard { clipboard = text }
        }
    }


    /// Starts each attention source once keys pause: a quarter second on its own tab, a full
    /// second elsewhere (its first look starts a helper process, kept out of the middle of
    /// typing and of quick tab switches).
    func startAttention(now: Date) {
        let idle = now.timeIntervalSince(lastKeyAt) * 1000
        for source in attention where !source.started && idle >= Double(attentionDelay(source)) { source.start() }
    }

    func attentionDelay(_ source: AttentionSource) -> Int {
        source.tab == viewModel.tab ? Shell.attentionDelayOnItsTab : Shell.attentionDelay
    }

    /// Asks for the bell when an urgent line appears that has not rung yet.
    func checkBell() {
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

    /// Milliseconds the run loop may wait for a key before `tick` has work (nil: forever).
    public var idleTimeout: Int? {
        let screens = allScreens
        let idle = screens.compactMap(\.idleWork?.kind)
        if idle.contains(.warmUp) || tabs.values.contains(where: { $0.built == nil }) { return Shell.warmUpDelay }
        if idle.contains(.save) { return Shell.saveDelay }
        if let waiting = attention.filter({ !$0.started }).map(attentionDelay).min() { return waiting }
        if viewModel.notice != nil { return 500 }
        let now = Date()
        if let next = screens.compactMap(\.messageExpiry).filter({ $0 > now }).min() {
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

    /// Saves what every screen has pending (called when keys pause).
    public func flushPendingWork() {
        for work in allScreens.compactMap(\.idleWork) where work.kind == .save { work.run() }
    }

    /// At quit: saves what every screen has pending and waits for writes on their way.
    public func finishBeforeQuit() {
        flushPendingWork()
        for work in allScreens.compactMap(\.idleWork) where work.kind == .beforeQuit { work.run() }
    }
}
