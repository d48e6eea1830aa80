import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The meet's setup, the first entry of its journal.
public struct MeetSetup: Equatable, Sendable, Codable {
    /// The journal's format; a newer one is refused untouched.
    public var format: Int
    public var event: String
    /// The rule pack's id (`wa2024-individual-women` …).
    public var pack: String
    /// Judges on the panel: 5 or 7; synchronised 9 or 11.
    public var judges: Int
    public var synchro: Bool
    /// The event's height, when it has one ("3"); each dive names its own otherwise.
    public var height: String?
    /// The last place that goes through to the next phase (12 for a semi-final), when there is one:
    /// the console shows what each diver needs to reach it.
    public var cut: Int?

    public static let currentFormat = 1

    public init(format: Int = MeetSetup.currentFormat, event: String, pack: String, judges: Int, synchro: Bool, height: String?, cut: Int? = nil) {
        self.format = format; self.event = event; self.pack = pack; self.judges = judges; self.synchro = synchro; self.height = height
        self.cut = cut
    }
}

/// A planned dive of a diver's sheet.
public struct PlannedDive: Equatable, Sendable, Codable {
    public var round: Int
    public var code: String
    public var height: String
    /// The degree of difficulty from the formula, in tenths.
    public var ddTenths: Int

    public init(round: Int, code: String, height: String, ddTenths: Int) {
        self.round = round; self.code = code; self.height = height; self.ddTenths = ddTenths
    }
}

/// A diver (or, in synchro, a pair written "A / B") with their dive sheet.
public struct MeetEntrant: Equatable, Sendable, Codable {
    public var diver: String
    public var club: String
    public var dives: [PlannedDive]

    public init(diver: String, club: String, dives: [PlannedDive]) { self.diver = diver; self.club = club; self.dives = dives }
}

/// One dive's awards as the panel gave them, in judge order (half points; nil for a judge who
/// gave none), with the referee's call. A later attempt of the same round (a void dive done
/// again, 6.4.6, 6.4.10) counts instead of the earlier one, which stays in the journal.
public struct MeetAward: Equatable, Sendable, Codable {
    public var diver: String
    public var round: Int
    public var attempt: Int
    public var awards: [Int?]
    public var call: RefereeCall

    public init(diver: String, round: Int, attempt: Int, awards: [Int?], call: RefereeCall) {
        self.diver = diver; self.round = round; self.attempt = attempt; self.awards = awards; self.call = call
    }
}

/// What the journal records: every decision of the meet, in order, never edited.
public enum MeetEntry: Equatable, Sendable, Codable {
    case created(MeetSetup)
    /// One import's divers, in one line: a crash can never leave half of an import.
    case entered([MeetEntrant])
    case drawn(seed: UInt64, order: [String])
    case awarded(MeetAward)
    /// New awards (or a new call) for an attempt already recorded, with why; the old ones stay
    /// in the journal and in the protocol.
    case corrected(MeetAward, reason: String)
    /// The diver takes no further dive (injury, a late withdrawal), with why.
    case withdrawn(diver: String, reason: String)
    /// A planned dive replaced before it is dived (a late change), with why.
    case changed(diver: String, dive: PlannedDive, reason: String)
    /// Takes back the decision recorded on line `seq` (the latest one still standing): the line
    /// stays, and replay leaves its decision out.
    case undone(seq: Int)
    /// Puts back the decision on line `seq` that the latest undo took back.
    case redone(seq: Int)
    /// The referee calls a dive: the judges' pads show it and take its awards.
    case called(diver: String, round: Int, attempt: Int)
    /// One judge's award for the called dive, from the pad at `seat` (half points), before the
    /// referee accepts the dive (13.3.2.7); an `awarded` line is that acceptance.
    case judged(seat: Int, diver: String, round: Int, attempt: Int, award: Int)

    /// True for the decisions `undone` can take back.
    public var isUndoable: Bool {
        switch self {
        case .awarded, .corrected, .withdrawn, .changed: return true
        case .created, .entered, .drawn, .undone, .redone, .called, .judged: return false
        }
    }

