/// A streaming JSON tokenizer over a `ByteStream`: no document tree, so a million points need no
/// more memory than the points themselves. Reports the line of every problem.
final class JSONTokenizer {
    enum Token: Equatable {
        case beginObject, endObject, beginArray, endArray, colon, comma
        case string(Range<Int>)
        case number(Double)
        case bool(Bool)
        case null
        case eof
    }

    let stream: ByteStream
    let file: String
    private(set) var tokenLine = 1
    private var peeked: Token?

    init(stream: ByteStream, file: String) {
        self.stream = stream
        self.file = file
    }

    func fail(_ detail: LocalizedMessage) -> WorkoutError {
        WorkoutError(file: file, line: tokenLine, problem: .malformed(detail))
    }

    /// Makes sure `p` is inside the buffer, refilling while keeping the token from `start`.
    @inline(__always)
    private func available(_ p: inout Int, _ start: inout Int) -> Bool {
        if p < stream.count { return true }
        let (shift, more) = stream.refill(keeping: start)
        p -= shift
        start -= shift
        return more || p < stream.count
    }

    func peek() throws -> Token {
        if let peeked { return peeked }
        let token = try read()
        peeked = token
        return token
    }

    func next() throws -> Token {
        if let token = peeked { peeked = nil; return token }
        return try read()
    }

    private func read() throws -> Token {
        var p = stream.position
        var start = p
        // Skip white space, counting lines.
        while true {
            guard available(&p, &start) else { stream.position = p; tokenLine = stream.line; return .eof }
            let b = stream.buffer[p]
            if b == 0x0A { stream.line += 1 } else if b != 0x20 && b != 0x09 && b != 0x0D { break }
            p += 1
            start = p
        }
        tokenLine = stream.line
        let b = stream.buffer[p]
        switch b {
        case 0x7B: stream.position = p + 1; return .beginObject
        case 0x7D: stream.position = p + 1; return .endObject
        case 0x5B: stream.position = p + 1; return .beginArray
        case 0x5D: stream.position = p + 1; return .endArray
        case 0x3A: stream.position = p + 1; return .colon
        case 0x2C: stream.position = p + 1; return .comma
        case 0x22:
            p += 1
            var escaped = false
            while true {
                guard available(&p, &start) else { throw fail(.t("a string is not closed")) }
                let c = stream.buffer[p]
                if escaped { escaped = false }
                else if c == 0x5C { escaped = true }
                else if c == 0x22 { break }
                else if c < 0x20 { throw fail(.t("a control character inside a string")) }
                p += 1
            }
            stream.position = p + 1
            return .string((start + 1)..<p)
        case 0x2D, 0x30...0x39:
            while available(&p, &start) {
                let c = stream.buffer[p]
                guard (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45 else { break }
                p += 1
            }
            guard let value = FastNumber.parse(UnsafeBufferPointer(start: stream.buffer + start, count: p - start)) else {
                throw fail(.t("“{text}” is not a number", ["text": "\(String(decoding: UnsafeBufferPointer(start: stream.buffer + start, count: min(p - start, 30)), as: UTF8.self))"]))
            }
            stream.position = p
            return .number(value)
        case 0x74, 0x66, 0x6E:
            while available(&p, &start), stream.buffer[p] >= 0x61, stream.buffer[p] <= 0x7A { p += 1 }
            let word = String(decoding: UnsafeBufferPointer(start: stream.buffer + start, count: p - start), as: UTF8.self)
            stream.position = p
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: throw fail(.t("unexpected “{word}”", ["word": "\(word.prefix(20))"]))
            }
        default:
            throw fail(.t("unexpected character “{character}”", ["character": "\(String(UnicodeScalar(b)))"]))
        }
    }

    /// Decodes a string token (escapes included).
    func string(_ range: Range<Int>) -> String {
        let raw = String(decoding: UnsafeBufferPointer(start: stream.buffer + range.lowerBound, count: range.count), as: UTF8.self)
        guard raw.contains("\\") else { return raw }
        var result = ""
        var iterator = raw.unicodeScalars.makeIterator()
        while let c = iterator.next() {
            guard c == "\\", let e = iterator.next() else { result.unicodeScalars.append(c); continue }
            switch e {
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "b", "f": break
            case "u":
                func hexValue(_ iterator: inout String.UnicodeScalarView.Iterator) -> UInt32? {
                    var hex = ""
                    for _ in 0..<4 { if let h = iterator.next() { hex.unicodeScalars.append(h) } }
                    return UInt32(hex, radix: 16)
                }
                guard let v = hexValue(&iterator) else { continue }
                if let s = Unicode.Scalar(v) { result.unicodeScalars.append(s); continue }
                // A character beyond U+FFFF is written as two escapes (a surrogate pair, "🎉"
                // as \ud83c\udf89); a half of one alone is no character.
                var ahead = iterator
                if (0xD800...0xDBFF).contains(v), ahead.next() == "\\", ahead.next() == "u", let low = hexValue(&ahead),
                   (0xDC00...0xDFFF).contains(low), let s = Unicode.Scalar(0x10000 + (v - 0xD800) << 10 + (low - 0xDC00)) {
                    result.unicodeScalars.append(s)
                    iterator = ahead
                } else {
                    result.unicodeScalars.append("\u{FFFD}")
                }
            default: result.unicodeScalars.append(e)
            }
        }
        return result
    }

