#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Case- and accent-insensitive matching shared by every `/` search.
public enum TextMatcher {
    /// A form of `text` for comparison: lowercased, accents removed ("Pénalité" → "penalite").
    /// On an ASCII terminal it is the text as drawn ("4½" → "4 1/2"), so a search finds what the
    /// screen shows.
    public static func fold(_ text: String) -> String {
        let text = ASCIIText.isOn ? ASCIIText.transliterate(text) : text
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // Most lines are ASCII: lowercase the bytes, no Unicode tables.
            return text.lowercased()
        }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.lowercased().unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                result.unicodeScalars.append(scalar)
            } else if let base = FoldingTable.latin[value] {
                result += base
            } else if (0x0300...0x036F).contains(value) {
                continue  // a combining accent on its own
            } else if (0xFF01...0xFF5E).contains(value) {
                result.unicodeScalars.append(Unicode.Scalar(value - 0xFEE0)!)  // full-width ASCII
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether the folded `text` contains the folded, non-empty `query`: a byte search over
    /// UTF-8, which for folded text (no combining accents left) finds what a search by
    /// characters finds, without breaking either string into graphemes.
    public static func folded(_ text: String, contains query: String) -> Bool {
        var text = text, query = query
        return text.withUTF8 { haystack in
            query.withUTF8 { needle in
                guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
                var start = 0
                let last = haystack.count - needle.count
                while start <= last {
                    guard let found = haystack[start...last].firstIndex(of: first) else { return false }
                    if memcmp(haystack.baseAddress! + found, needle.baseAddress!, needle.count) == 0 { return true }
                    start = found + 1
                }
                return false
            }
        }
    }

    /// The language ("en", "fr", "es", "it") whose word forms a search forgives ("bounces" finds
    /// "bounce", `WordForms`); nil: a query matches as typed. The app sets it to the interface
    /// language.
    nonisolated(unsafe) public static var language: String?

    /// Whether `text` contains `query` or one of its word forms, ignoring case and accents.
    public static func matches(_ text: String, query: String) -> Bool {
        let pattern = SearchPattern(query)
        return pattern.isEmpty ? false : pattern.found(in: fold(text))
    }

    /// Column ranges (in display columns) of every occurrence of `query` (or of its word forms)
    /// in `line` (on an ASCII terminal, in the line as drawn).
    public static func columnRanges(of query: String, in line: String) -> [Range<Int>] {
        columnRanges(of: SearchPattern(query), in: line)
    }

    /// The same for a pattern made once (a frame draws many lines of one query).
    public static func columnRanges(of pattern: SearchPattern, in line: String) -> [Range<Int>] {
        guard !pattern.isEmpty else { return [] }
        let line = ASCIIText.isOn ? ASCIIText.transliterate(line) : line
        if line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII: one byte is one column, and folding is lowercasing.
            return pattern.ranges(in: Array(fold(line).utf8))
        }
        // Each character folded on its own (usually to one character), with the column of
        // every byte it folds to.
        var bytes: [UInt8] = [], starts: [Int] = [], ends: [Int] = []
        var column = 0
        for c in line {
            let width = DisplayWidth.of(c)
            for byte in fold(String(c)).utf8 {
                bytes.append(byte)
                starts.append(column)
                ends.append(column + width)
            }
            column += width
        }
        return pattern.ranges(in: bytes).map { starts[$0.lowerBound]..<ends[$0.upperBound - 1] }
    }
}

/// A query as a search matches it: folded (`TextMatcher.fold`), and, in a language of
/// `WordForms`, word by word with each word's stem, so that the words' other forms match too
/// ("bounces" finds "bounce" and "bouncing"; "rebondit" finds "rebond").
public struct SearchPattern: Sendable {
    /// One piece of the folded query: a word's stem, after which the text's word may go on
    /// (`open`), or the query's own bytes.
    struct Piece: Sendable {
        var bytes: [UInt8]
        var open: Bool
    }

    /// The folded query.
    public let folded: String
    let pieces: [Piece]

    public init(_ query: String, language: String? = TextMatcher.language) {
        folded = TextMatcher.fold(query)
        var pieces: [Piece] = []
        var run: [UInt8] = [], inWord = false
        func close() {
            guard !run.isEmpty else { return }
            if inWord, let language {
                let word = String(decoding: run, as: UTF8.self)
                let stem = WordForms.stem(word, language: language)
                pieces.append(Piece(bytes: Array(stem.utf8), open: stem != word))
            } else {
                pieces.append(Piece(bytes: run, open: false))
            }
            run = []
        }
        for byte in folded.utf8 {
            let letter = SearchPattern.isWordByte(byte)
            if letter != inWord { close(); inWord = letter }
            run.append(byte)
        }
        close()
        self.pieces = pieces.contains(where: \.open) ? pieces : [Piece(bytes: Array(folded.utf8), open: false)]
    }

