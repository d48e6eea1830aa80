/// Where a hardware cursor should be parked, and whether it is shown.
///
/// Screen readers follow the hardware cursor, so screens park it on the focused item even when it
/// is hidden; text fields show it.
public struct CursorRequest: Hashable, Sendable {
    public var position: Point
    public var visible: Bool
    public init(_ position: Point, visible: Bool) { self.position = position; self.visible = visible }
}

/// Something a screen renders into: a grid of styled cells plus a cursor request.
///
/// Two implementations: `MemorySurface` (tests read back its text lines, like ratatui's
/// TestBackend) and `TerminalSurface` (diffs each frame against the previous one and writes the
/// changes through ncurses).
public protocol Surface: AnyObject {
    var grid: CellGrid { get set }
    var cursor: CursorRequest? { get set }
    /// The characters for lines and markers (Unicode or ASCII).
    var glyphs: Glyphs { get }
    /// Set by a screen to ring the bell once when this frame is shown (an urgent reminder).
    var bellRequested: Bool { get set }
    /// Text already written on the surface that the terminal should also make clickable
    /// (OSC 8), e.g. a map link. Cleared at each frame.
    var hyperlinks: [Hyperlink] { get set }
    /// Text to put on the terminal's clipboard when this frame is shown (OSC 52: terminals that
    /// allow it take it, others ignore it). Cleared once sent.
    var clipboard: String? { get set }
}

/// A link over text drawn at (x, y): the terminal gets it as an OSC 8 hyperlink.
public struct Hyperlink: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var text: String
    public var url: String
    public init(x: Int, y: Int, text: String, url: String) { self.x = x; self.y = y; self.text = text; self.url = url }
}

extension Surface {
    public var width: Int { grid.width }
    public var height: Int { grid.height }
    public var bounds: Rect { Rect(x: 0, y: 0, width: grid.width, height: grid.height) }

    /// Writes text at (x, y), clipped to `clip` (default: the whole surface). Returns the next column.
    @discardableResult
    public func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = clip ?? bounds
        guard y >= area.y, y < area.maxY else { return x }
        if x >= area.x {
            return grid.write(text, x: x, y: y, style: style, limit: area.maxX)
        }
        // Starting left of the clip: drop the columns that fall outside it.
        var skipped = x
        var rest = Substring(text)
        while skipped < area.x, let first = rest.first {
            skipped += DisplayWidth.of(first)
            rest = rest.dropFirst()
        }
        return grid.write(String(rest), x: skipped, y: y, style: style, limit: area.maxX)
    }

    /// Writes styled spans one after another on row y; returns the next column.
    @discardableResult
    public func write(_ spans: [Span], x: Int, y: Int, clip: Rect? = nil) -> Int {
        var column = x
        for span in spans { column = write(span.text, x: column, y: y, style: span.style, clip: clip) }
        return column
    }

    /// Fills a rectangle with one character.
    public func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        guard rect.height > 0 else { return }
        // One cell a character when it is one column wide and drawn as it is.
        if grid.fill(y: rect.y, x: rect.x, end: rect.maxX, character: character, style: style) {
            for y in (rect.y + 1)..<rect.maxY { grid.fill(y: y, x: rect.x, end: rect.maxX, character: character, style: style) }
            return
        }
        let line = String(repeating: String(character), count: max(0, rect.width))
        for y in rect.y..<rect.maxY { grid.write(line, x: rect.x, y: y, style: style, limit: rect.maxX) }
    }

    /// Draws `glyph` `count` times from (x, y), clipped to `clip`: a rule or a bar's run, put in
    /// the cells directly when the glyph is one plain column, without building the string.
    public func repeatGlyph(_ glyph: String, x: Int, y: Int, count: Int, style: Style, clip: Rect? = nil) {
        let area = clip ?? bounds
        let lower = max(x, area.x), upper = min(x + count, area.maxX)
        guard count > 0, y >= area.y, y < area.maxY, lower < upper else { return }
        if glyph.count == 1, let character = glyph.first,
           grid.fill(y: y, x: lower, end: upper, character: character, style: style) { return }
        write(String(repeating: glyph, count: count), x: x, y: y, style: style, clip: area)
    }

    /// Fills every row of `rect` with `glyph` (a column of a scroll bar, a block).
    public func fill(_ rect: Rect, withGlyph glyph: String, style: Style) {
        guard rect.width > 0, rect.height > 0 else { return }
        if glyph.count == 1, let character = glyph.first {
            fill(rect, with: character, style: style)
            return
        }
        for y in rect.y..<rect.maxY { repeatGlyph(glyph, x: rect.x, y: y, count: rect.width, style: style) }
    }

    /// Draws a border around `rect` with an optional title in the top edge.
    public func drawBox(_ rect: Rect, title: String? = nil, style: Style = Style(.border)) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let g = glyphs
        for y in [rect.y, rect.maxY - 1] {
            write(y == rect.y ? g.topLeft : g.bottomLeft, x: rect.x, y: y, style: style)
            repeatGlyph(g.horizontal, x: rect.x + 1, y: y, count: rect.width - 2, style: style)
            write(y == rect.y ? g.topRight : g.bottomRight, x: rect.maxX - 1, y: y, style: style)
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            write(g.vertical, x: rect.x, y: y, style: style)
            write(g.vertical, x: rect.maxX - 1, y: y, style: style)
        }
        if let title, rect.width > 6 {
            let text = " " + title.truncated(toWidth: rect.width - 6, ellipsis: g.ellipsis) + " "
            write(text, x: rect.x + 2, y: rect.y, style: Style(.title))
        }
    }

    /// Restyles a row range (e.g. to mark a search hit) without changing the text.
    public func highlight(x: Int, y: Int, width: Int, style: Style) {
        grid.restyle(x: x, y: y, width: width) { _ in style }
    }

    /// Parks the cursor at a point, shown or hidden.
    public func parkCursor(x: Int, y: Int, visible: Bool = false) {
        cursor = CursorRequest(Point(x: x, y: y), visible: visible)
    }
}

/// An in-memory surface: what view tests render into and read back as plain text.
public final class MemorySurface: Surface {
    public var grid: CellGrid
    public var cursor: CursorRequest?
    public var bellRequested = false
    public var hyperlinks: [Hyperlink] = []
    public var clipboard: String?
    public let glyphs: Glyphs

    public init(width: Int, height: Int, glyphs: Glyphs = .unicode) {
        grid = CellGrid(width: width, height: height)
        self.glyphs = glyphs
    }

    /// The rendered rows as plain text (no escape codes), trailing spaces trimmed.
    public var lines: [String] { grid.lines }

    /// The whole screen as one string, rows joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// The style of the cell at (x, y).
    public func style(x: Int, y: Int) -> Style { grid[x, y].style }
}
