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

    /// Whether `text` contains `query`, ignoring case and accents.
    public static func matches(_ text: String, query: String) -> Bool {
        let q = fold(query)
        return q.isEmpty ? false : folded(fold(text), contains: q)
    }

    /// Column ranges (in display columns) of every occurrence of `query` in `line` (on an ASCII
    /// terminal, in the line as drawn).
    public static func columnRanges(of query: String, in line: String) -> [Range<Int>] {
        let line = ASCIIText.isOn ? ASCIIText.transliterate(line) : line
        if line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII: one byte is one column, and folding is lowercasing.
            let q = Array(fold(query).utf8)
            let text = Array(fold(line).utf8)
            guard !q.isEmpty, q.count <= text.count else { return [] }
            var ranges: [Range<Int>] = []
            var i = 0
            while i + q.count <= text.count {
                if text[i] == q[0] && text[i..<(i + q.count)].elementsEqual(q) {
                    ranges.append(i..<(i + q.count))
                    i += q.count
                } else {
                    i += 1
                }
            }
            return ranges
        }
        let q = Array(fold(query))
        guard !q.isEmpty else { return [] }
        let characters = Array(line)
        let folded = characters.map { Array(fold(String($0))) }
        var ranges: [Range<Int>] = []
        var columns: [Int] = []
        var column = 0
        for c in characters { columns.append(column); column += DisplayWidth.of(c) }
        columns.append(column)
        var i = 0
        while i < characters.count {
            // Match character by character on folded forms (each usually one character long).
            var j = i, k = 0
            while j < characters.count, k < q.count {
                let f = folded[j]
                guard k + f.count <= q.count, Array(q[k..<(k + f.count)]) == f else { break }
                k += f.count
                j += 1
            }
            if k == q.count && j > i {
                ranges.append(columns[i]..<columns[j])
                i = j
            } else {
                i += 1
            }
        }
        return ranges
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
        let q = TextMatcher.fold(liveQuery)
        guard !q.isEmpty else { hits = []; current = nil; return }
        hits = foldedItems.indices.filter { TextMatcher.folded(foldedItems[$0], contains: q) }
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
