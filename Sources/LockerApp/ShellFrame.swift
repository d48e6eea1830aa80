import FoundationEssentials
import LockerKit
import TerminalUI

/// The frame around every screen: its layout for a size, the tab bar, the attention line, the
/// status line, the footer, the questions, and the page shown when the terminal is too small.
extension Shell {
    /// Where everything goes for one size: the current screen's area (below the tab bar and any
    /// attention line, above the status lines and the footer), the status text as wrapped, and
    /// the help overlay's box and lines.
    struct Frame {
        var size: Size
        var content: Rect
        var status: StatusText
        var attention: AttentionLine?
        var help: HelpOverlay.Layout?
    }

    var renderContext: RenderContext {
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
        // screen's area: lay out for the height it had in the last frame (it seldom changes), read
        // the status, and lay out again if its height is not that.
        let statusWidth = size.width - statusLanguage.displayWidth - 2
        let guess = frame.map { max(1, $0.status.lines.count) } ?? max(1, statusText(width: statusWidth, glyphs: glyphs).lines.count)
        var content = contentRect(statusRows: guess)
        currentScreen.layout(content, context: renderContext)
        var status = statusText(width: statusWidth, glyphs: glyphs)
        if max(1, status.lines.count) != guess {
            content = contentRect(statusRows: status.lines.count)
            currentScreen.layout(content, context: renderContext)
            status = statusText(width: statusWidth, glyphs: glyphs)
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
            let selected = viewModel.tab.number - 1
            let key = TabLabelsKey(language: viewModel.language, width: bounds.width, selected: selected)
            if key != fittedTabLabels.key {
                let bar = TabBar(titles: TabRegistry.entries.map { $0.title(localizer) },
                                 shortTitles: TabRegistry.entries.map { $0.shortTitle(localizer) }, selected: selected)
                fittedTabLabels = (key, bar.fittedLabels(width: bounds.width - 1))
            }
            selectedTab = TabBar.render(fittedTabLabels.labels, selected: selected, into: surface, row: bounds.row(0))
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
    func attentionLine() -> AttentionLine? {
        attention.lazy.filter { $0.started && $0.tab != self.viewModel.tab }.compactMap { $0.attention() }.first
    }

    /// The footer (the global keys only when they act, not while a field is typed into, where
    /// they would be typed): its hints, and those it keeps at its end: `? help` and `q quit` stay when space
    /// is short, and the screen's hints give way first.
    func footer() -> (hints: [KeyHint], pinned: [KeyHint]) {
        if let quitDialog { return (quitDialog.footerHints(choose: localizer.t("choose")), []) }
        if help != nil { return (helpKeys().footerHints, []) }
        let active = currentScreen.activeKeys(localizer)
        let screen = active.footerHints
        if currentScreen.capturesText { return (screen, []) }
        var global = globalKeys().footerHints
        if active.binds(.character("q")) { global.removeAll { $0.key == "q" } }
        let pinnedKeys: Set<String> = ["?", "q"]
        return (screen + global.filter { !pinnedKeys.contains($0.key) }, global.filter { pinnedKeys.contains($0.key) })
    }

    static let maxStatusRows = 3

    var statusLanguage: String { " \(viewModel.language.rawValue.uppercased()) " }

    /// The status line as drawn, wrapped once per frame: the notice (a banner in its kind's
    /// style) or else the screen's status (muted, its web addresses made links).
    struct StatusText {
        var lines: [String] = []
        var style = Style(.muted)
        var links = false
    }

    func statusText(width: Int, glyphs: Glyphs) -> StatusText {
        if let notice = viewModel.notice {
            let banner = Banner(notice.message, kind: bannerKind(notice.kind))
            return StatusText(lines: banner.lines(width: width, maxRows: Shell.maxStatusRows, glyphs: glyphs), style: banner.style)
        }
        guard let status = currentScreen.status(localizer) else { return StatusText() }
        let key = StatusKey(text: status, width: width, ellipsis: glyphs.ellipsis)
        if let lines = wrappedStatuses[key] { return StatusText(lines: lines, links: true) }
        // A few at a time: one per tab the keys go back and forth between, not every one ever shown.
        if wrappedStatuses.count >= 16 { wrappedStatuses.removeAll(keepingCapacity: true) }
        let lines = Banner.wrapKeepingParts(status, width: width, maxRows: Shell.maxStatusRows, ellipsis: glyphs.ellipsis)
        wrappedStatuses[key] = lines
        return StatusText(lines: lines, links: true)
    }

    /// What the tab bar's labels were fitted for: they are fitted again when it changes.
    struct TabLabelsKey: Equatable { var language: Language, width: Int, selected: Int }

    /// A status as wrapped: a frame asks for it at least once, and it seldom changes between
    /// frames, or goes back to one of a few (switching tabs back and forth).
    struct StatusKey: Hashable { var text: String, width: Int, ellipsis: String }

    func renderStatus(_ status: StatusText, into surface: Surface, rows: Rect) {
        let right = statusLanguage
        let rightX = rows.maxX - right.displayWidth
        surface.write(right, x: rightX, y: rows.maxY - 1, style: Style(.muted))
        let left = Rect(x: rows.x, y: rows.y, width: max(0, rightX - rows.x - 1), height: rows.height)
        for (i, line) in status.lines.enumerated() {
            surface.write(line, x: left.x + 1, y: left.y + i, style: status.style, clip: left)
            // A web address in the status line (a game's map link) is also a terminal hyperlink.
            // (A line without a colon is passed over at once: the generic search costs more than
            // the rest of the status line.)
            if status.links, line.utf8.contains(UInt8(ascii: ":")), let start = line.firstRange(of: "https://") {
                let url = String(line[start.lowerBound...].prefix { !$0.isWhitespace })
                let x = left.x + 1 + String(line[..<start.lowerBound]).displayWidth
                if x + url.displayWidth <= left.maxX {
                    surface.hyperlinks.append(Hyperlink(x: x, y: left.y + i, text: url, url: url))
                }
            }
        }
    }

    func bannerKind(_ kind: Notice.Kind) -> Banner.Kind {
        switch kind {
        case .info: return .info
        case .success: return .success
        case .warning: return .warning
        case .error: return .error
        }
    }

    func renderTooSmall(into surface: Surface, size: Size) {
        var text = localizer.t("Locker needs a terminal of at least {min}. This one is {size}. Please enlarge it, or press q to quit.",
                               ["min": "\(minimumSize.width)×\(minimumSize.height)",
                                "size": "\(size.width)×\(size.height)"])
        var short = localizer.t("Terminal too small ({size}). q quits.", ["size": "\(size.width)×\(size.height)"])
        // q asked first: the question is what shows, with its answers.
        if let dialog = quitDialog {
            let answers = dialog.footerHints(choose: "").prefix(2).map { "\($0.key) \($0.label)" }.joined(separator: " · ")
            text = dialog.title + " " + dialog.message + " " + answers
            short = dialog.title + " " + answers
        }
        // Where the whole text does not fit, the short one: the key that works must show.
        var lines = WordWrap.wrap(text, width: max(1, size.width - 2))
        if lines.count > size.height { lines = WordWrap.wrap(short, width: max(1, size.width - 2)) }
        let top = max(0, (size.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < size.height {
            let x = max(0, (size.width - line.displayWidth) / 2)
            surface.write(line, x: x, y: top + i, style: Style(.warn, [.bold]))
        }
        surface.parkCursor(x: 0, y: top)
    }
}
