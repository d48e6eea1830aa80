/// A small streaming XML pull scanner, enough for GPX and TCX: start and end tags with their
/// attributes, text and CDATA; comments, processing instructions and DOCTYPE are skipped. Names
/// are compared by local name (after any namespace prefix). It checks that tags nest and close,
/// and reports the line of every problem. Ranges it returns point into the stream's buffer and
/// stay valid until the next call to `next()`.
final class XMLScanner {
    enum Event { case start, end, text, eof }

    struct Attribute {
        var localName: Range<Int>
        var value: Range<Int>
    }

    let stream: ByteStream
    let file: String
    /// The current tag's local name (start and end events).
    private(set) var localName: Range<Int> = 0..<0
    private(set) var selfClosing = false
    private(set) var attributes: [Attribute] = []
    /// The current text (text events), entities not decoded.
    private(set) var text: Range<Int> = 0..<0
    /// Line where the current token starts.
    private(set) var tokenLine = 1
    /// Open elements: qualified names (buffers reused per depth) and the lines they opened on.
    private var openNames: [[UInt8]] = []
    private var openLines: [Int] = []
    private(set) var depth = 0
    private var pendingEnd = false
    private var sawRoot = false

    init(stream: ByteStream, file: String) {
        self.stream = stream
        self.file = file
    }

    private func fail(_ problem: WorkoutError.Problem, line: Int? = nil) -> WorkoutError {
        WorkoutError(file: file, line: line ?? tokenLine, problem: problem)
    }

    @inline(__always) private var buffer: UnsafeMutablePointer<UInt8> { stream.buffer }

    /// Finds `delimiter` from `from`, refilling the buffer while keeping the token from `start`.
    /// Returns the index just after the delimiter, or nil at the end of the file. Counts lines.
    private func find(_ d0: UInt8, _ d1: UInt8?, _ d2: UInt8?, from: Int, start: inout Int, quotes: Bool = false) -> Int? {
        var p = from
        var quote: UInt8 = 0
        var line = stream.line
        defer { stream.line = line }
        while true {
            let count = stream.count
            let base = buffer
            while p < count {
                let byte = base[p]
                if byte == 0x0A { line += 1 }
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if quotes && (byte == 0x22 || byte == 0x27) {
                    quote = byte
                } else if byte == d0 {
                    // Multi-byte delimiters ("-->", "]]>", "?>") need the bytes before the final one.
                    if let d1 {
                        if p >= start + 2, base[p - 1] == d1, d2 == nil || base[p - 2] == d2! { return p + 1 }
                    } else {
                        return p + 1
                    }
                }
                p += 1
            }
            let (shift, more) = stream.refill(keeping: start)
            p -= shift
            start -= shift
            if !more { return nil }
        }
    }

    /// The next event. Throws on malformed XML, naming the line.
    func next() throws -> Event {
        // A loop, not recursion: a file of a million comments must not exhaust the stack.
        while true {
            if let event = try nextToken() { return event }
        }
    }

