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

    /// Changes `value` by `delta`, clamped to 0 … maximum and rounded to `step` precision
    /// (an ungraded value starts from the middle).
    public static func adjust(_ value: Double?, by delta: Double, maximum: Double) -> Double {
        let start = value ?? maximum / 2
        let raw = min(max(0, start + delta), maximum)
        return (raw * 100).rounded() / 100
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
        for column in 0..<width {
            let isFilled = column < filled
            var glyph = isFilled ? g.sliderFilled : g.sliderEmpty
            var cellStyle = isFilled ? style : Style(.border)
            if column == markerColumn && !isFilled { glyph = g.sliderMarker; cellStyle = Style(.muted) }
            if value == nil { cellStyle = Style(.muted) }
            surface.write(glyph, x: rect.x + column, y: rect.y, style: cellStyle, clip: rect)
        }
    }
}
