import LockerKit
import TerminalUI

extension KeyTable {
    /// The keys while a search line is typed: Enter keeps the search, Esc drops it, every other
    /// key edits it. `type` hands the key to the screen's `SearchState.handleTyping`, `clear`
    /// empties that search, `apply` shows the hits (after Enter and after each change), `done`
    /// ends the screen's searching mode (after Enter and Esc). A search kept that found nothing
    /// is not kept: `clear` drops it and `missed` gets the sentence to show once ("No match for
    /// …"), so it does not stay in the status line after the next jump.
    public static func searchTyping(id: String, _ l: Localizer, search: @escaping () -> SearchState, type: @escaping (Key) -> SearchState.Event,
                                    clear: @escaping () -> Void, apply: @escaping () -> Void, done: @escaping () -> Void,
                                    missed: @escaping (String) -> Void) -> KeyTable {
        KeyTable(id: id, title: l.t("Search:"), [
            KeyBinding([.enter], help: l.t("keep"), footer: l.t("keep")) {
                _ = type(.enter)
                apply()
                let kept = search()
                if !kept.liveQuery.isEmpty && kept.currentHit == nil {
                    let sentence = kept.status(l) ?? ""
                    clear()
                    missed(sentence)
                }
                done()
            },
            KeyBinding([.escape], help: l.t("cancel"), footer: l.t("cancel")) { _ = type(.escape); clear(); done() },
            KeyBinding.typing(help: l.t("edit field")) { key in
                if type(key) == .changed { apply() }
                return true
            },
        ])
    }
}

extension SearchState {
    /// What `n` and `N` say when there is no search to step through (none was typed, or the
    /// last one found nothing and was dropped), as vim says "Pattern not found".
    static func nothingToRepeat(_ l: Localizer) -> String { l.t("No search to repeat: / starts one.") }

    /// The status line's words for the search in force: which hit is current and how many there
    /// are ("3 of 32 matches for “judge”"), or that there is none; nil without a search.
    /// While a search is typed, it speaks of what is typed (the hits follow each key).
    func status(_ l: Localizer) -> String? {
        let query = liveQuery
        guard !query.isEmpty else { return nil }
        guard let current else { return l.t("No match for “{query}”", ["query": query]) }
        return l.n("{current} of {count} match for “{query}”", "{current} of {count} matches for “{query}”", count: hits.count,
                   ["current": String(current + 1), "query": query])
    }
}
