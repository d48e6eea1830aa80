/// The row of tabs at the top of the screen: "1 Rules  2 Penalties …", the current one lit.
///
/// When the titles do not fit, the ones that are not selected are shortened first, then reduced
/// to their digit, so every tab keeps its number on screen.
public struct TabBar {
    public var titles: [String]
    /// Abbreviations chosen per language ("Penaliz."), tried before titles are cut by count.
    public var shortTitles: [String]?
    public var selected: Int

    public init(titles: [String], shortTitles: [String]? = nil, selected: Int) {
        self.titles = titles
        self.shortTitles = shortTitles
        self.selected = selected
    }

    /// Draws on one row; returns the x range of the selected tab (to park the cursor there).
    @discardableResult
    public func render(into surface: Surface, row rect: Rect) -> Range<Int> {
        Self.render(fittedLabels(width: rect.width - 1), selected: selected, into: surface, row: rect)
    }

    /// Draws labels already fitted to the row (`fittedLabels(width: rect.width - 1)`, which a
    /// caller may keep between frames); returns the x range of the selected one.
    @discardableResult
    public static func render(_ labels: [String], selected: Int, into surface: Surface, row rect: Rect) -> Range<Int> {
        surface.fill(rect.row(0), style: Style(.bar))
        var x = rect.x + 1
        var selectedRange = x..<x
        for (index, label) in labels.enumerated() {
            let style = index == selected ? Style(.tabActive) : Style(.tabInactive)
            let start = x
            x = surface.write(label, x: x, y: rect.y, style: style, clip: rect)
            if index == selected { selectedRange = start..<x }
            x += 1  // a blank of the bar between tabs
        }
        return selectedRange
    }

    /// The label of each tab, shortened as needed so all fit in `width` columns.
    public func fittedLabels(width: Int) -> [String] {
        // The selected tab keeps its full title; the others take their abbreviation first.
        let others = shortTitles.map { short in titles.indices.map { $0 == selected ? titles[$0] : short[$0] } } ?? titles
        func labels(maxTitle: Int?, _ names: [String] = titles) -> [String] {
            names.enumerated().map { index, title in
                guard index != selected, let maxTitle else { return " \(index + 1) \(title) " }
                if maxTitle == 0 { return " \(index + 1) " }
                return " \(index + 1) \(title.truncated(toWidth: maxTitle, ellipsis: "."))"  + " "
            }
        }
        func total(_ labels: [String]) -> Int { labels.reduce(0) { $0 + $1.displayWidth + 1 } }
        let full = labels(maxTitle: nil)
        if total(full) <= width { return full }
        let abbreviated = labels(maxTitle: nil, others)
        if shortTitles != nil, total(abbreviated) <= width { return abbreviated }
        let longest = others.map(\.displayWidth).max() ?? 0
        var limit = longest - 1
        while limit >= 3 {
            let candidate = labels(maxTitle: limit, others)
            if total(candidate) <= width { return candidate }
            limit -= 1
        }
        return labels(maxTitle: 0)
    }
}
