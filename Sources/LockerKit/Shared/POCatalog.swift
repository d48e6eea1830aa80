/// One translated message of a gettext PO catalogue.
public struct POEntry: Equatable, Sendable {
    public var context: String?
    public var msgid: String
    public var msgidPlural: String?
    /// One string, or one per plural form.
    public var msgstr: [String]
    public var isFuzzy: Bool
    /// Line where the entry starts (1-based), for messages about it.
    public var line: Int

    /// The lookup key: gettext's convention, context and id separated by U+0004.
    public var key: String { POCatalog.key(msgid, context: context) }
}

/// A parse error, with the line it was found on.
public struct POParseError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// A parsed gettext PO catalogue (the subset GNU gettext writes): comments and flags, `msgctxt`,
/// `msgid`, `msgid_plural`, `msgstr` and `msgstr[n]`, C escapes, strings continued on following
/// lines. Obsolete (`#~`) entries are skipped; the header (empty msgid) is kept separately.
public struct POCatalog: Equatable, Sendable {
    public private(set) var entries: [String: POEntry] = [:]
    /// Entries in file order.
    public private(set) var order: [String] = []
    public private(set) var header: [String: String] = [:]

    public static func key(_ msgid: String, context: String?) -> String {
        guard let context else { return msgid }
        return context + "\u{4}" + msgid
    }

    public init() {}

    public init(parsing text: String) throws {
        var parser = Parser(text: text)
        for entry in try parser.parse() {
            if entry.msgid.isEmpty && entry.context == nil {
                header = POCatalog.parseHeader(entry.msgstr.first ?? "")
                continue
            }
            if entries[entry.key] == nil { order.append(entry.key) }
            entries[entry.key] = entry
        }
    }

    /// The translation of `msgid`, or nil when missing, empty or fuzzy.
    public func translation(_ msgid: String, context: String? = nil, pluralIndex: Int? = nil) -> String? {
        guard let entry = entries[POCatalog.key(msgid, context: context)], !entry.isFuzzy else { return nil }
        let index = min(pluralIndex ?? 0, entry.msgstr.count - 1)
        guard index >= 0 else { return nil }
        let text = entry.msgstr[index]
        return text.isEmpty ? nil : text
    }

