/// Selection and scroll position of a list; pure state, so screens and tests share it.
public struct ListState: Equatable, Sendable {
    public private(set) var count: Int
    public private(set) var selected: Int
    /// Index of the first visible row.
    public private(set) var offset: Int = 0

    public init(count: Int = 0, selected: Int = 0) {
        self.count = max(0, count)
        self.selected = 0
        select(selected)
    }

    /// Changes the number of items, keeping the selection in range.
    public mutating func setCount(_ newCount: Int) {
        count = max(0, newCount)
        select(selected)
    }

    public mutating func select(_ index: Int) {
        selected = count == 0 ? 0 : min(max(0, index), count - 1)
    }

    /// Applies a navigation key (↑ ↓ PgUp PgDn Home End). Returns whether the key was used.
    /// `pageSize` is the number of rows shown; the stored offset follows the selection.
    public mutating func handle(_ key: Key, pageSize: Int) -> Bool {
        guard count > 0 else { return false }
        scrollToSelection(height: pageSize)
        defer { scrollToSelection(height: pageSize) }
        let page = max(1, pageSize - 1), half = max(1, pageSize / 2)
        switch ViMoves.arrow(for: key) {
        case .up: select(selected - 1)
        case .down: select(selected + 1)
        case .pageUp: select(selected - page)
        case .pageDown: select(selected + page)
        case .control("u"): select(selected - half)
        case .control("d"): select(selected + half)
        case .home: select(0)
        case .end: select(count - 1)
        default: return false
        }
        return true
    }

    /// Scrolls as little as possible so the selection is visible in `height` rows.
    public mutating func scrollToSelection(height: Int) {
        offset = visibleOffset(height: height)
    }

    /// The first row shown in `height` rows: the stored offset moved as little as possible to
    /// show the selection. What `ListView` draws; keys store it (`handle`), drawing never does.
    public func visibleOffset(height: Int) -> Int {
        guard height > 0 else { return offset }
        var first = offset
        if selected < first { first = selected }
        if selected >= first + height { first = selected - height + 1 }
        return min(max(0, first), max(0, count - height))
    }
}

/// Draws a scrolling list: each visible row is produced by the caller, the selected row is lit,
/// a scroll bar appears when the list is longer than the view.
public struct ListView {
    /// Builds the spans of one row; the Bool says whether the row is selected.
    public typealias RowBuilder = (_ index: Int, _ selected: Bool) -> [Span]

    public init() {}

    /// Renders rows of `state` into `rect`, from `state.visibleOffset` so the selection shows
    /// (the state itself is not changed). Parks the cursor on the selected row. Returns the
    /// rectangle of the selected row.
    @discardableResult
    public func render(_ state: ListState, into surface: Surface, rect: Rect,
                       focused: Bool = true, row: RowBuilder) -> Rect? {
        guard !rect.isEmpty else { return nil }
        let offset = state.visibleOffset(height: rect.height)
        let needsBar = state.count > rect.height
        let content = needsBar ? Rect(x: rect.x, y: rect.y, width: rect.width - 1, height: rect.height) : rect
        var selectedRect: Rect?
        for line in 0..<rect.height {
            let index = offset + line
            guard index < state.count else { break }
            let isSelected = index == state.selected
            let rowRect = content.row(line)
            if isSelected && focused { surface.fill(rowRect, style: Style(.selection)) }
            var spans = row(index, isSelected)
            if isSelected && focused {
                // The selection bar wins over span colours; glyphs still carry the meaning.
                spans = spans.map { Span($0.text, Style(.selection, $0.style.attributes)) }
            }
            surface.write(spans, x: rowRect.x, y: rowRect.y, clip: rowRect)
            if isSelected {
                selectedRect = rowRect
                surface.parkCursor(x: rowRect.x, y: rowRect.y)
            }
        }
        if needsBar {
            ScrollBar(total: state.count, visible: rect.height, offset: offset)
                .render(into: surface, rect: Rect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height))
        }
        return selectedRect
    }
}

/// A one-column scroll indicator.
public struct ScrollBar {
    public var total: Int
    public var visible: Int
    public var offset: Int

    public init(total: Int, visible: Int, offset: Int) {
        self.total = total; self.visible = visible; self.offset = offset
    }

    public func render(into surface: Surface, rect: Rect) {
        guard rect.height > 0, total > visible else { return }
        let thumb = max(1, rect.height * visible / total)
        let maxOffset = max(1, total - visible)
        let start = (rect.height - thumb) * min(offset, maxOffset) / maxOffset
        surface.fill(Rect(x: rect.x, y: rect.y, width: 1, height: start), withGlyph: surface.glyphs.scrollTrack, style: Style(.border))
        surface.fill(Rect(x: rect.x, y: rect.y + start, width: 1, height: thumb), withGlyph: surface.glyphs.scrollThumb, style: Style(.accent))
        surface.fill(Rect(x: rect.x, y: rect.y + start + thumb, width: 1, height: rect.height - start - thumb),
                     withGlyph: surface.glyphs.scrollTrack, style: Style(.border))
    }
}