    private enum Kind: String, Codable { case created, entered, drawn, awarded, corrected, withdrawn, changed, undone, redone, called, judged }
    private enum Keys: String, CodingKey { case kind, setup, entrants, seed, order, award, reason, diver, dive, seq, round, attempt, seat }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(Kind.self, forKey: .kind) {
        case .created: self = .created(try c.decode(MeetSetup.self, forKey: .setup))
        case .entered: self = .entered(try c.decode([MeetEntrant].self, forKey: .entrants))
        case .drawn: self = .drawn(seed: try c.decode(UInt64.self, forKey: .seed), order: try c.decode([String].self, forKey: .order))
        case .awarded: self = .awarded(try c.decode(MeetAward.self, forKey: .award))
        case .corrected: self = .corrected(try c.decode(MeetAward.self, forKey: .award), reason: try c.decode(String.self, forKey: .reason))
        case .withdrawn: self = .withdrawn(diver: try c.decode(String.self, forKey: .diver), reason: try c.decode(String.self, forKey: .reason))
        case .changed:
            self = .changed(diver: try c.decode(String.self, forKey: .diver), dive: try c.decode(PlannedDive.self, forKey: .dive),
                            reason: try c.decode(String.self, forKey: .reason))
        case .undone: self = .undone(seq: try c.decode(Int.self, forKey: .seq))
        case .redone: self = .redone(seq: try c.decode(Int.self, forKey: .seq))
        case .called:
            self = .called(diver: try c.decode(String.self, forKey: .diver), round: try c.decode(Int.self, forKey: .round),
                           attempt: try c.decode(Int.self, forKey: .attempt))
        case .judged:
            self = .judged(seat: try c.decode(Int.self, forKey: .seat), diver: try c.decode(String.self, forKey: .diver),
                           round: try c.decode(Int.self, forKey: .round), attempt: try c.decode(Int.self, forKey: .attempt),
                           award: try c.decode(Int.self, forKey: .award))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .created(let setup): try c.encode(Kind.created, forKey: .kind); try c.encode(setup, forKey: .setup)
        case .entered(let entrants): try c.encode(Kind.entered, forKey: .kind); try c.encode(entrants, forKey: .entrants)
        case .drawn(let seed, let order):
            try c.encode(Kind.drawn, forKey: .kind); try c.encode(seed, forKey: .seed); try c.encode(order, forKey: .order)
        case .awarded(let award): try c.encode(Kind.awarded, forKey: .kind); try c.encode(award, forKey: .award)
        case .corrected(let award, let reason):
            try c.encode(Kind.corrected, forKey: .kind); try c.encode(award, forKey: .award); try c.encode(reason, forKey: .reason)
        case .withdrawn(let diver, let reason):
            try c.encode(Kind.withdrawn, forKey: .kind); try c.encode(diver, forKey: .diver); try c.encode(reason, forKey: .reason)
        case .changed(let diver, let dive, let reason):
            try c.encode(Kind.changed, forKey: .kind); try c.encode(diver, forKey: .diver); try c.encode(dive, forKey: .dive)
            try c.encode(reason, forKey: .reason)
        case .undone(let seq): try c.encode(Kind.undone, forKey: .kind); try c.encode(seq, forKey: .seq)
        case .redone(let seq): try c.encode(Kind.redone, forKey: .kind); try c.encode(seq, forKey: .seq)
        case .called(let diver, let round, let attempt):
            try c.encode(Kind.called, forKey: .kind); try c.encode(diver, forKey: .diver); try c.encode(round, forKey: .round)
            try c.encode(attempt, forKey: .attempt)
        case .judged(let seat, let diver, let round, let attempt, let award):
            try c.encode(Kind.judged, forKey: .kind); try c.encode(seat, forKey: .seat); try c.encode(diver, forKey: .diver)
            try c.encode(round, forKey: .round); try c.encode(attempt, forKey: .attempt); try c.encode(award, forKey: .award)
        }
    }
}

/// One line of the journal: its place, the hash of the line before, when, and what.
public struct MeetJournalLine: Equatable, Sendable, Codable {
    public var seq: Int
    public var prev: String
    public var at: String
    public var entry: MeetEntry
    /// SHA-256 of the line's text without its `hash` member (the chain's link).
    public var hash: String = ""

    enum CodingKeys: String, CodingKey { case seq, prev, at, entry }
}

