import FoundationEssentials

/// A horizontal bar for a value in 0 … maximum (marks, for example), with an optional marker
/// (e.g. the pass mark). Arrow keys change the value in steps; the bar is drawn, not typed.
public struct Slider {
    public var value: Double?
    public var maximum: Double
    public var marker: Double?
    public var style: Style

    public init(value: Double?, maximum: Double, marker: Double? = nil, style: Style = Style(.accent)) {
        self.value = value
        self.maximum = maximum
        self.marker = marker
        self.style = style
    }

    public func render(into surface: Surface, rect: Rect) {
        let width = rect.width
        guard width > 0 else { return }
        let g = surface.glyphs
        // Parts of a cell (eighths in Unicode) tell close marks apart: on 19 cells for 0…20,
        // 19.5 and 20 differ by almost half a cell.
        let steps = g.sliderPartials.count + 1
        var filled = 0, part = 0
        if let value, maximum > 0 {
            let units = Int((min(max(value, 0), maximum) / maximum * Double(width * steps)).rounded())
            filled = units / steps
            part = units % steps
        }
        let markerColumn = marker.map { m in min(width - 1, Int((m / maximum * Double(width)).rounded())) }
        let ungraded = value == nil
        // Three runs at most: filled, empty with the marker inside, written as whole strings.
        /// `count` cells of `glyph` from column `x` of the bar.
        func run(_ glyph: String, from x: Int, count: Int, style: Style) {
            guard count > 0 else { return }
            surface.repeatGlyph(glyph, x: rect.x + x, y: rect.y, count: min(count, width - x), style: style, clip: rect)
        }
        run(g.sliderFilled, from: 0, count: filled, style: ungraded ? Style(.muted) : style)
        if part > 0, filled < width {
            surface.write(g.sliderPartials[part - 1], x: rect.x + filled, y: rect.y, style: style, clip: rect)
        }
        // A mark past the marker (the pass mark) keeps the marker visible inside the bar.
        if let markerColumn, markerColumn < filled {
            surface.write(g.sliderMarker, x: rect.x + markerColumn, y: rect.y, style: Style(.muted, [.reverse]), clip: rect)
        }
        guard filled < width else { return }
        let emptyStyle = ungraded ? Style(.muted) : Style(.border)
        let empty = filled + (part > 0 ? 1 : 0)
        // The marker gives way to a part-filled cell in its column: the value is what must show.
        if let markerColumn, markerColumn >= empty {
            run(g.sliderEmpty, from: empty, count: markerColumn - empty, style: emptyStyle)
            surface.write(g.sliderMarker, x: rect.x + markerColumn, y: rect.y, style: Style(.muted), clip: rect)
            run(g.sliderEmpty, from: markerColumn + 1, count: width - markerColumn - 1, style: emptyStyle)
        } else {
            run(g.sliderEmpty, from: empty, count: width - empty, style: emptyStyle)
        }
    }
}