    /// The next token must be `token`; else `failure` (what was expected) is thrown.
    func expect(_ token: Token, _ failure: LocalizedMessage) throws {
        let got = try next()
        guard got == token else { throw fail(failure) }
    }

    /// Deeper nesting than this in a skipped value is refused (the skip recurses).
    static let maxDepth = 512

    /// Skips one value of any kind.
    func skipValue(depth: Int = 0) throws {
        guard depth < JSONTokenizer.maxDepth else { throw fail(.t("values nested more than {depth} levels deep", ["depth": "\(JSONTokenizer.maxDepth)"])) }
        switch try next() {
        case .beginObject:
            if try peek() == .endObject { _ = try next(); return }
            while true {
                guard case .string = try next() else { throw fail(.t("expected a key")) }
                try expect(.colon, .t("expected “:”"))
                try skipValue(depth: depth + 1)
                let t = try next()
                if t == .endObject { return }
                guard t == .comma else { throw fail(.t("expected “,” or “}”")) }
            }
        case .beginArray:
            if try peek() == .endArray { _ = try next(); return }
            while true {
                try skipValue(depth: depth + 1)
                let t = try next()
                if t == .endArray { return }
                guard t == .comma else { throw fail(.t("expected “,” or “]”")) }
            }
        case .string, .number, .bool, .null: return
        case .eof: throw WorkoutError(file: file, line: tokenLine, problem: .truncated(.t("a JSON value")))
        default: throw fail(.t("expected a value"))
        }
    }
}

/// Reads the original app's triples and Locker's own JSON workout.
struct JSONWorkoutReader {
    let tokens: JSONTokenizer

