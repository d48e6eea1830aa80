import FoundationEssentials
import LockerKit
import TerminalUI

/// The help overlay: its keys, its sections (the current mode's keys first, the glyphs'
/// legend, the other modes', the global keys) and the About page at its end.
extension Shell {
    /// The keys of the open help overlay: the footer shows them and `handle` runs them.
    func helpKeys() -> KeyTable {
        let l = localizer
        return KeyTable(id: "help", title: l.t("Help — {tab}", ["tab": pageTitle]), [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end, .character(" ")] + ViMoves.keys, help: l.t("scroll"),
                       footer: l.t("scroll"), footerKeys: "↑↓") { [unowned self] key in
                guard var state = self.help else { return false }
                _ = state.handle(key, height: self.frame?.help?.inner.height ?? 1)
                self.help = state
                return true
            },
            KeyBinding([.character("a")], help: l.t("About Locker: what it is, and where its data comes from"), footer: l.t("about")) { [unowned self] in
                guard var state = self.help, let layout = self.frame?.help,
                      let first = AboutText.sections(l).first?.heading,
                      let line = layout.lines.firstIndex(where: { $0.text == first }) else { return }
                state.scroll(to: line, height: layout.inner.height)
                self.help = state
            },
            KeyBinding([.escape, .character("?"), .function(1), .character("q"), .enter], help: l.t("close"),
                       footer: l.t("close"), footerKeys: "Esc") { [unowned self] in self.help = nil },
        ])
    }

    /// The keys of the mode the screen is in first, then its other modes', then the global keys.
    func helpSections() -> [HelpSection] {
        let active = currentScreen.activeKeys(localizer)
        let others = currentScreen.keyTables(localizer).filter { $0.id != active.id }
        let legend = currentScreen.legend(localizer, glyphs: glyphs).map { [$0] } ?? []
        // The About page ends the help, as the Diving Rules app's About tab ends its tabs.
        let about = AboutText.sections(localizer).map { HelpSection(title: $0.heading, hints: [], paragraphs: $0.paragraphs) }
        return ([active.helpSection] + legend + others.map(\.helpSection) + [globalKeys().helpSection]).filter { !$0.hints.isEmpty } + about
    }

    func helpOverlay() -> HelpOverlay {
        HelpOverlay(title: localizer.t("Help — {tab}", ["tab": pageTitle]),
                    sections: helpSections(),
                    closeHint: localizer.t("Esc or ? closes · ↑↓ PgUp PgDn scroll"))
    }
}
