/// A column of a table: a header, how wide it may be, how its text is aligned.
public struct TableColumn: Sendable {
    public enum Width: Sendable {
        /// Exactly this many columns.
        case fixed(Int)
        /// A share of the width left after fixed columns, never less than `min`.
        case flexible(min: Int, weight: Int)
    }

    public var title: String
    public var width: Width
    public var alignment: TextAlignment

    public init(_ title: String, width: Width, alignment: TextAlignment = .left) {
        self.title = title
        self.width = width
        self.alignment = alignment
    }
}

/// A table with a header row, laid out to the available width, rows selectable through a
/// `ListState`. Columns that cannot get their minimum width are dropped from the right.
public struct Table {
    public var columns: [TableColumn]
    public var spacing: Int

    public init(columns: [TableColumn], spacing: Int = 2) {
        self.columns = columns
        self.spacing = spacing
    }

    /// The width given to each column (0 = hidden) for a total `width`.
    public func layout(width: Int) -> [Int] {
        var widths = Array(repeating: 0, count: columns.count)
        var shown = columns.count
        while shown > 0 {
            let visible = columns.prefix(shown)
            let fixed = visible.reduce(0) { total, column in
                if case .fixed(let w) = column.width { return total + w }
                if case .flexible(let m, _) = column.width { return total + m }
                return total
            }
            let gaps = spacing * (shown - 1)
            if fixed + gaps <= width { break }
            shown -= 1
        }
        let visible = Array(columns.prefix(shown))
        let minimum = visible.reduce(0) { total, column in
            switch column.width {
            case .fixed(let w): return total + w
            case .flexible(let m, _): return total + m
            }
        }
        var spare = max(0, width - minimum - spacing * max(0, shown - 1))
        let weights = visible.reduce(0) { total, column in
            if case .flexible(_, let weight) = column.width { return total + weight }
            return total
        }
        for (index, column) in visible.enumerated() {
            switch column.width {
            case .fixed(let w): widths[index] = w
            case .flexible(let m, let weight):
                let extra = weights > 0 ? spare * weight / weights : 0
                widths[index] = m + extra
            }
        }
        // Give rounding leftovers to the last flexible column.
        let used = widths.reduce(0, +) + spacing * max(0, shown - 1)
        spare = width - used
        if spare > 0, let last = visible.lastIndex(where: { if case .flexible = $0.width { return true } else { return false } }) {
            widths[last] += spare
        }
        return widths
    }

    /// Renders the header and the rows (`cell(row, column)` gives each cell's span).
    public func render(_ state: ListState, into surface: Surface, rect: Rect, focused: Bool = true,
                       cell: @escaping (_ row: Int, _ column: Int) -> Span) {
        guard rect.height > 0 else { return }
        let widths = layout(width: rect.width - 1)
        var x = rect.x
        for (index, column) in columns.enumerated() where widths[index] > 0 {
            surface.write(column.title.padded(toWidth: widths[index], alignment: column.alignment),
                          x: x, y: rect.y, style: Style(.title, [.underline]), clip: rect)
            x += widths[index] + spacing
        }
        let body = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
        let spacer = String(repeating: " ", count: spacing)
        ListView().render(state, into: surface, rect: body, focused: focused) { row, _ in
            var spans: [Span] = []
            for (index, column) in self.columns.enumerated() where widths[index] > 0 {
                let span = cell(row, index)
                spans.append(Span(span.text.padded(toWidth: widths[index], alignment: column.alignment), span.style))
                spans.append(Span(spacer))
            }
            return spans
        }
    }
}
