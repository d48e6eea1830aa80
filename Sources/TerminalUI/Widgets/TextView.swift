/// Word wrapping by display width.
public enum WordWrap {
    /// Wraps `text` to `width` columns. Paragraphs (split on "\n") stay separate lines; words
    /// longer than the width are broken; leading indentation of a paragraph is kept on its
    /// continuation lines when `hangingIndent` is true (useful for bullets).
    public static func wrap(_ text: String, width: Int, hangingIndent: Bool = true) -> [String] {
        wrap(text, width: width, hangingIndent: hangingIndent, byteOffsets: true)
    }

    /// `wrap`, with the byte-offset layout of usual paragraphs (`wrapSingleSpaced`) or, when
    /// `byteOffsets` is false, every paragraph word by word (the tests compare the two).
    static func wrap(_ text: String, width: Int, hangingIndent: Bool, byteOffsets: Bool) -> [String] {
        guard width > 0 else { return [] }
        var text = text
        return text.withUTF8 { bytes in
            var lines: [String] = []
            // Split on bytes: "\n" and " " never occur inside a multi-byte character.
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "\n") {
                wrapParagraph(UnsafeBufferPointer(rebasing: bytes[start..<end]), width: width, hangingIndent: hangingIndent,
                              byteOffsets: byteOffsets, into: &lines)
                start = end + 1
            }
            return lines
        }
    }

    /// Wraps one paragraph (UTF-8 without "\n") and appends its lines (at least one).
    static func wrapParagraph(_ paragraph: UnsafeBufferPointer<UInt8>, width: Int, hangingIndent: Bool, byteOffsets: Bool,
                              into lines: inout [String]) {
        let space = UInt8(ascii: " ")
        if paragraph.isEmpty { lines.append(""); return }
        let leadingCount = paragraph.prefix { $0 == space }.count
        var indent = hangingIndent ? String(repeating: " ", count: leadingCount) : ""
        // "- item" bullets continue under the text, not under the dash.
        if hangingIndent, paragraph.count >= leadingCount + 2, paragraph[leadingCount] == UInt8(ascii: "-"), paragraph[leadingCount + 1] == space {
            indent += "  "
        }
        if indent.utf8.count >= width / 2 { indent = "" }
        if byteOffsets, wrapSingleSpaced(paragraph, leadingCount: leadingCount, indent: indent, width: width, into: &lines) { return }
        wrapWords(paragraph, leadingCount: leadingCount, indent: indent, width: width, into: &lines)
    }

    /// The general wrap of one paragraph after its indentation is known: words as strings,
    /// glued (`gluedWords`), laid out greedily, words wider than a line broken.
    static func wrapWords(_ paragraph: UnsafeBufferPointer<UInt8>, leadingCount: Int, indent: String, width: Int, into lines: inout [String]) {
        let space = UInt8(ascii: " ")
        let firstLine = lines.count
        let leading = String(repeating: " ", count: leadingCount)
        var words: [String] = []
        var wordStart = leadingCount
        for end in leadingCount...paragraph.count where end == paragraph.count || paragraph[end] == space {
            if end > wordStart { words.append(String(decoding: UnsafeBufferPointer(rebasing: paragraph[wordStart..<end]), as: UTF8.self)) }
            wordStart = end + 1
        }
        var current = leading
        var currentWidth = leadingCount
        // Whether `current` holds only spaces (the indentation): the next word needs no space.
        var currentIsBlank = true
        for glued in gluedWords(words) {
            var word = glued
            var wordWidth = columns(of: word)
            let separator = currentIsBlank ? 0 : 1
            if currentWidth + separator + wordWidth <= width {
                if separator == 1 { current += " " }
                current += word
                currentWidth += separator + wordWidth
                currentIsBlank = false
                continue
            }
            if currentWidth > 0 && !currentIsBlank {
                lines.append(current)
                current = indent
                currentWidth = indent.utf8.count
                currentIsBlank = true
            }
            // Break words that cannot fit on a line of their own.
            while currentWidth + wordWidth > width {
                var piece = ""
                var pieceWidth = 0
                for c in word {
                    let w = DisplayWidth.of(c)
                    if currentWidth + pieceWidth + w > width { break }
                    piece.append(c)
                    pieceWidth += w
                }
                if piece.isEmpty { piece = String(word.first!); pieceWidth = DisplayWidth.of(word.first!) }
                lines.append(current + piece)
                word.removeFirst(piece.count)
                wordWidth = columns(of: word)
                current = indent
                currentWidth = indent.utf8.count
                currentIsBlank = true
            }
            current += word
            currentWidth += wordWidth
            currentIsBlank = currentIsBlank && word.isEmpty
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count == firstLine { lines.append("") }
    }

    /// The lines `wrapWords` makes, made from byte offsets, for the usual paragraph: its words
    /// separated by single spaces, none to be broken. Every line is then one slice of the
    /// paragraph (after the indentation), decoded once, where `wrapWords` builds each word and
    /// line by appending strings (a sixth of the Rules tab's first frame). Returns false, having
    /// appended nothing, for any other paragraph.
    static func wrapSingleSpaced(_ paragraph: UnsafeBufferPointer<UInt8>, leadingCount: Int, indent: String, width: Int,
                                 into lines: inout [String]) -> Bool {
        let space = UInt8(ascii: " ")
        typealias Unit = (start: Int, end: Int, width: Int)
        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: paragraph[start..<end]), as: UTF8.self)
        }
        // The units `gluedWords` would make, as byte ranges and display widths.
        var units: [Unit] = []
        units.reserveCapacity(paragraph.count / 5 + 1)
        var pendingOpen: Unit?
        var start = leadingCount
        while start < paragraph.count {
            var end = start
            var ascii = true
            while end < paragraph.count && paragraph[end] != space {
                if paragraph[end] >= 0x80 { ascii = false }
                end += 1
            }
            if end + 1 < paragraph.count && paragraph[end + 1] == space { return false }
            let word: String? = ascii ? nil : text(start, end)
            var unit: Unit = (start, end, word.map { DisplayWidth.of($0) } ?? end - start)
            let first = paragraph[start]
            let mayBeMark = mayBeMark(startingWith: first)
            let marks = mayBeMark ? (word ?? text(start, end)) : ""
            start = end + 1
            if mayBeMark && isOpeningMarks(marks, startingWith: first) {
                pendingOpen = pendingOpen.map { ($0.start, unit.end, $0.width + 1 + unit.width) } ?? unit
                continue
            }
            if let open = pendingOpen {
                unit = (open.start, unit.end, open.width + 1 + unit.width)
                pendingOpen = nil
            }
            if mayBeMark, let last = units.last, isClosingMarks(marks) {
                units[units.count - 1] = (last.start, unit.end, last.width + 1 + unit.width)
            } else {
                units.append(unit)
            }
        }
        if let open = pendingOpen { units.append(open) }
        guard !units.isEmpty else { return false }
        // The greedy layout of `wrapWords`; a line is `prefix` then bytes lineStart..<lineEnd.
        var made: [String] = []
        var prefix = ""
        var lineStart = 0, lineEnd = leadingCount
        var currentWidth = leadingCount
        var currentIsBlank = true
        for unit in units {
            let separator = currentIsBlank ? 0 : 1
            if currentWidth + separator + unit.width > width {
                if currentWidth > 0 && !currentIsBlank {
                    made.append(prefix + text(lineStart, lineEnd))
                    prefix = indent
                    currentWidth = indent.utf8.count
                    currentIsBlank = true
                }
                // A unit wider than the room left on a fresh line is broken: the general path's.
                if currentWidth + unit.width > width { return false }
            }
            if currentIsBlank && !made.isEmpty { lineStart = unit.start }
            lineEnd = unit.end
            currentWidth += (currentIsBlank ? 0 : 1) + unit.width
            currentIsBlank = false
        }
        made.append(prefix + text(lineStart, lineEnd))
        lines += made
        return true
    }

    /// Display columns of a word: its byte count when it is ASCII (every ASCII character is one
    /// column), else the grapheme measure.
    @inline(__always)
    static func columns(of word: String) -> Int {
        var ascii = true
        for byte in word.utf8 where byte >= 0x80 { ascii = false; break }
        return ascii ? word.utf8.count : DisplayWidth.of(word)
    }
}