    /// The next event, or nil after skipping a comment, declaration or processing instruction.
    private func nextToken() throws -> Event? {
        if pendingEnd {
            pendingEnd = false
            return try closeElement(named: nil)
        }
        var start = stream.position
        if start >= stream.count {
            let (shift, more) = stream.refill(keeping: start)
            start -= shift
            if !more && start >= stream.count { return try endOfFile() }
        }
        tokenLine = stream.line
        if buffer[start] != 0x3C {   // text up to the next "<"
            guard let after = find(0x3C, nil, nil, from: start, start: &start) else {
                text = start..<stream.count
                stream.position = stream.count
                if depth > 0 { return .text }
                if isBlank(text) { return try endOfFile() }
                throw fail(.malformed(.t("text after the end of the document")))
            }
            text = start..<(after - 1)
            stream.position = after - 1
            if depth == 0 && !isBlank(text) { throw fail(.malformed(sawRoot ? .t("text after the end of the document") : .t("text before the first element"))) }
            return .text
        }
        // A markup token: look at what follows "<".
        var lookahead = start + 1
        while lookahead >= stream.count {
            let (shift, more) = stream.refill(keeping: start)
            start -= shift; lookahead -= shift
            if !more { throw fail(.truncated(openElement)) }
        }
        switch buffer[lookahead] {
        case 0x21: // "<!": comment, CDATA or DOCTYPE
            while lookahead + 8 >= stream.count {
                let (shift, more) = stream.refill(keeping: start)
                start -= shift; lookahead -= shift
                if !more { break }
            }
            if matches(at: start, "<!--") {
                guard let after = find(0x3E, 0x2D, 0x2D, from: start + 4, start: &start) else { throw fail(.truncated(.t("a comment"))) }
                stream.position = after
                return nil
            }
            if matches(at: start, "<![CDATA[") {
                guard let after = find(0x3E, 0x5D, 0x5D, from: start + 9, start: &start) else { throw fail(.truncated(.t("CDATA"))) }
                text = (start + 9)..<(after - 3)
                stream.position = after
                return .text
            }
            guard let after = find(0x3E, nil, nil, from: start + 2, start: &start, quotes: true) else { throw fail(.truncated(.t("a declaration"))) }
            stream.position = after
            return nil
        case 0x3F: // "<?": processing instruction
            guard let after = find(0x3E, 0x3F, nil, from: start + 2, start: &start) else { throw fail(.truncated(.t("a processing instruction"))) }
            stream.position = after
            return nil
        case 0x2F: // "</": end tag
            guard let after = find(0x3E, nil, nil, from: start + 2, start: &start) else { throw fail(.truncated(openElement)) }
            stream.position = after
            var nameEnd = after - 1
            while nameEnd > start + 2 && isSpace(buffer[nameEnd - 1]) { nameEnd -= 1 }
            return try closeElement(named: (start + 2)..<nameEnd)
        default:
            guard let after = find(0x3E, nil, nil, from: start + 1, start: &start, quotes: true) else { throw fail(.truncated(openElement)) }
            stream.position = after
            try parseStartTag((start + 1)..<(after - 1))
            return .start
        }
    }

    /// The innermost element still open, and where: what a file cut short leaves unclosed.
    private var openElement: LocalizedMessage {
        guard depth > 0 else { return .t("the document") }
        return .t("<{element}> opened on line {line}", ["element": String(decoding: openNames[depth - 1], as: UTF8.self),
                                                          "line": String(openLines[depth - 1])])
    }

    private func endOfFile() throws -> Event {
        if depth > 0 { throw fail(.truncated(openElement), line: stream.line) }
        if !sawRoot { throw fail(.notAWorkout(.t("the file has no XML elements")), line: 1) }
        return .eof
    }

    private func closeElement(named name: Range<Int>?) throws -> Event {
        guard depth > 0 else { throw fail(.malformed(.t("a closing tag without an opening one"))) }
        let open = openNames[depth - 1]
        if let name {
            let same = open.count == name.count && open.withUnsafeBufferPointer { o in
                (0..<name.count).allSatisfy { o[$0] == buffer[name.lowerBound + $0] }
            }
            guard same else {
                let closing = String(decoding: UnsafeBufferPointer(start: buffer + name.lowerBound, count: name.count), as: UTF8.self)
                throw fail(.malformed(.t("</{closing}> closes <{element}> opened on line {line}",
                                         ["closing": "\(closing)", "element": String(decoding: openNames[depth - 1], as: UTF8.self),
                                          "line": String(openLines[depth - 1])])))
            }
            localName = localPart(name)
        } else {
            localName = 0..<0
        }
        depth -= 1
        return .end
    }

