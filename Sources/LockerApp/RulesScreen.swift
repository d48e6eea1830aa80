import FoundationEssentials
import LockerKit
import TerminalUI

/// The Rules tab: a table of contents by article and the whole digest as one scrolling text,
/// searchable with `/` (n/N across every article), `g` to go to an article by number, `o` to show
/// the imported official text instead of the digest. The contents pane shows from 100 columns;
/// below that `t` opens it in place of the text. `c` opens the dive calculator over the text.
public final class RulesScreen: TabScreen {
    public let tab = Tab.rules
    let viewModel: RulesViewModel
    let calculator: DiveCalculatorPane

    /// What the Rules tab is doing: one value; the keys, the footer, `capturesText`, the status
    /// and the drawing derive from it.
    enum Mode: Equatable {
        /// Reading the text (and the contents).
        case reading
        /// A search being typed (the query is the text view's `search`).
        case searching
        /// An article number being typed after `g`.
        case goingTo(TextFieldState)
        /// The dive calculator over the text.
        case calculator
    }

    private(set) var mode = Mode.reading
    private enum Focus { case contents, text }
    private var focus = Focus.text
    private var contentsOpen = false
    /// The digest as one text with a reading line (↑ ↓ move it; the text scrolls at its edges).
    private var text = TextViewState(readingLine: true)
    private var contents = ListState()
    @Expiring private var message: String?
    public var messageExpiry: Date? { $message.expiresAt }
    private var textHeight = 10
    private var contentsHeight = 10
    private var seenJump = -1
    /// Wrapped lines of the current document and the first line of each article.
    private var layoutKey = ""
    private var articleLines: [Int] = []

    /// Switches tabs: Esc goes back to the tab that opened an article (`openedFrom`).
    private let navigate: (Tab) -> Void

    public init(viewModel: RulesViewModel, calculator: DiveCalculatorViewModel, navigate: @escaping (Tab) -> Void = { _ in }) {
        self.viewModel = viewModel
        self.calculator = DiveCalculatorPane(viewModel: calculator)
        self.navigate = navigate
    }

    public var capturesText: Bool { mode != .reading }

    /// The text is folded for search while keys pause (after each wrap), not at the first
    /// letter typed in a search.
    /// While keys pause: the text folded for search, then the other languages' digests read on
    /// another core (so neither a search's first letter nor `L` waits for them).
    public var idleWork: IdleWork? {
        if !text.isSearchPrepared { return IdleWork(.warmUp) { self.text.prepareSearch() } }
        if !viewModel.digestsPrefetched { return IdleWork(.warmUp) { self.viewModel.prefetchDigests() } }
        return nil
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        let rules = viewModel.observe(callback)
        let dive = calculator.viewModel.observe(callback)
        return ObservationToken.combined([rules, dive])
    }

    // MARK: Keys