extension WordWrap {
    /// French sets a space before `: ; ? !` and inside « »; a line must not start with such a
    /// mark nor end with an opening guillemet. A word that is only such marks joins its
    /// neighbour (with its space) into one unit the wrap does not break.
    static func gluedWords(_ words: [String]) -> [String] {
        var glued: [String] = []
        glued.reserveCapacity(words.count)
        var pendingOpen: String?
        for word in words {
            let first = word.utf8.first ?? 0
            let mayBeMark = mayBeMark(startingWith: first)
            if mayBeMark && isOpeningMarks(word, startingWith: first) {
                pendingOpen = (pendingOpen.map { $0 + " " } ?? "") + word
                continue
            }
            var unit = word
            if let open = pendingOpen {
                unit = open + " " + unit
                pendingOpen = nil
            }
            if mayBeMark, let last = glued.last, isClosingMarks(word) {
                glued[glued.count - 1] = last + " " + unit
            } else {
                glued.append(unit)
            }
        }
        if let open = pendingOpen { glued.append(open) }
        return glued
    }

    /// Whether a word starting with this byte may be made of such marks: every opening mark is
    /// outside ASCII, and a closing one is one of : ; ? ! or outside ASCII, so a word starting
    /// with any other byte is neither (the common case, told without decoding it).
    @inline(__always)
    static func mayBeMark(startingWith first: UInt8) -> Bool {
        first >= 0x80 || first == UInt8(ascii: ":") || first == UInt8(ascii: ";") || first == UInt8(ascii: "?") || first == UInt8(ascii: "!")
    }