    /// Parses `name attr="value" …` (and a final "/") of a start tag.
    private func parseStartTag(_ range: Range<Int>) throws {
        var p = range.lowerBound
        var end = range.upperBound
        selfClosing = end > p && buffer[end - 1] == 0x2F
        if selfClosing { end -= 1 }
        let nameStart = p
        while p < end && !isSpace(buffer[p]) { p += 1 }
        guard p > nameStart else { throw fail(.malformed(.t("a tag without a name"))) }
        let name = nameStart..<p
        localName = localPart(name)
        attributes.removeAll(keepingCapacity: true)
        while true {
            while p < end && isSpace(buffer[p]) { p += 1 }
            guard p < end else { break }
            let attributeStart = p
            while p < end && buffer[p] != 0x3D && !isSpace(buffer[p]) { p += 1 }
            let attributeName = attributeStart..<p
            while p < end && isSpace(buffer[p]) { p += 1 }
            guard p < end, buffer[p] == 0x3D else { throw fail(.malformed(.t("an attribute without a value"))) }
            p += 1
            while p < end && isSpace(buffer[p]) { p += 1 }
            guard p < end, buffer[p] == 0x22 || buffer[p] == 0x27 else { throw fail(.malformed(.t("an attribute value without quotes"))) }
            let quote = buffer[p]
            p += 1
            let valueStart = p
            while p < end && buffer[p] != quote { p += 1 }
            guard p < end else { throw fail(.malformed(.t("an unterminated attribute value"))) }
            attributes.append(Attribute(localName: localPart(attributeName), value: valueStart..<p))
            p += 1
        }
        if depth == 0 && sawRoot { throw fail(.malformed(.t("a second root element"))) }
        sawRoot = true
        if depth == openNames.count { openNames.append([]); openLines.append(0) }
        openNames[depth].removeAll(keepingCapacity: true)
        openNames[depth].append(contentsOf: UnsafeBufferPointer(start: buffer + name.lowerBound, count: name.count))
        openLines[depth] = tokenLine
        depth += 1
        if selfClosing { pendingEnd = true }
    }

    private func localPart(_ name: Range<Int>) -> Range<Int> {
        var p = name.upperBound
        while p > name.lowerBound {
            if buffer[p - 1] == 0x3A { return p..<name.upperBound }
            p -= 1
        }
        return name
    }

    @inline(__always) private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    private func isBlank(_ range: Range<Int>) -> Bool { range.allSatisfy { isSpace(buffer[$0]) } }

    private func matches(at p: Int, _ literal: StaticString) -> Bool {
        let end = p + literal.utf8CodeUnitCount
        return end <= stream.count && equals(p..<end, literal)
    }

    // MARK: Helpers for readers

    /// Whether `range` holds exactly `literal`.
    func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard range.count == n else { return false }
        let l = literal.utf8Start
        for i in 0..<n where buffer[range.lowerBound + i] != l[i] { return false }
        return true
    }

    /// The bytes of `range` as a string, with the five XML entities and character references decoded.
    func string(_ range: Range<Int>) -> String {
        let raw = String(decoding: UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count), as: UTF8.self)
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                result += "&"; rest = rest[rest.index(after: amp)...]; continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            if let character = MarkupEntities.characters[entity] { result.append(character) }
            else if entity.hasPrefix("#x"), let v = UInt32(entity.dropFirst(2), radix: 16), let s = Unicode.Scalar(v) { result.unicodeScalars.append(s) }
            else if entity.hasPrefix("#"), let v = UInt32(entity.dropFirst()), let s = Unicode.Scalar(v) { result.unicodeScalars.append(s) }
            else { result += "&" + entity + ";" }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }

    /// A number in `range` (spaces around allowed), or nil.
    func number(_ range: Range<Int>) -> Double? {
        FastNumber.parse(UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count))
    }

    /// An ISO 8601 time in `range`, in seconds since 1970, or nil.
    func time(_ range: Range<Int>) -> Double? {
        FastTime.parse(UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count))
    }
}