    public func handle(_ key: Key) -> Bool {
        let l = viewModel.localizer
        message = nil
        return activeKeys(l).handle(key)
    }

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [textKeys(l), searchKeys(l), gotoKeys(l), calculatorKeys(l)]
    }

    /// The table of the mode: the calculator's, the typed field's (every key goes to it), or
    /// the text's.
    public func activeKeys(_ l: Localizer) -> KeyTable {
        switch mode {
        case .reading: return textKeys(l)
        case .searching: return searchKeys(l)
        case .goingTo: return gotoKeys(l)
        case .calculator: return calculatorKeys(l)
        }
    }

    private var showsContents: Bool { contentsOpen || hasSideContents }

    /// The keys of the text and the contents.
    private func textKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "rules", title: l.t("Rules"), [
            // g goes to an article here; Home is the top.
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end, .character(" ")] + ViMoves.keysButG,
                       help: l.t("Move the reading line; the text scrolls at its edges (or move in the contents)")) { key in
                if self.focus == .contents && self.showsContents {
                    guard self.contents.handle(key, pageSize: self.contentsHeight) else { return false }
                    self.viewModel.open(index: self.contents.selected)
                    return true
                }
                guard self.text.handle(key, height: self.textHeight) else { return false }
                self.followText()
                return true
            },
            KeyBinding([.enter], help: l.t("Open the article chosen in the contents")) { _ in
                guard self.focus == .contents && self.showsContents else { return false }
                self.viewModel.open(index: self.contents.selected)
                if self.contentsOpen { self.contentsOpen = false; self.focus = .text }
                return true
            },
            KeyBinding([.character("/")], help: l.t("Search the whole digest; Enter keeps the search"), footer: l.t("search")) {
                self.text.beginSearch()
                self.mode = .searching
            },
            KeyBinding([.character("n"), .character("N")], help: l.t("Next / previous match")) { key in
                if self.text.stepSearch(forward: key == .character("n"), height: self.textHeight) { self.followText() }
                else { self.$message.confirm(SearchState.nothingToRepeat(l)) }
                return true
            },
            KeyBinding([.character("c")], help: l.t("Open the dive calculator: DD of a dive number, and the score of a panel's awards"),
                       footer: l.t("dive calculator")) {
                self.calculator.opened()
                self.mode = .calculator
            },
            KeyBinding([.character("g")], help: l.t("Go to an article by number, e.g. 8.5.4"), footer: l.t("go to")) {
                self.mode = .goingTo(TextFieldState("", maxLength: 12, allowed: { $0.isASCII && ($0.isNumber || $0 == ".") }))
            },
            KeyBinding([.character("o")], help: l.t("Show the imported official text instead of the digest, and back"),
                       footer: l.t("official")) {
                if !self.viewModel.toggleOfficial() {
                    self.message = self.viewModel.localizer.t("No official text imported yet. Run: locker rules import FILE.pdf")
                }
            },
            KeyBinding([.tab, .backTab], help: l.t("Switch between the contents and the text (wide terminals)"),
                       footer: hasSideContents ? l.t("contents") : nil) { _ in
                guard self.showsContents else { return false }
                self.focus = self.focus == .text ? .contents : .text
                return true
            }.disabled {
                self.showsContents ? nil : l.t("The contents are hidden: t shows them, then Tab moves between them and the text.")
            },
            KeyBinding([.character("t")], help: l.t("Show or hide the contents"), footer: hasSideContents ? nil : l.t("contents")) {
                self.contentsOpen.toggle()
                self.focus = self.contentsOpen ? .contents : .text
            },
            KeyBinding([.escape], help: l.t("Close the contents, then clear the search, then go back to the tab that opened the article"),
                       footer: backFooter(l)) { _ in
                if self.contentsOpen { self.contentsOpen = false; self.focus = .text; return true }
                if !self.text.search.query.isEmpty { self.text.search.clear(); return true }
                if let from = self.viewModel.openedFrom {
                    self.viewModel.openedFrom = nil
                    self.navigate(from)
                    return true
                }
                return false
            }.ranked(5),   // the way back to the tab that opened the article, when shown, goes last
        ])
    }

    private func searchKeys(_ l: Localizer) -> KeyTable {
        .searchTyping(id: "rules-search", l, search: { self.text.search }, type: { self.text.search.handleTyping($0) },
                      clear: { self.text.cancelSearch(); self.followText() },
                      apply: { self.text.applySearch(height: self.textHeight); self.followText() }, done: { self.mode = .reading },
                      missed: { self.$message.confirm($0) })
    }

    /// The keys while an article number is typed (after `g`).
    private func gotoKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "rules-goto", title: l.t("Go to article:"), [
            KeyBinding([.enter], help: l.t("go to"), footer: l.t("go to")) {
                guard case .goingTo(let field) = self.mode else { return }
                // "8.5.4." is 8.5.4, as a rule book writes it at the end of a sentence.
                var number = field.text
                while number.hasSuffix(".") { number.removeLast() }
                self.mode = .reading
                if number.isEmpty {
                    self.message = self.viewModel.localizer.t("Type an article's number after g, e.g. 8.5.4.")
                } else if !self.viewModel.open(number) {
                    self.message = self.viewModel.localizer.t("There is no article {number} in the digest.", ["number": number])
                }
            },
            KeyBinding([.escape], help: l.t("cancel"), footer: l.t("cancel")) {
                self.mode = .reading
            },
            KeyBinding.typing("0–9 .", help: l.t("edit field")) { key in
                if case .goingTo(var field) = self.mode {
                    _ = field.handle(key)
                    self.mode = .goingTo(field)
                }
                return true
            },
        ])
    }

    /// The dive calculator's keys; Esc closes it.
    private func calculatorKeys(_ l: Localizer) -> KeyTable {
        calculator.keyTable(l) { self.mode = .reading }
    }

    /// "back to penalties" (or to the quiz) while Esc would go back there (nothing else to close
    /// first).
    private func backFooter(_ l: Localizer) -> String? {
        guard let from = viewModel.openedFrom, !contentsOpen, text.search.query.isEmpty else { return nil }
        switch from {
        case .penalties: return l.t("back to penalties")
        case .quiz: return l.t("back to the quiz")
        default: return nil
        }
    }

    /// The contents pane shows beside the text from 100 columns (set by `layout`).
    private var hasSideContents = false

    /// Selects, in the contents, the article of the reading line (without jumping); a search
    /// step puts that line on the current hit.
    private func followText() {
        let line = text.currentLine
        guard let index = articleLines.lastIndex(where: { $0 <= line }) else { return }
        viewModel.select(index)
    }

    // MARK: Status

    public func status(_ l: Localizer) -> String? {
        if let message { return message }
        if mode == .calculator { return l.t("Dive calculator: DD from the 2024 component tables; scores as art. 7 of the rules.") }
        if let kept = viewModel.officialProblem {
            return l.t("The imported official text could not be read; it was kept as {file}. Import it again with locker rules import.", ["file": kept])
        }
        guard let article = viewModel.selected else { return nil }
        var parts = [l.t("Article {number}", ["number": article.number])]
        if let search = text.search.status(l) { parts.append(search) }
        let range = text.visibleRange(height: textHeight)
        parts.append(l.t("lines {first}–{last} of {total}", ["first": String(range.lowerBound), "last": String(range.upperBound), "total": String(text.lines.count)]))
        return parts.joined(separator: " · ")
    }

    // MARK: Drawing

    /// Below the header: the contents (beside the text from 100 columns, or in place of it while
    /// open) and the text, at most 100 columns wide after the reading line's gutter (its first
    /// column).
    private func panes(_ body: Rect) -> (text: Rect, contents: Rect?, divider: Rect?) {
        var text = body
        var contents: Rect?
        var divider: Rect?
        if body.width >= 100 {
            // A third of the width, or more on a wide terminal: as much as the longest title
            // needs, from what the 100-column text leaves.
            let spare = body.width - 1 - 101
            let wanted = max(min(40, body.width / 3), min(contentsWidthWanted, spare))
            let (left, right) = body.splitLeft(wanted)
            contents = left
            divider = Rect(x: right.x, y: right.y, width: 1, height: right.height)
            text = Rect(x: right.x + 1, y: right.y, width: right.width - 1, height: right.height)
        } else if contentsOpen {
            contents = body
        }
        // Lines longer than about 100 columns are hard to read on wide terminals.
        text.width = min(text.width, 101)
        return (text, contents, divider)
    }

    /// Wraps the text to its width, scrolls to an article asked for (a link from Penalties, `g`),
    /// and keeps the contents list on the current article.
    public func layout(_ area: Rect, context: RenderContext) {
        hasSideContents = area.width >= 100
        if !hasSideContents && focus == .contents && !contentsOpen { focus = .text }
        guard let digest = viewModel.digest else { return }
        measureContents()
        let panes = self.panes(area.splitTop(1).1)
        textHeight = panes.text.height
        // The gutter and the scroll bar take a column each.
        wrap(digest, width: panes.text.width - 2, context: context)
        if seenJump != viewModel.jumpRequest {
            seenJump = viewModel.jumpRequest
            if articleLines.indices.contains(viewModel.selectedIndex) {
                text.scroll(to: articleLines[viewModel.selectedIndex], height: textHeight)
            }
        }
        contents.setCount(digest.articles.count)
        contents.select(viewModel.selectedIndex)
        if let pane = panes.contents {
            contentsHeight = pane.height
            contents.scrollToSelection(height: contentsHeight)
            prepareContentsRows(digest, pane: pane, ellipsis: context.glyphs.ellipsis)
        }
    }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard let digest = viewModel.digest else {
            let reason = viewModel.loadError?.description ?? "?"
            let lines = WordWrap.wrap(l.t("The rules digest could not be loaded: {reason}", ["reason": reason]), width: rect.width - 2)
            for (i, line) in lines.enumerated() where i < rect.height {
                surface.write(line, x: rect.x + 1, y: rect.y + 1 + i, style: Style(.bad, [.bold]), clip: rect)
            }
            return
        }
        let (header, body) = rect.splitTop(1)
        renderHeader(into: surface, rect: header, context: context)
        let (textRect, contentsRect, divider) = panes(body)
        if let divider {
            for y in divider.y..<divider.maxY { surface.write(context.glyphs.vertical, x: divider.x, y: y, style: Style(.border)) }
        }
        if !(contentsOpen && !hasSideContents) {
            TextView().render(text, into: surface, rect: textRect)
        }
        if let contentsRect {
            renderContents(digest, into: surface, rect: contentsRect, context: context)
        }
        switch mode {
        case .goingTo(let gotoField):
            surface.fill(header)
            let label = l.t("Go to article:") + " "
            let x = surface.write(label, x: header.x + 1, y: header.y, style: Style(.accent, [.bold]), clip: header)
            TextField().render(gotoField, into: surface, rect: Rect(x: x, y: header.y, width: 14, height: 1), focused: true)
        case .searching:
            surface.fill(header)
            let x = surface.write(l.t("Search:") + " ", x: header.x + 1, y: header.y, style: Style(.accent, [.bold]), clip: header)
            TextField().render(text.search.field, into: surface, rect: Rect(x: x, y: header.y, width: header.maxX - x, height: 1), focused: true)
        case .calculator:
            calculator.render(into: surface, rect: body, context: context)
        case .reading:
            break
        }
    }

    private func renderHeader(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let title: String
        if viewModel.showOfficial, let official = viewModel.official {
            title = l.t("Official text ({file})", ["file": official.source])
        } else {
            title = l.t("Digest of the World Aquatics diving rules (2024) — not the official text")
        }
        // A title longer than the row (Spanish or Italian at 80 columns) ends with an ellipsis.
        surface.write(" " + title.truncated(toWidth: max(1, rect.width - 1), ellipsis: context.glyphs.ellipsis),
                      x: rect.x, y: rect.y, style: Style(.title, [.bold]), clip: rect)
    }

    /// The width the contents would need to show every title whole, measured by `layout` once
    /// per language (drawing only reads it).
    private var contentsWidthWanted = 0
    private var contentsMeasuredFor: Language?

    private func measureContents() {
        guard contentsMeasuredFor != viewModel.language else { return }
        contentsMeasuredFor = viewModel.language
        contentsWidthWanted = viewModel.digest?.articles.map { contentsEntry($0).number.displayWidth + $0.title.displayWidth }.max().map { $0 + 2 } ?? 0
    }

    /// The contents row of an article: its indented number, then its title.
    private func contentsEntry(_ article: RuleArticle) -> (number: String, title: String) {
        (" " + String(repeating: " ", count: 2 * (article.level - 1)) + article.number + " ", article.title)
    }

    /// The contents rows as drawn, made by `layout` once per digest, width and glyphs (drawing
    /// reads them: every row on every frame).
    private var contentsRows: [[Span]] = []
    private var contentsRowsKey = ""

    private func prepareContentsRows(_ digest: RulesDigest, pane: Rect, ellipsis: String) {
        let rowWidth = pane.width - (digest.articles.count > pane.height ? 1 : 0)
        let key = "\(viewModel.language.rawValue)|\(viewModel.showOfficial)|\(rowWidth)|\(ellipsis)|\(digest.articles.count)"
        guard key != contentsRowsKey else { return }
        contentsRowsKey = key
        contentsRows = digest.articles.map { article in
            let (number, title) = contentsEntry(article)
            let style = article.level == 1 ? Style(.accent, [.bold]) : Style(.text)
            // A title that does not fit ends with an ellipsis, never cut mid-word unannounced.
            let room = max(0, rowWidth - number.displayWidth)
            return [Span(number, style), Span(title.truncated(toWidth: room, ellipsis: ellipsis), article.level == 1 ? style : Style(.muted))]
        }
    }

    private func renderContents(_ digest: RulesDigest, into surface: Surface, rect: Rect, context: RenderContext) {
        let focused = focus == .contents
        let savedCursor = surface.cursor
        ListView().render(contents, into: surface, rect: rect, focused: focused) { index, _ in
            self.contentsRows.indices.contains(index) ? self.contentsRows[index] : []
        }
        if !focused {
            // The unfocused contents still point at the current article; the cursor (which
            // screen readers follow) stays in the text, where the text view parked it.
            let row = viewModel.selectedIndex - contents.visibleOffset(height: rect.height)
            if (0..<rect.height).contains(row) {
                surface.write(context.glyphs.pointer, x: rect.x, y: rect.y + row, style: Style(.accent, [.bold]), clip: rect)
            }
            surface.cursor = savedCursor
        }
    }

    /// The wrapped lines of article `index`, given where each article starts.
    private static func lines(of index: Int, starts: [Int], total: Int) -> Range<Int> {
        starts[index]..<(index + 1 < starts.count ? starts[index + 1] : total)
    }

    /// Wraps the document for `width` once per width, language and mode.
    private func wrap(_ digest: RulesDigest, width: Int, context: RenderContext) {
        let key = "\(width)|\(viewModel.language.rawValue)|\(viewModel.showOfficial)|\(viewModel.official?.importedAt.timeIntervalSince1970 ?? 0)"
        guard key != layoutKey else { return }
        layoutKey = key
        // Where the reading line is: in which article, how far into it, on which screen row. A
        // new width, language or text keeps it there; the first layout goes to the article.
        var anchor: (article: Int, fraction: Double, row: Int)?
        if let line = text.cursor, let article = articleLines.lastIndex(where: { $0 <= line }) {
            let lines = Self.lines(of: article, starts: articleLines, total: text.lines.count)
            anchor = (article, Double(line - lines.lowerBound) / Double(max(1, lines.count)), line - text.offset)
        }
        var lines: [TextLine] = []
        var starts: [Int] = []
        let missing = context.localizer.t("(not found in the imported rule book)")
        for article in digest.articles {
            starts.append(lines.count)
            let headingStyle = article.level <= 2 ? Style(.accent, [.bold]) : Style(.title, [.bold])
            for line in WordWrap.wrap(article.number + "  " + article.title, width: width) { lines.append(TextLine(line, headingStyle)) }
            let body: String
            if viewModel.showOfficial {
                body = viewModel.official?.text(of: article.number) ?? (article.level >= 2 ? missing : "")
            } else {
                body = article.bodyText
            }
            // Blank lines between paragraphs are left out (only an empty paragraph wraps to "").
            let bodyStyle = body == missing ? Style(.muted) : .plain
            for line in WordWrap.wrap(body, width: width) where !line.isEmpty {
                lines.append(TextLine(line, bodyStyle))
            }
            lines.append(TextLine(""))
        }
        // The blank line after the last article would only give End an empty line to stop on.
        if lines.last?.text.isEmpty == true { lines.removeLast() }
        articleLines = starts
        if let anchor, starts.indices.contains(anchor.article) {
            let article = Self.lines(of: anchor.article, starts: starts, total: lines.count)
            let line = article.lowerBound + min(max(0, article.count - 1), Int(anchor.fraction * Double(article.count)))
            text.setLines(lines, height: textHeight, keeping: (line, anchor.row))
        } else {
            text.setLines(lines, height: textHeight)
            if articleLines.indices.contains(viewModel.selectedIndex) {
                text.scroll(to: articleLines[viewModel.selectedIndex], height: textHeight)
            }
        }
    }
}