    /// Whether `word` (starting with the byte `first`) is only opening marks: it joins the next word.
    static func isOpeningMarks(_ word: String, startingWith first: UInt8) -> Bool {
        first >= 0x80 && word.allSatisfy { "«“¿¡".contains($0) }
    }

    /// Whether `word` is only closing marks: it joins the word before.
    static func isClosingMarks(_ word: String) -> Bool {
        word.allSatisfy { ":;?!»”".contains($0) }
    }
}

/// A line of a text view: its text and an optional style for the whole line (headings).
public struct TextLine: Hashable, Sendable {
    public var text: String
    public var style: Style
    public init(_ text: String, _ style: Style = .plain) { self.text = text; self.style = style }
}

/// Scroll position and search of a text view over already-wrapped lines.
///
/// A view made with `readingLine: true` has a reading line, as tig's pager has: ↑ ↓ move it and
/// the text scrolls only when it would leave the view, so a line-by-line read redraws two rows
/// instead of every row, and the hardware cursor (which screen readers follow) sits on the line
/// being read. Without one, ↑ ↓ scroll the text.
public struct TextViewState: Equatable, Sendable {
    public private(set) var lines: [TextLine] = []
    public private(set) var offset = 0
    /// The line being read, when the view has a reading line.
    public private(set) var cursor: Int?
    public var search = SearchState()
    /// `lines` folded for search, computed on the first search after the text changes.
    private var folded: [String]?

    public init(lines: [TextLine] = [], readingLine: Bool = false) {
        self.lines = lines
        cursor = readingLine ? 0 : nil
    }

    /// The reading line, or the top line when the view has none: where "here" is for a search.
    public var currentLine: Int { cursor ?? offset }

    /// Replaces the content (e.g. after a resize re-wraps it), keeping the offset in range;
    /// `keeping` puts the reading line on a line of the new content, that many rows below the top
    /// (as far as the text allows), so a re-wrap does not move what is being read.
    public mutating func setLines(_ newLines: [TextLine], height: Int, keeping anchor: (line: Int, row: Int)? = nil) {
        lines = newLines
        folded = nil
        if let anchor, cursor != nil {
            cursor = min(max(0, anchor.line), max(0, lines.count - 1))
            offset = (cursor ?? 0) - anchor.row
        }
        clamp(height: height)
        if let cursor { self.cursor = min(max(0, cursor), max(0, lines.count - 1)) }
        if !search.liveQuery.isEmpty { search.update(foldedItems: foldedLines(), from: currentLine) }
    }