    public var isEmpty: Bool { folded.isEmpty }

    /// Whether `text`, already folded, contains the query or its word forms.
    public func found(in text: String) -> Bool {
        if pieces.count == 1 && !pieces[0].open { return TextMatcher.folded(text, contains: folded) }
        var text = text
        return text.withUTF8 { firstEnd(in: $0, from: 0) != nil }
    }

    /// The byte ranges of the matches in folded `bytes`, left to right, without overlaps.
    func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            var from = 0
            while let match = firstEnd(in: buffer, from: from) {
                ranges.append(match)
                from = match.upperBound
            }
            return ranges
        }
    }

    /// The first match starting at or after `from`.
    private func firstEnd(in text: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int>? {
        guard let first = pieces.first?.bytes.first else { return nil }
        var start = from
        while start < text.count {
            guard let found = text[start...].firstIndex(of: first) else { return nil }
            if let end = end(of: text, at: found) { return found..<end }
            start = found + 1
        }
        return nil
    }

    /// Where a match that starts at `start` ends, or nil when none starts there.
    private func end(of text: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var i = start
        for piece in pieces {
            guard i + piece.bytes.count <= text.count else { return nil }
            for (k, byte) in piece.bytes.enumerated() where text[i + k] != byte { return nil }
            i += piece.bytes.count
            if piece.open { while i < text.count && SearchPattern.isWordByte(text[i]) { i += 1 } }
        }
        return i > start ? i : nil
    }

    /// A byte of a word: an ASCII letter, or part of a character beyond ASCII.
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte >= 0x80
    }
}

/// The `/` search of a list or text: the query being typed, the hits, the current hit.
///
/// Flow: `/` → `begin()`; keys go to `handleTyping` until Enter (keep) or Esc (cancel);
/// afterwards `n` / `N` step through `hits`.
public struct SearchState: Equatable, Sendable {
    public private(set) var isTyping = false
    public var field = TextFieldState()
    /// The query in force (after Enter).
    public private(set) var query = ""
    /// Indices (items or lines) that match `query`, in order.
    public private(set) var hits: [Int] = []
    public private(set) var current: Int?

    public init() {}

    /// Starts typing a new query (the field starts empty, as in vim and less; the query in
    /// force stays until Enter replaces it).
    public mutating func begin() {
        isTyping = true
        field = TextFieldState("")
    }

    public enum Event: Equatable { case none, changed, submitted, cancelled }

    /// Feeds a key while the query is being typed.
    public mutating func handleTyping(_ key: Key) -> Event {
        switch key {
        case .enter:
            isTyping = false
            query = field.text
            return .submitted
        case .escape:
            isTyping = false
            return .cancelled
        default:
            return field.handle(key) ? .changed : .none
        }
    }

    /// The query being typed, or the one in force.
    public var liveQuery: String { isTyping ? field.text : query }

    /// Recomputes hits for `items` (one string per item or line) and picks the first hit at or
    /// after `from`.
    public mutating func update(items: [String], from: Int) {
        update(foldedItems: items.map(TextMatcher.fold), from: from)
    }

    /// The same, over items already folded with `TextMatcher.fold` (callers that search the
    /// same text often keep them).
    public mutating func update(foldedItems: [String], from: Int) {
        let pattern = SearchPattern(liveQuery)
        guard !pattern.isEmpty else { hits = []; current = nil; return }
        hits = foldedItems.indices.filter { pattern.found(in: foldedItems[$0]) }
        current = hits.firstIndex { $0 >= from } ?? (hits.isEmpty ? nil : 0)
    }

    /// The index of the current hit, if any.
    public var currentHit: Int? { current.map { hits[$0] } }

    /// Moves to the next (`forward`) or previous hit, wrapping around.
    public mutating func step(forward: Bool) -> Int? {
        guard !hits.isEmpty else { return nil }
        let c = current ?? (forward ? -1 : 0)
        current = (c + (forward ? 1 : -1) + hits.count) % hits.count
        return currentHit
    }

    public mutating func clear() {
        query = ""
        hits = []
        current = nil
        isTyping = false
    }
}