    func read() throws -> Workout {
        switch try tokens.peek() {
        case .beginArray: return try readTriples()
        case .beginObject: return try readLockerJSON()
        case .eof: throw WorkoutError(file: tokens.file, line: nil, problem: .notAWorkout(.t("the file is empty")))
        default: throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .notAWorkout(.t("JSON that is neither an array of points nor an object")))
        }
    }

    private func number(_ token: JSONTokenizer.Token, _ element: String) throws -> Double {
        switch token {
        case .number(let v): return v
        case .null: return .nan
        case .string(let r): throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .badValue(element: element, value: tokens.string(r)))
        default: throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .badValue(element: element, value: "\(token)"))
        }
    }

    private func check(_ lat: Double, _ lon: Double, _ hr: Double, line: Int) throws {
        if !lat.isNaN && !(-90...90).contains(lat) {
            throw WorkoutError(file: tokens.file, line: line, problem: .outOfRange(element: "latitude", value: NumberText.compact(lat)))
        }
        if !lon.isNaN && !(-180...180).contains(lon) {
            throw WorkoutError(file: tokens.file, line: line, problem: .outOfRange(element: "longitude", value: NumberText.compact(lon)))
        }
        if !hr.isNaN && !(0...300).contains(hr) {
            throw WorkoutError(file: tokens.file, line: line, problem: .outOfRange(element: "heart rate", value: NumberText.compact(hr)))
        }
    }

    private func readTriples() throws -> Workout {
        var workout = Workout(format: .triples)
        try tokens.expect(.beginArray, .t("expected “[”"))
        if try tokens.peek() == .endArray { throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .noPoints) }
        var index = 0
        while true {
            index += 1
            guard try tokens.next() == .beginArray else {
                throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .tripleSize(index: index, count: 1))
            }
            let line = tokens.tokenLine
            var values: [Double] = []
            if try tokens.peek() != .endArray {
                while true {
                    values.append(try number(try tokens.next(), "point \(index)"))
                    let t = try tokens.next()
                    if t == .endArray { break }
                    guard t == .comma else { throw tokens.fail(.t("expected “,” or “]” in point {index}", ["index": "\(index)"])) }
                }
            } else {
                _ = try tokens.next()
            }
            guard values.count == 3 else { throw WorkoutError(file: tokens.file, line: line, problem: .tripleSize(index: index, count: values.count)) }
            let hr = values[2] > 0 ? values[2] : .nan
            try check(values[0], values[1], hr, line: line)
            workout.append(latitude: values[0], longitude: values[1], time: .nan, heartRate: Float(hr), elevation: .nan, segment: 0)
            let t = try tokens.next()
            if t == .endArray { break }
            guard t == .comma else { throw tokens.fail(.t("expected “,” or “]” after point {index}", ["index": "\(index)"])) }
        }
        guard try tokens.next() == .eof else { throw tokens.fail(.t("more data after the list of points")) }
        return workout
    }

    private func readLockerJSON() throws -> Workout {
        var workout = Workout(format: .json)
        var sawPoints = false
        try tokens.expect(.beginObject, .t("expected “{”"))
        if try tokens.peek() == .endObject { throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .notAWorkout(.t("no \"points\""))) }
        var subtitle: String?, sport: String?
        while true {
            guard case .string(let keyRange) = try tokens.next() else { throw tokens.fail(.t("expected a key")) }
            let key = tokens.string(keyRange)
            try tokens.expect(.colon, .t("expected “:”"))
            switch key {
            case "title", "subtitle", "sport", "start":
                let t = try tokens.next()
                guard case .string(let r) = t else {
                    if t == .null { break }
                    throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .badValue(element: "\"\(key)\"", value: "\(t)"))
                }
                let value = tokens.string(r)
                switch key {
                case "title": workout.name = value
                case "subtitle": subtitle = value
                case "sport": sport = value
                default:
                    guard let start = FastTime.parse(string: value) else {
                        throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .badValue(element: "\"start\"", value: value))
                    }
                    workout.declaredStart = start
                }
            case "points":
                sawPoints = true
                try readPoints(into: &workout)
            default:
                try tokens.skipValue()
            }
            let t = try tokens.next()
            if t == .endObject { break }
            guard t == .comma else { throw tokens.fail(.t("expected “,” or “}”")) }
        }
        guard try tokens.next() == .eof else { throw tokens.fail(.t("more data after the workout")) }
        guard sawPoints else { throw WorkoutError(file: tokens.file, line: nil, problem: .notAWorkout(.t("no \"points\""))) }
        guard workout.count > 0 else { throw WorkoutError(file: tokens.file, line: nil, problem: .noPoints) }
        // The sport is the sport; a subtitle ("Tempo") belongs with the title.
        workout.kind = sport
        if let subtitle, !subtitle.isEmpty { workout.name = workout.name.map { $0 + " · " + subtitle } ?? subtitle }
        return workout
    }

    private func readPoints(into workout: inout Workout) throws {
        try tokens.expect(.beginArray, .t("expected “[” after \"points\""))
        if try tokens.peek() == .endArray { _ = try tokens.next(); return }
        var index = 0
        while true {
            index += 1
            try tokens.expect(.beginObject, .t("expected a point object"))
            let line = tokens.tokenLine
            var lat = Double.nan, lon = Double.nan, time = Double.nan, hr = Double.nan, ele = Double.nan
            var segment: Int32 = 0
            if try tokens.peek() == .endObject { _ = try tokens.next() } else {
                while true {
                    guard case .string(let keyRange) = try tokens.next() else { throw tokens.fail(.t("expected a key in point {index}", ["index": "\(index)"])) }
                    let key = tokens.string(keyRange)
                    try tokens.expect(.colon, .t("expected “:”"))
                    switch key {
                    case "lat": lat = try number(try tokens.next(), "\"lat\" of point \(index)")
                    case "lon": lon = try number(try tokens.next(), "\"lon\" of point \(index)")
                    case "hr": hr = try number(try tokens.next(), "\"hr\" of point \(index)")
                    case "ele": ele = try number(try tokens.next(), "\"ele\" of point \(index)")
                    case "segment": segment = Int32(clamping: Int(try number(try tokens.next(), "\"segment\" of point \(index)").nanToZero))
                    case "time":
                        let t = try tokens.next()
                        if case .string(let r) = t {
                            guard let v = FastTime.parse(UnsafeBufferPointer(start: tokens.stream.buffer + r.lowerBound, count: r.count)) else {
                                throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .badValue(element: "\"time\" of point \(index)", value: tokens.string(r)))
                            }
                            time = v
                        } else if t != .null {
                            throw WorkoutError(file: tokens.file, line: tokens.tokenLine, problem: .badValue(element: "\"time\" of point \(index)", value: "\(t)"))
                        }
                    default: try tokens.skipValue()
                    }
                    let t = try tokens.next()
                    if t == .endObject { break }
                    guard t == .comma else { throw tokens.fail(.t("expected “,” or “}” in point {index}", ["index": "\(index)"])) }
                }
            }
            if lat.isNaN != lon.isNaN { lat = .nan; lon = .nan }
            if hr <= 0 { hr = .nan }
            try check(lat, lon, hr, line: line)
            workout.append(latitude: lat, longitude: lon, time: time, heartRate: Float(hr), elevation: Float(ele), segment: segment)
            let t = try tokens.next()
            if t == .endArray { break }
            guard t == .comma else { throw tokens.fail(.t("expected “,” or “]” after point {index}", ["index": "\(index)"])) }
        }
    }
}

private extension Double {
    var nanToZero: Double { isNaN ? 0 : self }
}