    /// Shows `line` at the top (as far as the text allows) and puts the reading line on it.
    public mutating func scroll(to line: Int, height: Int) {
        offset = line
        clamp(height: height)
        if cursor != nil { cursor = min(max(0, line), max(0, lines.count - 1)) }
    }

    private mutating func clamp(height: Int) {
        offset = min(max(0, offset), max(0, lines.count - max(1, height)))
    }

    /// Lines kept visible above and below the reading line while it moves.
    private static func margin(height: Int) -> Int { min(2, max(0, (height - 1) / 2)) }

    /// Moves the reading line to `line`, scrolling only as far as it needs to stay in view, and
    /// only the way it moves: a line left at the top by a jump does not pull the text down when
    /// it moves down.
    private mutating func moveCursor(to line: Int, height: Int) {
        let target = min(max(0, line), max(0, lines.count - 1))
        let from = cursor ?? target
        cursor = target
        let margin = Self.margin(height: height)
        if target < from && target < offset + margin { offset = target - margin }
        if target > from && target > offset + height - 1 - margin { offset = target - (height - 1 - margin) }
        if target < offset || target >= offset + height { offset = target - margin }
        clamp(height: height)
    }

    /// Scroll keys: ↑ ↓ PgUp PgDn Home End, Space = page down, and vi's (`ViMoves`). Returns
    /// whether the key was used.
    /// With a reading line, ↑ ↓ move it and a page moves it with the text.
    public mutating func handle(_ key: Key, height: Int) -> Bool {
        let page = max(1, height - 1), half = max(1, height / 2)
        let key = ViMoves.arrow(for: key)
        if let cursor {
            switch key {
            case .control("u"):
                offset -= half
                clamp(height: height)
                moveCursor(to: cursor - half, height: height)
            case .control("d"):
                offset += half
                clamp(height: height)
                moveCursor(to: cursor + half, height: height)
            case .up: moveCursor(to: cursor - 1, height: height)
            case .down: moveCursor(to: cursor + 1, height: height)
            case .pageUp:
                offset -= page
                clamp(height: height)
                moveCursor(to: cursor - page, height: height)
            case .pageDown, .character(" "):
                offset += page
                clamp(height: height)
                moveCursor(to: cursor + page, height: height)
            case .home: moveCursor(to: 0, height: height)
            case .end: moveCursor(to: lines.count - 1, height: height)
            default: return false
            }
            return true
        }
        switch key {
        case .up: scroll(to: offset - 1, height: height)
        case .down: scroll(to: offset + 1, height: height)
        case .control("u"): scroll(to: offset - half, height: height)
        case .control("d"): scroll(to: offset + half, height: height)
        case .pageUp: scroll(to: offset - page, height: height)
        case .pageDown, .character(" "): scroll(to: offset + page, height: height)
        case .home: scroll(to: 0, height: height)
        case .end: scroll(to: lines.count, height: height)
        default: return false
        }
        return true
    }

    /// Whether the lines are folded for search yet (`prepareSearch` does it).
    public var isSearchPrepared: Bool { folded != nil || lines.isEmpty }

    /// Folds the lines for search now: done while keys pause, so the first letter typed in a
    /// search does not fold the whole text.
    public mutating func prepareSearch() { _ = foldedLines() }

    /// The lines folded for search, folded the first time they are needed.
    private mutating func foldedLines() -> [String] {
        if let folded { return folded }
        let made = lines.map { TextMatcher.fold($0.text) }
        folded = made
        return made
    }

    /// Where the text and the reading line were when the search being typed began.
    private var beforeSearch: Position?
    private struct Position: Equatable, Sendable { var offset: Int, cursor: Int? }

    /// `/`: starts typing a search from here; `cancelSearch` comes back here.
    public mutating func beginSearch() {
        beforeSearch = Position(offset: offset, cursor: cursor)
        search.begin()
    }