/// Why a meet folder cannot be used as asked. The command line translates these.
public enum MeetJournalError: Error, Equatable, Sendable {
    case notAMeet(path: String)
    case alreadyAMeet(path: String)
    case newerFormat(path: String)
    /// A line that does not read, or whose hash or link is not what the lines before make it.
    case altered(line: Int)
    case cannotWrite(path: String, code: Int32)
}

/// A meet's journal, `DIR/journal.jsonl`: one JSON object a line, appended and never edited.
/// Each line is `{"hash":H,` followed by the rest of its object (`at`, `entry`, `prev`, `seq`,
/// keys sorted), where H is the SHA-256 of that rest written as `{…}`, and `prev` is the hash of
/// the line before (64 zeros for the first): changing, removing or reordering any line breaks
/// the chain (`verify`). An entry is on disk (`fsync`) before `append` returns, and appends of
/// several processes take turns on an exclusive lock of the file. A last line cut off by a
/// crash is reported by `read` and set aside by the next `append` (as `journal.torn-TIME`),
/// never dropped with what came before.
public struct MeetJournal: Sendable {
    public let directory: URL
    public var url: URL { directory.appendingPathComponent("journal.jsonl") }

    public init(directory: URL) { self.directory = directory }

    static let genesis = String(repeating: "0", count: 64)

    /// The journal's lines and, when the last one was cut off, its text.
    public struct Contents: Sendable {
        public var lines: [MeetJournalLine]
        public var torn: String?
    }

