/// RFC 4180 comma-separated values: fields in double quotes may hold commas, quotes (doubled)
/// and line breaks; records end with CRLF (LF alone is accepted when reading). A UTF-8 byte
/// order mark, as spreadsheets write, is skipped.
public enum CSV {
    /// One record and the line of the file where it starts (from 1).
    public struct Record: Equatable, Sendable {
        public var line: Int
        public var fields: [String]
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var problem: Problem
        public enum Problem: Equatable, Sendable {
            /// A quoted field is never closed.
            case unterminatedQuote
            /// A quote inside a field that does not start with one, or text right after a closing quote.
            case strayQuote
        }
        public var description: String { "line \(line): \(problem)" }

        /// What is wrong, in the interface language (the line is reported apart).
        public func message(_ l: Localizer) -> String {
            switch problem {
            case .unterminatedQuote: return l.t("a quoted field is never closed")
            case .strayQuote: return l.t("a quote in the middle of a field (write \"\" inside a quoted field)")
            }
        }
    }

    /// Parses the whole text; blank lines are skipped.
    public static func parse(_ text: String) throws -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quotedField = false   // the current field started with a quote
        var afterClosingQuote = false
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty && !quotedField) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields = []
            field = ""
            quotedField = false
            afterClosingQuote = false
        }
        while let c = next() {
            if inQuotes {
                if c == "\"" {
                    if let following = next() {
                        if following == "\"" { field.unicodeScalars.append("\"") }
                        else { inQuotes = false; afterClosingQuote = true; pending = following }
                    } else {
                        inQuotes = false
                        afterClosingQuote = true
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case ",":
                fields.append(field)
                field = ""
                quotedField = false
                afterClosingQuote = false
            case "\r":
                // CRLF or a lone CR both end the record.
                if let following = next(), following != "\n" { pending = following }
                endRecord()
                line += 1
                recordLine = line
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            case "\"":
                guard field.isEmpty && !quotedField else { throw ParseError(line: line, problem: .strayQuote) }
                inQuotes = true
                quotedField = true
            default:
                if afterClosingQuote { throw ParseError(line: line, problem: .strayQuote) }
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes { throw ParseError(line: recordLine, problem: .unterminatedQuote) }
        if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
        return records
    }

    /// One field, quoted when it holds a comma, a quote or a line break.
    public static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return value }
        return "\"" + value.replacing("\"", with: "\"\"") + "\""
    }

    /// Records as RFC 4180 text (CRLF after every record).
    public static func write(_ rows: [[String]]) -> String {
        rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }
}