    /// Esc while typing a search: no search, and the text and the reading line back where they
    /// were when it began (as vim does).
    public mutating func cancelSearch() {
        returnToSearchStart()
        beforeSearch = nil
        search.clear()
    }

    /// Puts the text and the reading line back where the search being typed began.
    private mutating func returnToSearchStart() {
        guard let saved = beforeSearch else { return }
        offset = saved.offset
        cursor = saved.cursor
    }

    /// Runs the typed search from where it began (the reading line, else the top line) and shows
    /// its first hit; when nothing matches, the text goes back to where the search began.
    public mutating func applySearch(height: Int) {
        let from = beforeSearch.map { $0.cursor ?? $0.offset } ?? currentLine
        search.update(foldedItems: foldedLines(), from: from)
        if let hit = search.currentHit {
            reveal(hit, height: height)
        } else {
            returnToSearchStart()
            clamp(height: height)
        }
    }

    /// n / N: next or previous hit, scrolling it into view; false when there is none to go to.
    @discardableResult
    public mutating func stepSearch(forward: Bool, height: Int) -> Bool {
        guard let hit = search.step(forward: forward) else { return false }
        reveal(hit, height: height)
        return true
    }

    /// Scrolls a hit into view (a third down from the top when it was out of view); the reading
    /// line goes to it.
    private mutating func reveal(_ line: Int, height: Int) {
        // With a reading line, a hit within its margin of an edge is brought in too.
        let margin = cursor == nil ? 0 : Self.margin(height: height)
        if line < offset + margin || line > offset + height - 1 - margin { scroll(to: line - height / 3, height: height) }
        if cursor != nil { cursor = min(max(0, line), max(0, lines.count - 1)) }
    }

    /// "Lines a–b of n" figures for a status line.
    public func visibleRange(height: Int) -> ClosedRange<Int> {
        let first = lines.isEmpty ? 0 : offset + 1
        return first...min(lines.count, offset + height)
    }
}

/// Draws a `TextViewState`: visible lines, search hits highlighted, a scroll bar when needed.
public struct TextView {
    public init() {}

    /// Draws the visible lines. A view with a reading line keeps the first column of `rect` as
    /// its gutter, where a pointer marks the line; the hardware cursor is parked on that line.
    public func render(_ state: TextViewState, into surface: Surface, rect: Rect) {
        guard !rect.isEmpty else { return }
        let needsBar = state.lines.count > rect.height
        let gutter = state.cursor == nil ? 0 : 1
        let content = Rect(x: rect.x + gutter, y: rect.y, width: rect.width - gutter - (needsBar ? 1 : 0), height: rect.height)
        let query = state.search.liveQuery
        // The query's stems once per frame, not once per line drawn.
        let pattern = SearchPattern(query)
        let hitLines = Set(state.search.hits)
        for row in 0..<rect.height {
            let index = state.offset + row
            guard index < state.lines.count else { break }
            let line = state.lines[index]
            surface.write(line.text, x: content.x, y: content.y + row, style: line.style, clip: content)
            if !query.isEmpty && hitLines.contains(index) {
                // The current hit is also reversed: without colour, hits are already bold and
                // underlined, and it must still stand out.
                let current = state.search.currentHit == index
                for range in TextMatcher.columnRanges(of: pattern, in: line.text) {
                    let start = content.x + range.lowerBound
                    let width = min(range.count, content.maxX - start)
                    guard width > 0 else { continue }
                    surface.highlight(x: start, y: content.y + row, width: width,
                                      style: Style(.match, current ? [.bold, .underline, .reverse] : []))
                }
            }
        }
        if let cursor = state.cursor, (state.offset..<state.offset + rect.height).contains(cursor) {
            let y = rect.y + cursor - state.offset
            surface.write(surface.glyphs.pointer, x: rect.x, y: y, style: Style(.accent, [.bold]), clip: rect)
            surface.parkCursor(x: content.x, y: y)
        } else {
            surface.parkCursor(x: content.x, y: content.y)
        }
        if needsBar {
            ScrollBar(total: state.lines.count, visible: rect.height, offset: state.offset)
                .render(into: surface, rect: Rect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height))
        }
    }
}
