import LockerKit
import TerminalUI

/// The Penalties tab: a filterable, searchable list of the 48 penalties and a detail pane for
/// the selected one (description, the six sanctions with the right one lit, referee / judge,
/// articles). Side by side from 110 columns, stacked below that.
public final class PenaltiesScreen: TabScreen {
    public let tab = Tab.penalties
    let viewModel: PenaltiesViewModel
    private var list = ListState()
    private var search = SearchState()
    private var listHeight = 10
    /// Which of the selected penalty's articles Enter opens (Tab moves it).
    private var articleFocus = 0
    private var focusedPenalty: String?
    /// A sentence shown until the next key that is not a move in the list: an article Enter
    /// could not open, a search that found nothing.
    private var oneTimeMessage: String?
    /// Opens an article in the Rules tab; false when the Rules digest has no such article.
    public var openArticle: ((String) -> Bool)?

    public init(viewModel: PenaltiesViewModel) {
        self.viewModel = viewModel
    }

    /// What the Penalties tab is doing: browsing the list, or typing a search (every key then
    /// goes to the field). The keys, the footer and `capturesText` derive from it.
    enum Mode { case browsing, searching }
    private(set) var mode = Mode.browsing

    public var capturesText: Bool { mode == .searching }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    // MARK: Keys

    public func handle(_ key: Key) -> Bool {
        let l = viewModel.localizer
        // While the search is typed, every key goes to the field.
        if mode == .searching { return activeKeys(l).handle(key) }
        // Any key but a move in the list drops the one-time message.
        let problem = oneTimeMessage
        oneTimeMessage = nil
        let used = activeKeys(l).handle(key)
        if used && Self.moveKeys.contains(key) { oneTimeMessage = problem }
        return used
    }

