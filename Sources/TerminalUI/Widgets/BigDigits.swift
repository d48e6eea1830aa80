/// Numbers in large digits, five rows high, for a scoreboard read across a pool hall: each digit
/// three cells wide, a decimal point or comma one cell, a minus sign three. Drawn with full
/// blocks, or `#` in ASCII.
public struct BigDigits {
    public static let height = 5
    private static let font: [Character: [String]] = [
        "0": ["███", "█ █", "█ █", "█ █", "███"],
        "1": ["  █", "  █", "  █", "  █", "  █"],
        "2": ["███", "  █", "███", "█  ", "███"],
        "3": ["███", "  █", "███", "  █", "███"],
        "4": ["█ █", "█ █", "███", "  █", "  █"],
        "5": ["███", "█  ", "███", "  █", "███"],
        "6": ["███", "█  ", "███", "█ █", "███"],
        "7": ["███", "  █", "  █", "  █", "  █"],
        "8": ["███", "█ █", "███", "█ █", "███"],
        "9": ["███", "█ █", "███", "  █", "███"],
        ".": [" ", " ", " ", " ", "█"],
        ",": [" ", " ", " ", " ", "█"],
        "-": ["   ", "   ", "███", "   ", "   "],
        "—": ["   ", "   ", "███", "   ", "   "],
        " ": [" ", " ", " ", " ", " "],
    ]

    public var text: String

    public init(_ text: String) { self.text = text }

    /// The five rows, one space between characters; characters the font lacks are left out.
    public func rows(ascii: Bool) -> [String] {
        let glyphs = text.compactMap { Self.font[$0] }
        return (0..<Self.height).map { row in
            let line = glyphs.map { $0[row] }.joined(separator: " ")
            return ascii ? line.replacing("█", with: "#") : line
        }
    }

    /// Columns the text takes.
    public var width: Int { rows(ascii: true).first?.count ?? 0 }

    /// Draws the rows from (x, y).
    public func render(into surface: Surface, x: Int, y: Int, style: Style, clip: Rect) {
        for (index, row) in rows(ascii: surface.glyphs.ascii).enumerated() {
            surface.write(row, x: x, y: y + index, style: style, clip: clip)
        }
    }
}
