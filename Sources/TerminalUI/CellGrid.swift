/// One screen cell: the grapheme drawn there and its style.
///
/// A wide grapheme (CJK, emoji) occupies its cell and the next one; the next one holds an empty
/// `text` and is called a continuation.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String = " ", _ style: Style = .plain) {
        self.text = text
        self.style = style
    }

    public static let blank = Cell()
    public var isContinuation: Bool { text.isEmpty }
}

/// A grid of cells with the text-placement rules every surface shares: graphemes measured by
/// display width, wide graphemes spanning two cells, control characters made inert, clipping.
public struct CellGrid: Equatable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < width, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// Blanks every cell.
    public mutating func clear(style: Style = .plain) {
        let blank = Cell(" ", style)
        for i in cells.indices { cells[i] = blank }
    }

    /// Resizes, dropping the content.
    public mutating func resize(width: Int, height: Int) {
        self = CellGrid(width: width, height: height)
    }

    /// Writes `text` from (x, y), never past column `limit` (exclusive; default the grid's width).
    /// Returns the column after the last cell written.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(limit ?? width, width)
        var column = x
        for character in text {
            if column >= end { break }
            var grapheme = character
            if DisplayWidth.isControl(character) {
                grapheme = "\u{FFFD}"  // escape sequences and controls are shown, never obeyed
            }
            let w = DisplayWidth.of(grapheme)
            if w == 0 { continue }
            if column + w > end {
                // A wide grapheme that does not fit leaves a blank instead of half a glyph.
                if column >= 0 { set(Cell(" ", style), x: column, y: y) }
                column += 1
                break
            }
            if column >= 0 {
                set(Cell(String(grapheme), style), x: column, y: y)
                if w == 2, column + 1 < width { set(Cell("", style), x: column + 1, y: y) }
            }
            column += w
        }
        return column
    }

    /// Sets one cell, repairing any wide grapheme it cuts in half.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        let old = cells[index]
        // Overwriting the right half of a wide grapheme blanks its left half.
        if old.isContinuation, !cell.isContinuation, x > 0 {
            cells[index - 1] = Cell(" ", cells[index - 1].style)
        }
        // Overwriting the left half of a wide grapheme with a narrow one blanks its right half.
        if !old.isContinuation, x + 1 < width, cells[index + 1].isContinuation,
           !cell.isContinuation, DisplayWidth.of(cell.text) < 2 {
            cells[index + 1] = Cell(" ", cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Restyles cells in a row range without changing their text (used for highlights).
    public mutating func restyle(x: Int, y: Int, width count: Int, _ transform: (Style) -> Style) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(width, x + count) {
            cells[y * width + column].style = transform(cells[y * width + column].style)
        }
    }

    /// The text of row `y`, continuation cells skipped, trailing spaces removed.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var text = ""
        for x in 0..<width {
            let cell = cells[y * width + x]
            if !cell.isContinuation { text += cell.text }
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row as text.
    public var lines: [String] { (0..<height).map(line) }
}