    private static let moveKeys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [listKeys(l), searchKeys(l)]
    }

    /// The list's keys, also while the search is typed (the footer stays the list's).
    /// The search field's keys while it is typed into (every key goes to it), else the list's.
    public func activeKeys(_ l: Localizer) -> KeyTable {
        if mode == .searching { return searchKeys(l) }
        // Every key and every frame ask for this table; its bindings read the screen when they
        // act, so it is made again only when the language changes.
        return listKeyTable.value(for: l.language) { listKeys(l) }
    }

    private var listKeyTable = Memo<Language, KeyTable>()
    /// "12 of 40 penalties", asked for by every frame; made again when a count or the language changes.
    private var countsText = Memo<Counts, String>()
    private struct Counts: Equatable { var shown: Int, total: Int, language: Language }

    /// The keys of the list and its detail pane.
    private func listKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "penalties", title: l.t("Penalties"), [
            KeyBinding(Self.moveKeys, help: l.t("Choose a penalty; its details follow"),
                       footer: l.t("move"), footerKeys: "↑↓") { key in
                var state = self.list
                state.setCount(self.viewModel.visible.count)
                state.select(self.viewModel.selectedIndex)
                guard state.handle(key, pageSize: self.listHeight) else { return false }
                self.viewModel.select(state.selected)
                return true
            }.ranked(200),   // everyone tries the arrows: the footer keeps the tab's own keys first
            KeyBinding([.character("s")], help: l.t("Filter by sanction: all, then each of the six"), footer: l.t("sanction")) {
                self.viewModel.cycleSanctionFilter()
                self.refreshSearch()
            },
            KeyBinding([.character("o")], help: l.t("Filter by who applies it: anyone, referee, judge"), footer: l.t("who")) {
                self.viewModel.cycleOwnerFilter()
                self.refreshSearch()
            },
            KeyBinding([.character("/")], help: l.t("Search descriptions and articles; Enter keeps the search"), footer: l.t("search")) {
                self.search.begin()
                self.mode = .searching
            },
            KeyBinding([.character("n"), .character("N")], help: l.t("Next / previous match")) { key in
                if let hit = self.search.step(forward: key == .character("n")) { self.viewModel.select(hit) }
                else { self.oneTimeMessage = SearchState.nothingToRepeat(l) }
                return true
            },
            KeyBinding([.tab, .backTab], help: l.t("Choose which of the penalty's articles Enter opens")) { key in
                guard let penalty = self.viewModel.selected, !penalty.articles.isEmpty else { return false }
                let count = penalty.articles.count
                self.articleFocus = (self.currentArticleFocus + (key == .tab ? 1 : count - 1)) % count
                return true
            }.disabled {
                guard let penalty = self.viewModel.selected else { return l.t("No penalty matches these filters. Esc clears them.") }
                return penalty.articles.count < 2 ? l.t("This penalty cites one article: Enter opens it.") : nil
            },
            KeyBinding([.enter], help: l.t("Open the chosen article in the Rules tab"), footer: l.t("open article")) { _ in
                guard let penalty = self.viewModel.selected, let open = self.openArticle else { return false }
                let number = penalty.articles[self.currentArticleFocus]
                if !open(number) {
                    self.oneTimeMessage = self.viewModel.localizer.t("There is no article {number} in the digest.", ["number": number])
                }
                return true
            }.disabled {
                self.viewModel.selected == nil ? l.t("No penalty matches these filters. Esc clears them.") : nil
            },
            KeyBinding([.escape], help: l.t("Clear the search, then the filters")) { _ in
                if !self.search.query.isEmpty { self.search.clear(); return true }
                if self.viewModel.hasFilters { self.viewModel.clearFilters(); return true }
                return false
            },
        ])
    }

    private func searchKeys(_ l: Localizer) -> KeyTable {
        .searchTyping(id: "penalties-search", l, search: { self.search }, type: { self.search.handleTyping($0) }, clear: { self.search.clear() },
                      apply: { self.updateSearch(from: self.viewModel.selectedIndex) }, done: { self.mode = .browsing },
                      missed: { self.oneTimeMessage = $0 })
    }

    /// The article focus within the selected penalty's articles (only reads: `layout` moves it
    /// back to the first article when another penalty is selected).
    private var currentArticleFocus: Int {
        guard let penalty = viewModel.selected else { return 0 }
        return min(articleFocus, max(0, penalty.articles.count - 1))
    }

    private var searchableTexts: [String] {
        viewModel.visible.map { viewModel.description(of: $0) + " " + $0.articles.joined(separator: " ") + " " + $0.id }
    }

    private func updateSearch(from index: Int) {
        search.update(items: searchableTexts, from: index)
        if let hit = search.currentHit { viewModel.select(hit) }
    }

    private func refreshSearch() {
        if !search.liveQuery.isEmpty { search.update(items: searchableTexts, from: viewModel.selectedIndex) }
    }

    // MARK: Status

    public func status(_ l: Localizer) -> String? {
        if let oneTimeMessage { return oneTimeMessage }
        guard viewModel.book != nil else { return nil }
        let counts = Counts(shown: viewModel.visible.count, total: viewModel.total, language: l.language)
        var parts = [countsText.value(for: counts) {
            l.n("{shown} of {count} penalty", "{shown} of {count} penalties", count: counts.total, ["shown": String(counts.shown)])
        }]
        if let search = search.status(l) { parts.append(search) }
        return parts.joined(separator: " · ")
    }

    // MARK: Drawing

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard viewModel.book != nil else {
            let message = l.t("The penalty table could not be loaded: {reason}", ["reason": viewModel.loadError?.description ?? "?"])
            for (i, line) in WordWrap.wrap(message, width: rect.width - 2).enumerated() where i < rect.height {
                surface.write(line, x: rect.x + 1, y: rect.y + 1 + i, style: Style(.bad, [.bold]), clip: rect)
            }
            return
        }
        let (bar, body) = rect.splitTop(1)
        renderFilterBar(into: surface, rect: bar, context: context)
        let (listRect, divider, detailRect, sideBySide) = panes(body)
        if sideBySide {
            for y in divider.y..<divider.maxY { surface.write(context.glyphs.vertical, x: divider.x, y: y, style: Style(.border)) }
        } else {
            surface.repeatGlyph(context.glyphs.horizontal, x: divider.x, y: divider.y, count: divider.width, style: Style(.border))
        }
        renderList(into: surface, rect: listRect, context: context)
        renderDetail(into: surface, rect: detailRect, context: context)
        // The screen reader cursor stays on the selected row, not in the detail pane.
        if mode == .searching { renderSearchPrompt(into: surface, rect: bar, context: context) }
    }

    private func renderFilterBar(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let sanction = viewModel.sanctionFilter.map { viewModel.glyph(of: $0, ascii: context.glyphs.ascii) + " " + viewModel.label(of: $0) } ?? l.t("all")
        let owner: String
        switch viewModel.ownerFilter {
        case .any: owner = l.t("anyone")
        case .referee: owner = l.t("referee")
        case .judge: owner = l.t("judge")
        }
        var x = rect.x + 1
        x = surface.write(l.t("Sanction:") + " ", x: x, y: rect.y, style: Style(.muted), clip: rect)
        x = surface.write(sanction, x: x, y: rect.y, style: Style(viewModel.sanctionFilter == nil ? .text : .accent, [.bold]), clip: rect)
        x = surface.write("   " + l.t("Who:") + " ", x: x, y: rect.y, style: Style(.muted), clip: rect)
        surface.write(owner, x: x, y: rect.y, style: Style(viewModel.ownerFilter == .any ? .text : .accent, [.bold]), clip: rect)
    }

    private func renderSearchPrompt(into surface: Surface, rect: Rect, context: RenderContext) {
        surface.fill(rect)
        let label = context.localizer.t("Search:") + " "
        let x = surface.write(label, x: rect.x + 1, y: rect.y, style: Style(.accent, [.bold]), clip: rect)
        TextField().render(search.field, into: surface, rect: Rect(x: x, y: rect.y, width: rect.maxX - x, height: 1), focused: true)
    }

    /// Below the filter bar: the list and the selected penalty's details, side by side from 110
    /// columns, else one above the other; `divider` is the column or row between them.
    private func panes(_ body: Rect) -> (list: Rect, divider: Rect, detail: Rect, sideBySide: Bool) {
        if body.width >= 110 {
            let (left, right) = body.splitLeft(body.width * 11 / 20)
            return (left, Rect(x: right.x, y: right.y, width: 1, height: right.height),
                    Rect(x: right.x + 2, y: right.y, width: right.width - 3, height: right.height), true)
        }
        let (top, bottom) = body.splitTop(max(3, body.height * 2 / 5))
        return (top, bottom.row(0), Rect(x: bottom.x + 1, y: bottom.y + 1, width: bottom.width - 2, height: bottom.height - 1), false)
    }

    public func layout(_ area: Rect, context: RenderContext) {
        listHeight = panes(area.splitTop(1).1).list.height
        if focusedPenalty != viewModel.selected?.id {
            focusedPenalty = viewModel.selected?.id
            articleFocus = 0
        }
        list.setCount(viewModel.visible.count)
        list.select(viewModel.selectedIndex)
        list.scrollToSelection(height: listHeight)
    }

    private func renderList(into surface: Surface, rect: Rect, context: RenderContext) {
        if viewModel.visible.isEmpty {
            surface.write(context.localizer.t("No penalty matches these filters. Esc clears them."),
                          x: rect.x + 1, y: rect.y, style: Style(.muted), clip: rect)
            return
        }
        let query = search.liveQuery
        let refereeInitial = context.localizer.t("R", context: "referee initial")
        let judgeInitial = context.localizer.t("J", context: "judge initial")
        let hidden = context.glyphs.ascii ? "." : "·"
        let textWidth = rect.width - 7 - (viewModel.visible.count > rect.height ? 1 : 0)
        // Made once a frame, not once a row: each row finds its sanction among six (a
        // dictionary would hash the key for every row).
        let glyphs = Sanction.allCases.map { ($0, viewModel.glyph(of: $0, ascii: context.glyphs.ascii) + " ") }
        let layout = TextLayout(width: textWidth, language: viewModel.language, ascii: context.glyphs.ascii)
        if layout != rowTextLayout { rowTextCache = []; rowTextLayout = layout }
        let visible = viewModel.visible
        ListView().render(list, into: surface, rect: rect) { index, _ in
            // A row reads the fields it shows: a copy of the whole penalty would retain its texts
            // and articles, for every row of every frame.
            let sanction = visible[index].sanction, referee = visible[index].referee, judge = visible[index].judge
            let mark = query.isEmpty || !self.search.hits.contains(index) ? " " : "›"
            return [
                Span(mark, Style(.match)),
                Span(glyphs.first { $0.0 == sanction }?.1 ?? "? ", Style(.accent, [.bold])),
                Span(referee ? refereeInitial : hidden, Style(referee ? .text : .muted)),
                Span(judge ? judgeInitial : hidden, Style(judge ? .text : .muted)),
                Span(self.rowText(visible, index, width: textWidth, context: context)),
            ]
        }
    }

    /// What the cached texts were made for: a change of any empties the caches.
    private struct TextLayout: Equatable {
        var width: Int
        var language: Language
        var ascii: Bool
    }

    /// Row texts cut to the list width, by the penalty's place in the book: made once per
    /// `rowTextLayout` (checked once a frame by `renderList`), not on every key.
    private var rowTextCache: [String?] = []
    private var rowTextLayout: TextLayout?

    private func rowText(_ visible: [Penalty], _ index: Int, width: Int, context: RenderContext) -> String {
        let place = visible[index].index
        if place < rowTextCache.count, let text = rowTextCache[place] { return text }
        let text = "  " + viewModel.description(of: visible[index]).truncated(toWidth: width, ellipsis: context.glyphs.ellipsis)
        if place >= rowTextCache.count { rowTextCache += Array(repeating: nil, count: place + 1 - rowTextCache.count) }
        rowTextCache[place] = text
        return text
    }

    /// The detail pane's lines of each penalty shown (and article lit), composed once per
    /// `detailLayout`: going back to a penalty only draws them.
    private var detailCache: [DetailKey: [[Span]]] = [:]
    private var detailLayout: TextLayout?

    private struct DetailKey: Hashable {
        var penalty: String
        var articleFocus: Int
    }

    /// The context the detail pane was last drawn in, to compose the neighbours' panes while
    /// keys pause (`idleWork`).
    private var detailContext: RenderContext?

    private func renderDetail(into surface: Surface, rect: Rect, context: RenderContext) {
        guard let penalty = viewModel.selected, !rect.isEmpty else { return }
        let layout = TextLayout(width: rect.width, language: viewModel.language, ascii: context.glyphs.ascii)
        if layout != detailLayout { detailCache = [:]; detailLayout = layout }
        detailContext = context
        let key = DetailKey(penalty: penalty.id, articleFocus: currentArticleFocus)
        let lines: [[Span]]
        if let cached = detailCache[key] {
            lines = cached
        } else {
            lines = detailLines(penalty, focus: key.articleFocus, width: rect.width, context: context)
            detailCache[key] = lines
        }
        for (offset, spans) in lines.prefix(rect.height).enumerated() where !spans.isEmpty {
            surface.write(spans, x: rect.x, y: rect.y + offset, clip: rect)
        }
    }

    /// While keys pause, the detail panes of the penalties above and below the selected one are
    /// composed, so that a move (and holding an arrow key) only draws: composing one wraps its
    /// texts, a third of a move's own work at 80×24.
    public var idleWork: IdleWork? {
        guard let neighbour = uncomposedNeighbour, let context = detailContext, let width = detailLayout?.width else { return nil }
        return IdleWork(.warmUp) { [weak self] in
            guard let self else { return }
            // A new penalty's pane opens on its first article.
            self.detailCache[DetailKey(penalty: neighbour.id, articleFocus: 0)] =
                self.detailLines(neighbour, focus: 0, width: width, context: context)
        }
    }

    /// The penalty below the selected one, else the one above, whose pane is not composed yet.
    private var uncomposedNeighbour: Penalty? {
        guard detailLayout?.language == viewModel.language else { return nil }
        let visible = viewModel.visible, index = viewModel.selectedIndex
        return [index + 1, index - 1].lazy.filter { visible.indices.contains($0) }.map { visible[$0] }
            .first { self.detailCache[DetailKey(penalty: $0.id, articleFocus: 0)] == nil }
    }

    /// The detail pane of `penalty` with its article `focus` lit, a line of spans each, cut to
    /// `width` (an empty line is a gap).
    private func detailLines(_ penalty: Penalty, focus: Int, width: Int, context: RenderContext) -> [[Span]] {
        let l = context.localizer
        var lines: [[Span]] = []
        func line(_ spans: [Span]) { lines.append(Span.truncated(spans, toWidth: width, ellipsis: context.glyphs.ellipsis)) }
        func gap() { lines.append([]) }
        for text in WordWrap.wrap(viewModel.description(of: penalty), width: width) { line([Span(text, Style(.title, [.bold]))]) }
        gap()
        // The six sanctions as chips, the one that applies lit; labels line up under a heading.
        let heading = [l.t("Sanction"), l.t("Who"), l.t("Articles")].map(\.displayWidth).max()! + 2
        var chips: [[Span]] = [[]]
        var used = heading
        for sanction in Sanction.allCases {
            let lit = sanction == penalty.sanction
            // The one that applies is bracketed too, so it reads without colour (a screen reader,
            // NO_COLOR, --ascii): "[- -2 points]" among " 0 0 point ".
            let (open, close) = lit ? ("[", "]") : (" ", " ")
            let text = open + viewModel.glyph(of: sanction, ascii: context.glyphs.ascii) + " " + viewModel.label(of: sanction) + close
            let chipWidth = text.displayWidth + 1
            if used + chipWidth > width && !chips[chips.count - 1].isEmpty { chips.append([]); used = heading }
            chips[chips.count - 1].append(Span(text, lit ? Style(.active, [.bold]) : Style(.muted)))
            chips[chips.count - 1].append(Span(" "))
            used += chipWidth
        }
        for (i, row) in chips.enumerated() {
            line([Span((i == 0 ? l.t("Sanction") : "").padded(toWidth: heading), Style(.muted))] + row)
        }
        let referee = " " + (penalty.referee ? context.glyphs.check : " ") + " " + l.t("Referee") + " "
        let judge = " " + (penalty.judge ? context.glyphs.check : " ") + " " + l.t("Judge") + " "
        // What the list's second column means: "R·" referee, "·J" judges, "RJ" both.
        let legend = l.t("in the list: {referee} referee, {judge} judges", ["referee": l.t("R", context: "referee initial"),
                                                                              "judge": l.t("J", context: "judge initial")])
        let who = [Span(l.t("Who").padded(toWidth: heading), Style(.muted)),
                   Span(referee, penalty.referee ? Style(.active, [.bold]) : Style(.muted)), Span(" "),
                   Span(judge, penalty.judge ? Style(.active, [.bold]) : Style(.muted))]
        let whoWidth = who.reduce(0) { $0 + $1.text.displayWidth }
        if whoWidth + 3 + legend.displayWidth <= width {
            line(who + [Span("   " + legend, Style(.muted))])
        } else {
            // Too narrow for both (Italian at 80 columns): the legend goes under, wrapped.
            line(who)
            for text in WordWrap.wrap(legend, width: max(10, width - heading - 1)) {
                line([Span(String(repeating: " ", count: heading + 1)), Span(text, Style(.muted))])
            }
        }
        // The 2024 articles as links (the one Enter opens is lit), then summary and 2017 numbers.
        var links: [Span] = [Span((l.t("Articles")).padded(toWidth: heading), Style(.muted))]
        let focused = focus
        for (i, number) in penalty.articles.enumerated() {
            links.append(Span(" " + number + " ", i == focused ? Style(.accent, [.bold, .underline]) : Style(.accent)))
        }
        line(links)
        var extra: [String] = []
        if !penalty.summaryArticles.isEmpty {
            extra.append(l.t("summary: {numbers}", ["numbers": penalty.summaryArticles.joined(separator: ", ")]))
        }
        if !penalty.articles2017.isEmpty { extra.append("2017: " + penalty.articles2017.joined(separator: ", ")) }
        for text in WordWrap.wrap(extra.joined(separator: " · "), width: max(10, width - heading - 1)) where !extra.isEmpty {
            line([Span(String(repeating: " ", count: heading + 1)), Span(text, Style(.muted))])
        }
        gap()
        for text in WordWrap.wrap(viewModel.explanation(of: penalty.sanction), width: width) { line([Span(text, Style(.muted))]) }
        return lines
    }
}
