#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
///
/// Cells are stored packed — a scalar code plus a style, no reference counting — so clearing,
/// copying and diffing a 240×70 frame stays cheap. Graphemes of more than one scalar (emoji
/// sequences, letters with combining marks) live in a side table for the current frame.
public struct CellGrid: Equatable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    private(set) var cells: [PackedCell]
    private var clusters: [String] = []

    /// One cell: `code` 0 = continuation of a wide grapheme; below `clusterFlag` a Unicode scalar;
    /// with `clusterFlag` set, an index into `clusters`.
    struct PackedCell: Equatable, Sendable {
        var code: UInt32
        /// The style as `Style.packed`.
        var styleCode: UInt16
        /// Always 0: with it every one of a cell's eight bytes is set, so a row is compared as
        /// 64-bit words (`changedColumns`).
        private var unused: UInt16 = 0

        init(code: UInt32, style: Style) {
            self.code = code
            styleCode = style.packed
        }

        var style: Style {
            get { Style(packed: styleCode) }
            set { styleCode = newValue.packed }
        }
    }

    static let clusterFlag: UInt32 = 0x8000_0000
    static let space = PackedCell(code: 0x20, style: .plain)

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: CellGrid.space, count: self.width * self.height)
    }

    public static func == (a: CellGrid, b: CellGrid) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for i in a.cells.indices where !a.sameCell(i, as: b) { return false }
        return true
    }

    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < width, y < height else { return .blank }
        let cell = cells[y * width + x]
        return Cell(text(of: cell.code), cell.style)
    }

    /// The text of a packed code ("" for a continuation).
    func text(of code: UInt32) -> String {
        if code == 0 { return "" }
        if code & CellGrid.clusterFlag != 0 { return clusters[Int(code & ~CellGrid.clusterFlag)] }
        return String(Character(Unicode.Scalar(code)!))
    }

    /// Whether cell `index` shows the same thing as the same cell of `other`.
    func sameCell(_ index: Int, as other: CellGrid) -> Bool {
        let a = cells[index], b = other.cells[index]
        guard a.styleCode == b.styleCode else { return false }
        if a.code == b.code && a.code & CellGrid.clusterFlag == 0 { return true }
        guard a.code & CellGrid.clusterFlag != 0, b.code & CellGrid.clusterFlag != 0 else { return false }
        return text(of: a.code) == other.text(of: b.code)
    }

    /// The columns of row `y` from the first to the last cell that differs from `other`'s, or nil
    /// when the whole row is the same. One pass over both grids' storage: `present()` asks it
    /// for every row of every frame. The grids must have the same size.
    func changedColumns(inRow y: Int, comparedWith other: CellGrid) -> ClosedRange<Int>? {
        let row = y * width
        let stride = MemoryLayout<PackedCell>.stride
        let noClusters = clusters.isEmpty && other.clusters.isEmpty
        return cells.withUnsafeBytes { mine in
            other.cells.withUnsafeBytes { theirs in
                // Without graphemes of several scalars, equal bytes are equal cells: most rows
                // of a frame are unchanged, and one memcmp says so.
                if noClusters, memcmp(mine.baseAddress! + row * stride, theirs.baseAddress! + row * stride, width * stride) == 0 {
                    return nil
                }
                // Equal words are the same cell, unless they name a grapheme of several scalars
                // (an index into each frame's own table): those compare by text.
                func same(_ x: Int) -> Bool {
                    let offset = (row + x) * stride
                    guard mine.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            == theirs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                    return cells[row + x].code & CellGrid.clusterFlag == 0 || sameCell(row + x, as: other)
                }
                var first = 0
                while first < width && same(first) { first += 1 }
                if first == width { return nil }
                var last = width - 1
                while last > first && same(last) { last -= 1 }
                return first...last
            }
        }
    }

    /// Calls `body` with the scalars of cell `index` (one for most cells).
    func withScalars<R>(of index: Int, _ body: (Substring.UnicodeScalarView) -> R) -> R {
        let code = cells[index].code
        if code & CellGrid.clusterFlag != 0 {
            return body(Substring(clusters[Int(code & ~CellGrid.clusterFlag)]).unicodeScalars)
        }
        return body(Substring(String(Unicode.Scalar(code == 0 ? 0x20 : code)!)).unicodeScalars)
    }

    func packed(_ index: Int) -> PackedCell { cells[index] }

    /// Blanks every cell.
    public mutating func clear(style: Style = .plain) {
        let blank = PackedCell(code: 0x20, style: style)
        cells.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = blank }
        }
        clusters.removeAll(keepingCapacity: true)
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
        if let next = writeASCII(text, x: x, y: y, style: style, end: end) { return next }
        let text = ASCIIText.isOn ? ASCIIText.transliterate(text) : text
        if !DisplayWidth.needsGraphemeBreaking(text) {
            return writeScalars(text, x: x, y: y, style: style, end: end)
        }
        var column = x
        for character in text {
            if column >= end { break }
            // ASCII fast path: one scalar, width 1, controls replaced.
            if let ascii = character.asciiValue {
                let code: UInt32 = (ascii < 0x20 || ascii == 0x7F) ? 0xFFFD : UInt32(ascii)
                if column >= 0 { setPacked(PackedCell(code: code, style: style), x: column, y: y) }
                column += 1
                continue
            }
            var grapheme = character
            if DisplayWidth.isControl(character) {
                grapheme = "\u{FFFD}"  // escape sequences and controls are shown, never obeyed
            }
            let w = DisplayWidth.of(grapheme)
            if w == 0 { continue }
            guard let next = place(column + w > end ? 0 : encode(grapheme), width: w, style: style,
                                   column: column, y: y, end: end) else { return column + 1 }
            column = next
        }
        return column
    }

    /// Writes `text` when it is all ASCII — most of what is drawn: a cell a byte, controls made
    /// inert, nothing to measure — and returns the next column; nil, writing nothing, otherwise.
    private mutating func writeASCII(_ text: String, x: Int, y: Int, style: Style, end: Int) -> Int? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte >= 0x80 { return nil }
            guard x < end else { return x }
            let stop = min(x + bytes.count, end)
            putCodes(y: y, columns: x..<stop, style: style) { UInt32(bytes[$0 - x]) }
            return stop
        } ?? nil
    }

    /// Fills columns `x..<end` of row `y` with one character of one column that needs no
    /// transliteration (a blank, a bar's block): returns false, writing nothing, for any other.
    @discardableResult
    public mutating func fill(y: Int, x: Int, end: Int, character: Character, style: Style) -> Bool {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first, !(ASCIIText.isOn && !scalar.isASCII),
              scalar.value >= 0x20, DisplayWidth.of(scalar: scalar) == 1 else { return false }
        guard y >= 0, y < height, x < end else { return true }
        putCodes(y: y, columns: x..<min(end, width), style: style) { _ in scalar.value }
        return true
    }

    /// Sets the cells of `columns` in row `y` (clipped to the grid) to the one-column scalars
    /// `code` gives for each column; controls are made inert.
    @inline(__always)
    private mutating func putCodes(y: Int, columns: Range<Int>, style: Style, _ code: (Int) -> UInt32) {
        let width = self.width, row = y * width
        let lower = max(0, columns.lowerBound), upper = min(width, max(lower, columns.upperBound))
        guard lower < upper else { return }
        cells.withUnsafeMutableBufferPointer { cells in
            // As `setPacked`: a wide grapheme cut in half loses its other half. Only the run's two
            // ends can cut one; inside it both halves are overwritten.
            if cells[row + lower].code == 0, lower > 0 { cells[row + lower - 1].code = 0x20 }
            if cells[row + upper - 1].code != 0, upper < width, cells[row + upper].code == 0 { cells[row + upper].code = 0x20 }
            var cell = PackedCell(code: 0x20, style: style)
            for column in lower..<upper {
                let value = code(column)
                cell.code = (value < 0x20 || (0x7F...0x9F).contains(value)) ? 0xFFFD : value
                cells[row + column] = cell
            }
        }
    }

    /// Puts one glyph of display width `w` at `column`; a wide one also gets its continuation
    /// cell. Returns the next column, or nil when the glyph does not fit before `end` — then a
    /// blank is left instead of half a glyph and the caller stops.
    private mutating func place(_ code: UInt32, width w: Int, style: Style, column: Int, y: Int, end: Int) -> Int? {
        if column + w > end {
            if column >= 0 { setPacked(PackedCell(code: 0x20, style: style), x: column, y: y) }
            return nil
        }
        if column >= 0 {
            setPacked(PackedCell(code: code, style: style), x: column, y: y, wide: w == 2)
            if w == 2, column + 1 < width { setPacked(PackedCell(code: 0, style: style), x: column + 1, y: y) }
        }
        return column + w
    }

    /// The fast path of `write` for text where every scalar is a grapheme of its own (all ASCII
    /// and most Latin, Greek or Cyrillic text): no grapheme breaking needed. Row `y` is in the
    /// grid (`write` checked it); each cell is set as `setPacked` would, in one pass over the row.
    private mutating func writeScalars(_ text: String, x: Int, y: Int, style: Style, end: Int) -> Int {
        var text = text
        return text.withUTF8 { bytes in writeScalars(utf8: bytes, x: x, y: y, style: style, end: end) }
    }

    private mutating func writeScalars(utf8 bytes: UnsafeBufferPointer<UInt8>, x: Int, y: Int, style: Style, end: Int) -> Int {
        let width = self.width, row = y * width
        let template = PackedCell(code: 0x20, style: style)
        return cells.withUnsafeMutableBufferPointer { cells -> Int in
            var column = x, i = 0
            while i < bytes.count, column < end {
                var value = DisplayWidth.scalarValue(in: bytes, at: &i)
                var w = 1
                if value < 0x20 || (0x7F...0x9F).contains(value) {
                    value = 0xFFFD  // controls are shown, never obeyed
                } else if value >= 0x300 {
                    w = DisplayWidth.of(scalar: Unicode.Scalar(value)!)
                    if w == 0 { continue }
                }
                // A glyph that does not fit before `end` leaves a blank instead of half of it.
                let fits = column + w <= end
                if !fits { value = 0x20; w = 1 }
                if column >= 0 {
                    Self.put(value, style: template, column: column, row: row, width: width, leftHalf: w == 2, in: cells)
                    if w == 2 { Self.put(0, style: template, column: column + 1, row: row, width: width, leftHalf: false, in: cells) }
                }
                column += w
                if !fits { return column }
            }
            return column
        }
    }

    /// Sets one cell of a row already checked (`setPacked` and the run writers): `code` in the
    /// style of `template`, repairing any wide grapheme it cuts in half. Overwriting the right half
    /// of a wide grapheme blanks its left half; overwriting a left half with anything but another
    /// left half (a narrow cell, or the right half of the grapheme written before it) blanks its
    /// right half.
    @inline(__always)
    private static func put(_ code: UInt32, style template: PackedCell, column: Int, row: Int, width: Int, leftHalf: Bool,
                            in cells: UnsafeMutableBufferPointer<PackedCell>) {
        guard column < width else { return }
        let index = row + column, old = cells[index].code
        if old == 0, code != 0, column > 0 { cells[index - 1].code = 0x20 }
        if old != 0, !leftHalf, column + 1 < width, cells[index + 1].code == 0 { cells[index + 1].code = 0x20 }
        var cell = template
        cell.code = code
        cells[index] = cell
    }

    private mutating func encode(_ grapheme: Character) -> UInt32 {
        let scalars = grapheme.unicodeScalars
        if scalars.count == 1 { return scalars.first!.value }
        clusters.append(String(grapheme))
        return CellGrid.clusterFlag | UInt32(clusters.count - 1)
    }

    /// Sets one cell, repairing any wide grapheme it cuts in half.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        if cell.isContinuation {
            setPacked(PackedCell(code: 0, style: cell.style), x: x, y: y)
        } else {
            var character = cell.text.first ?? " "
            if ASCIIText.isOn && !character.isASCII { character = ASCIIText.transliterate(character).first ?? "?" }
            setPacked(PackedCell(code: encode(character), style: cell.style), x: x, y: y,
                      wide: DisplayWidth.of(character) == 2)
        }
    }

    private mutating func setPacked(_ cell: PackedCell, x: Int, y: Int, wide: Bool = false) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let width = self.width
        cells.withUnsafeMutableBufferPointer { Self.put(cell.code, style: cell, column: x, row: y * width, width: width, leftHalf: wide, in: $0) }
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
            let code = cells[y * width + x].code
            if code != 0 { text += self.text(of: code) }
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row as text.
    public var lines: [String] { (0..<height).map(line) }
}