    /// Reads and checks every line; throws `altered` naming the first line that breaks the chain.
    public func read() throws -> Contents {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw MeetJournalError.notAMeet(path: directory.path) }
        return try MeetJournal.parse(data, path: directory.path)
    }

    /// A line whose hash holds but whose entry this Locker does not know was written by a newer
    /// Locker (`newerFormat`), not altered.
    static func parse(_ data: Data, path: String) throws -> Contents {
        var pieces = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        var torn: String?
        // The text after the last newline is a line cut off by a crash (or nothing).
        if let last = pieces.popLast(), !last.isEmpty { torn = String(decoding: last, as: UTF8.self) }
        var lines: [MeetJournalLine] = []
        var prev = genesis
        for (index, piece) in pieces.enumerated() {
            let line: MeetJournalLine
            switch decode(Data(piece)) {
            case .line(let read): line = read
            case .unknownEntry: throw MeetJournalError.newerFormat(path: path)
            case .broken: throw MeetJournalError.altered(line: index + 1)
            }
            guard line.seq == index + 1, line.prev == prev else { throw MeetJournalError.altered(line: index + 1) }
            lines.append(line)
            prev = line.hash
        }
        if lines.isEmpty, torn == nil { throw MeetJournalError.altered(line: 1) }
        return Contents(lines: lines, torn: torn)
    }

    enum Decoded { case line(MeetJournalLine), unknownEntry, broken }

    /// A line whose hash is the hash of its own text; `unknownEntry` when the hash holds but the
    /// entry is not one this Locker knows.
    static func decode(_ text: Data) -> Decoded {
        let prefix = Array(#"{"hash":""#.utf8)
        let bytes = Array(text)
        guard bytes.count > prefix.count + 66, Array(bytes[0..<prefix.count]) == prefix,
              bytes[prefix.count + 64] == 0x22, bytes[prefix.count + 65] == 0x2C else { return .broken }
        let hash = String(decoding: bytes[prefix.count..<prefix.count + 64], as: UTF8.self)
        let rest = [0x7B] + bytes[(prefix.count + 66)...]
        guard SHA256.hex(SHA256.hash(Array(rest))) == hash else { return .broken }
        guard var line = try? JSONDecoder().decode(MeetJournalLine.self, from: Data(rest)) else { return .unknownEntry }
        line.hash = hash
        return .line(line)
    }

    /// The text of a line (without its newline).
    static func encode(_ line: MeetJournalLine) throws -> (text: [UInt8], hash: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let rest = Array(try encoder.encode(line))
        let hash = SHA256.hex(SHA256.hash(rest))
        return (Array(#"{"hash":"\#(hash)","#.utf8) + rest.dropFirst(), hash)
    }

    /// Starts a journal in `directory` (created when missing) with `setup`; refuses a folder
    /// that already holds one.
    public func create(_ setup: MeetSetup, at time: String) throws {
        if FileManager.default.fileExists(atPath: url.path) { throw MeetJournalError.alreadyAMeet(path: directory.path) }
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory {
            throw MeetJournalError.cannotWrite(path: directory.path, code: ENOTDIR)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            // The failed mkdir's own reason (no such folder, not a folder, permission …).
            throw MeetJournalError.cannotWrite(path: directory.path, code: errno == 0 ? EACCES : errno)
        }
        _ = try append(.created(setup), at: time)
    }

    /// Appends `entry` under the file's exclusive lock, on disk before it returns. `check` sees
    /// every line before it (read under the same lock) and may refuse the entry by throwing,
    /// so two processes can never both record what only one may. Returns the line written and
    /// the text of a cut-off last line that was set aside, if any.
    @discardableResult
    public func append(_ entry: MeetEntry, at time: String,
                       check: ([MeetJournalLine]) throws -> Void = { _ in }) throws -> (line: MeetJournalLine, setAside: String?) {
        let (lines, setAside) = try append([entry], at: time, check: check)
        return (lines[0], setAside)
    }

    /// Appends `entries` together, as `append` does one: all of them or none.
    @discardableResult
    public func append(_ entries: [MeetEntry], at time: String,
                       check: ([MeetJournalLine]) throws -> Void = { _ in }) throws -> (lines: [MeetJournalLine], setAside: String?) {
        try append(at: time) { lines in
            try check(lines)
            return entries
        }
    }

    /// Appends the entries `prepare` makes from every line before them, read under the same
    /// lock (an undo names the latest decision standing at that moment): all of them or none.
    @discardableResult
    public func append(at time: String, prepare: ([MeetJournalLine]) throws -> [MeetEntry]) throws -> (lines: [MeetJournalLine], setAside: String?) {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw MeetJournalError.cannotWrite(path: url.path, code: errno) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw MeetJournalError.cannotWrite(path: url.path, code: errno) }
        defer { flock(descriptor, LOCK_UN) }
        let data = MeetJournal.readAll(descriptor)
        var contents = Contents(lines: [], torn: nil)
        if !data.isEmpty { contents = try MeetJournal.parse(data, path: directory.path) }
        let entries = try prepare(contents.lines)
        if case .created = entries.first {} else if contents.lines.isEmpty { throw MeetJournalError.notAMeet(path: directory.path) }
        var setAside: String?
        var end = off_t(data.count)
        if let torn = contents.torn {
            // The cut-off line is kept beside the journal, then cut from it.
            // Named by the time and the line it followed, and never over another one set aside.
            var aside = directory.appendingPathComponent("journal.torn-\(time.filter { $0.isNumber })-\(contents.lines.count)")
            var copy = 1
            while FileManager.default.fileExists(atPath: aside.path) {
                copy += 1
                aside = directory.appendingPathComponent("journal.torn-\(time.filter { $0.isNumber })-\(contents.lines.count)-\(copy)")
            }
            try AtomicFile.write(Data(torn.utf8), to: aside)
            end -= off_t(torn.utf8.count)
            guard ftruncate(descriptor, end) == 0 else { throw MeetJournalError.cannotWrite(path: url.path, code: errno) }
            setAside = aside.path
        }
        var written: [MeetJournalLine] = []
        var bytes: [UInt8] = []
        var prev = contents.lines.last?.hash ?? MeetJournal.genesis
        for entry in entries {
            var line = MeetJournalLine(seq: contents.lines.count + written.count + 1, prev: prev, at: time, entry: entry)
            let (text, hash) = try MeetJournal.encode(line)
            line.hash = hash
            prev = hash
            written.append(line)
            bytes += text + [0x0A]
        }
        var done = 0
        while done < bytes.count {
            let count = bytes[done...].withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, end + off_t(done)) }
            guard count > 0 else {
                let code = errno
                _ = ftruncate(descriptor, end)   // nothing half written stays
                throw MeetJournalError.cannotWrite(path: url.path, code: code)
            }
            done += count
        }
        guard fsync(descriptor) == 0 else { throw MeetJournalError.cannotWrite(path: url.path, code: errno) }
        return (written, setAside)
    }

    private static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
        return data
    }
}