    static func parseHeader(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingSpaces
        }
        return fields
    }

    private struct Parser {
        let lines: [Substring]
        var index = 0

        init(text: String) {
            // Split on bytes (fast), then drop a trailing "\r" (Windows line ends).
            var result: [Substring] = []
            var start = text.utf8.startIndex
            for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
                result.append(Parser.stripCR(text[start..<index]))
                start = text.utf8.index(after: index)
            }
            result.append(Parser.stripCR(text[start..<text.endIndex]))
            lines = result
        }

        static func stripCR(_ line: Substring) -> Substring {
            line.utf8.last == UInt8(ascii: "\r") ? Substring(line.utf8.dropLast()) : line
        }

        private enum Field { case context, id, idPlural, str(Int) }

        mutating func parse() throws -> [POEntry] {
            var result: [POEntry] = []
            var current = Draft()
            var field: Field?

            func finish() throws {
                if current.hasContent {
                    guard let id = current.msgid else {
                        throw POParseError(line: current.line, message: "entry without msgid")
                    }
                    if current.msgstr.isEmpty {
                        throw POParseError(line: current.line, message: "msgid \"\(id.prefix(40))\" has no msgstr")
                    }
                    let count = (current.msgstr.keys.max() ?? 0) + 1
                    let strings = (0..<count).map { current.msgstr[$0] ?? "" }
                    result.append(POEntry(context: current.context, msgid: id, msgidPlural: current.msgidPlural,
                                          msgstr: strings, isFuzzy: current.fuzzy, line: current.line))
                }
                current = Draft()
                field = nil
            }

            while index < lines.count {
                let lineNumber = index + 1
                let line = lines[index].trimmedSpaces
                index += 1
                // The marks that start a line are ASCII: compared as bytes, not as characters.
                let bytes = line.utf8
                guard let mark = bytes.first else { continue }
                if mark == UInt8(ascii: "#") {
                    let second = bytes.dropFirst().first
                    if second == UInt8(ascii: "~") { continue }
                    // A comment after msgstr starts the next entry.
                    if current.hasStr { try finish() }
                    if second == UInt8(ascii: ","), line.contains("fuzzy") { current.fuzzy = true }
                    if current.line == 0 { current.line = lineNumber }
                    continue
                }
                if mark == UInt8(ascii: "\"") {
                    guard let field else { throw POParseError(line: lineNumber, message: "string outside of an entry") }
                    let value = try unquote(line, line: lineNumber)
                    append(value, to: field, in: &current)
                    continue
                }
                let (keyword, rest) = split(line)
                if current.line == 0 { current.line = lineNumber }
                switch keyword {
                case "msgctxt":
                    if current.hasStr || current.msgid != nil { try finish(); current.line = lineNumber }
                    current.context = try unquote(rest, line: lineNumber)
                    field = .context
                case "msgid":
                    if current.hasStr || current.msgid != nil { try finish(); current.line = lineNumber }
                    current.msgid = try unquote(rest, line: lineNumber)
                    field = .id
                case "msgid_plural":
                    guard current.msgid != nil else { throw POParseError(line: lineNumber, message: "msgid_plural before msgid") }
                    current.msgidPlural = try unquote(rest, line: lineNumber)
                    field = .idPlural
                case "msgstr":
                    guard current.msgid != nil else { throw POParseError(line: lineNumber, message: "msgstr before msgid") }
                    current.msgstr[0] = try unquote(rest, line: lineNumber)
                    current.hasStr = true
                    field = .str(0)
                default:
                    if keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                       let n = Int(keyword.dropFirst(7).dropLast()), (0..<10).contains(n) {
                        guard current.msgid != nil else { throw POParseError(line: lineNumber, message: "msgstr before msgid") }
                        current.msgstr[n] = try unquote(rest, line: lineNumber)
                        current.hasStr = true
                        field = .str(n)
                    } else {
                        throw POParseError(line: lineNumber, message: "unknown keyword \"\(keyword.prefix(20))\"")
                    }
                }
            }
            try finish()
            return result
        }

        private func split(_ line: Substring) -> (Substring, Substring) {
            guard let space = line.utf8.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return (line, "") }
            return (line[..<space], line[space...].trimmedSpaces)
        }

        private func append(_ value: String, to field: Field, in draft: inout Draft) {
            switch field {
            case .context: draft.context = (draft.context ?? "") + value
            case .id: draft.msgid = (draft.msgid ?? "") + value
            case .idPlural: draft.msgidPlural = (draft.msgidPlural ?? "") + value
            case .str(let n): draft.msgstr[n] = (draft.msgstr[n] ?? "") + value
            }
        }

        /// Reads a C-style quoted string, resolving escapes. It works on the UTF-8 bytes and
        /// copies the text between escapes in runs: a catalogue is read at start-up.
        private func unquote(_ text: Substring, line: Int) throws -> String {
            var text = text
            return try text.withUTF8 { try Parser.unquote($0, line: line) }
        }

        private static func unquote(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws -> String {
            let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
            guard bytes.count >= 2, bytes.first == quote, bytes.last == quote else {
                throw POParseError(line: line, message: "expected a quoted string")
            }
            let end = bytes.count - 1
            guard let firstEscape = bytes[1..<end].firstIndex(where: { $0 == backslash || $0 == quote }) else {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[1..<end]), as: UTF8.self)
            }
            var result: [UInt8] = []
            result.reserveCapacity(end)
            var copied = 1
            var i = firstEscape
            while i < end {
                let c = bytes[i]
                if c == quote { throw POParseError(line: line, message: "unescaped quote inside a string") }
                guard c == backslash else { i += 1; continue }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
                i += 1
                guard i < end else { throw POParseError(line: line, message: "string ends with a backslash") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "a"): result.append(0x07)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "v"): result.append(0x0B)
                case backslash, quote, UInt8(ascii: "'"), UInt8(ascii: "?"): result.append(e)
                case UInt8(ascii: "x"):
                    var value: UInt32 = 0, digits = 0
                    while i < end, digits < 2, let d = Character(Unicode.Scalar(bytes[i])).hexDigitValue {
                        value = value * 16 + UInt32(d); i += 1; digits += 1
                    }
                    guard digits > 0, let scalar = Unicode.Scalar(value) else {
                        throw POParseError(line: line, message: "bad \\x escape")
                    }
                    result.append(contentsOf: scalar.utf8)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = UInt32(e - UInt8(ascii: "0"))
                    var digits = 1
                    while i < end, digits < 3, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[i]) {
                        value = value * 8 + UInt32(bytes[i] - UInt8(ascii: "0")); i += 1; digits += 1
                    }
                    result.append(contentsOf: Unicode.Scalar(value)!.utf8)
                default:
                    // Name the whole character after the backslash, not its first byte.
                    let rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i - 1)..<end]), as: UTF8.self)
                    throw POParseError(line: line, message: "unknown escape \\\(rest.unicodeScalars.first ?? "?")")
                }
                copied = i
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<end]))
            return String(decoding: result, as: UTF8.self)
        }
    }

    private struct Draft {
        var context: String?
        var msgid: String?
        var msgidPlural: String?
        var msgstr: [Int: String] = [:]
        var fuzzy = false
        var hasStr = false
        var line = 0
        var hasContent: Bool { msgid != nil || context != nil || !msgstr.isEmpty }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs. It looks at the UTF-8 bytes (both
    /// are ASCII), not at characters: catalogues and data files are trimmed line by line at
    /// start-up.
    var trimmingSpaces: String { String(trimmedSpaces) }

    /// The same part of the text, not copied.
    var trimmedSpaces: Substring {
        let bytes = utf8
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first..<bytes.index(after: last)]
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String { self[...].trimmingSpaces }
}
