/// A canvas of dots drawn with braille characters: each cell holds 2 × 4 dots, so a 60 × 20
/// cell area gives 120 × 80 dots. Each cell keeps one colour level, the highest drawn into it
/// (for example the highest heart rate on that piece of route). With ASCII glyphs, a cell with
/// dots shows `.`, `:`, `+` or `#` by how many dots it holds.
public struct BrailleCanvas: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    private var dots: [UInt8]
    private var levels: [Int]
    private var labels: [Int: (String, Style)] = [:]

    public static func == (a: BrailleCanvas, b: BrailleCanvas) -> Bool {
        a.columns == b.columns && a.rows == b.rows && a.dots == b.dots && a.levels == b.levels
    }

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        dots = Array(repeating: 0, count: self.columns * self.rows)
        levels = Array(repeating: -1, count: self.columns * self.rows)
    }

    /// Dot resolution: width = 2 × columns, height = 4 × rows.
    public var dotWidth: Int { columns * 2 }
    public var dotHeight: Int { rows * 4 }

    /// Braille dot bits by (y % 4) × 2 + (x % 2), per the Unicode braille pattern layout
    /// (0x01 0x08 / 0x02 0x10 / 0x04 0x20 / 0x40 0x80), packed in one word: no table lookups
    /// in loops over a million points.
    private static let packedBits: UInt64 = 0x8040_2004_1002_0801

    /// Sets the dot at (x, y) with a colour level (higher wins within a cell; -1 = no colour).
    @inline(__always)
    public mutating func set(x: Int, y: Int, level: Int = -1) {
        guard x >= 0, y >= 0, x < columns * 2, y < rows * 4 else { return }
        let index = (y >> 2) * columns + (x >> 1)
        let shift = UInt64(((y & 3) << 1 | (x & 1)) << 3)
        dots[index] |= UInt8(truncatingIfNeeded: BrailleCanvas.packedBits >> shift)
        if level > levels[index] { levels[index] = level }
    }

    /// Draws a straight line of dots (Bresenham). Lines wholly on one side outside the canvas
    /// are skipped (zoomed-in routes have many).
    public mutating func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), level: Int = -1) {
        let width = columns * 2, height = rows * 4
        if (a.x < 0 && b.x < 0) || (a.y < 0 && b.y < 0) || (a.x >= width && b.x >= width) || (a.y >= height && b.y >= height) { return }
        var x0 = a.x, y0 = a.y
        let dx = abs(b.x - x0), dy = -abs(b.y - y0)
        let sx = x0 < b.x ? 1 : -1, sy = y0 < b.y ? 1 : -1
        var error = dx + dy
        var steps = 0
        while steps <= dx - dy + 1 {
            set(x: x0, y: y0, level: level)
            if x0 == b.x && y0 == b.y { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x0 += sx }
            if e2 <= dx { error += dx; y0 += sy }
            steps += 1
        }
    }

    /// Puts a text label over the cell containing dot (x, y) (start/finish markers).
    public mutating func label(_ text: String, x: Int, y: Int, style: Style) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        labels[(y / 4) * columns + x / 2] = (text, style)
    }

    /// The colour level of a cell, or -1.
    public func level(column: Int, row: Int) -> Int { levels[row * columns + column] }

    /// Whether any dot is set in a cell.
    public func hasDots(column: Int, row: Int) -> Bool { dots[row * columns + column] != 0 }

    /// Draws the canvas; `style(level)` maps a colour level to a style.
    public func render(into surface: Surface, at origin: Point, style: (Int) -> Style) {
        let ascii = surface.glyphs.ascii
        for row in 0..<rows {
            for column in 0..<columns {
                let index = row * columns + column
                if let (text, labelStyle) = labels[index] {
                    surface.write(text, x: origin.x + column, y: origin.y + row, style: labelStyle)
                    continue
                }
                let pattern = dots[index]
                guard pattern != 0 else { continue }
                let glyph: String
                if ascii {
                    let count = pattern.nonzeroBitCount
                    glyph = count <= 1 ? "." : count <= 3 ? ":" : count <= 5 ? "+" : "#"
                } else {
                    glyph = String(Character(Unicode.Scalar(0x2800 + UInt32(pattern))!))
                }
                surface.write(glyph, x: origin.x + column, y: origin.y + row, style: style(levels[index]))
            }
        }
    }
}
