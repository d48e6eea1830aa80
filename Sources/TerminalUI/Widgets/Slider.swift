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
        let filled: Int
        if let value, maximum > 0 {
            filled = Int((min(max(value, 0), maximum) / maximum * Double(width)).rounded())
        } else {
            filled = 0
        }
        let markerColumn = marker.map { m in min(width - 1, Int((m / maximum * Double(width)).rounded())) }
        let ungraded = value == nil
        // Three runs at most: filled, empty with the marker inside, written as whole strings.
        if filled > 0 {
            surface.write(String(repeating: g.sliderFilled, count: filled), x: rect.x, y: rect.y, style: ungraded ? Style(.muted) : style, clip: rect)
        }
        guard filled < width else { return }
        let emptyStyle = ungraded ? Style(.muted) : Style(.border)
        if let markerColumn, markerColumn >= filled {
            let before = markerColumn - filled, after = width - markerColumn - 1
            if before > 0 { surface.write(String(repeating: g.sliderEmpty, count: before), x: rect.x + filled, y: rect.y, style: emptyStyle, clip: rect) }
            surface.write(g.sliderMarker, x: rect.x + markerColumn, y: rect.y, style: Style(.muted), clip: rect)
            if after > 0 { surface.write(String(repeating: g.sliderEmpty, count: after), x: rect.x + markerColumn + 1, y: rect.y, style: emptyStyle, clip: rect) }
        } else {
            surface.write(String(repeating: g.sliderEmpty, count: width - filled), x: rect.x + filled, y: rect.y, style: emptyStyle, clip: rect)
        }
    }
}
