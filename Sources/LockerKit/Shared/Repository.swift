import FoundationEssentials

/// What loading stored data gave.
public enum LoadOutcome<Value> {
    /// The file was read.
    case loaded(Value)
    /// There is no file yet (first start).
    case missing
    /// The file could not be read; it was moved to `backup` (nil if even that failed) and
    /// `reason` says what was wrong. Callers go on with defaults and tell the user.
    case corrupt(backup: URL?, reason: FileProblem)
}

extension LoadOutcome: Sendable where Value: Sendable {}

/// Why a stored file could not be used, told in the interface language (never a library's
/// English): the user reads it in the status line or on stderr.
public enum FileProblem: Equatable, Sendable {
    /// The file could not be read at all.
    case unreadable
    /// The bytes are not JSON.
    case notJSON
    /// A field the format needs is missing (its path in the file, e.g. `.units[3].name`).
    case missingField(String)
    /// A field holds a value of the wrong kind.
    case wrongValue(String)
    /// It decodes, but breaks the format's rules: the validator's own words (already in the
    /// interface language), when it gave some.
    case rejected(String?)

    /// What was wrong, as a phrase for "… could not be used ({reason})".
    public func text(_ l: Localizer) -> String {
        switch self {
        case .unreadable: return l.t("it cannot be read")
        case .notJSON: return l.t("it is not valid JSON")
        case .missingField(let path): return l.t("{field} is missing", ["field": path])
        case .wrongValue(let path): return l.t("{field} has a value of the wrong kind", ["field": path])
        case .rejected(let why): return why ?? l.t("its content breaks the format's rules")
        }
    }

    init(_ error: DecodingError) {
        func path(_ context: DecodingError.Context, adding key: CodingKey? = nil) -> String {
            let keys = (context.codingPath + (key.map { [$0] } ?? [])).map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            return keys.joined()
        }
        switch error {
        case .dataCorrupted(let context):
            self = context.codingPath.isEmpty ? .notJSON : .wrongValue(path(context))
        case .keyNotFound(let key, let context):
            self = .missingField(path(context, adding: key))
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self = .wrongValue(path(context))
        @unknown default:
            self = .notJSON
        }
    }
}

/// Storage for one value; view-models depend on this, tests use real implementations on
/// temporary directories.
public protocol Repository<Value>: AnyObject {
    associatedtype Value
    func load() -> LoadOutcome<Value>
    /// Throws `FileChangedOnDisk` rather than write over a file another program changed.
    func save(_ value: Value) throws
    /// Keeps `value` somewhere beside the stored one, returning where (nil: it could not).
    func keepAside(_ value: Value, now: Date) -> URL?
}

extension Repository {
    public func keepAside(_ value: Value, now: Date) -> URL? { nil }
}

/// A save refused because another program changed the file since this repository last read or
/// wrote it (as an editor notices): the caller reads the new file and keeps its own copy aside,
/// so neither is lost.
public struct FileChangedOnDisk: Error, Equatable {
    public let url: URL
}

/// A file as it was last read or written: another program's write (a new file renamed over it,
/// or bytes written in place) changes its inode, size or modification time.
struct FileStamp: Equatable {
    var inode: Int
    var size: Int
    var modified: Date

    init?(_ url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        inode = (attributes[.systemFileNumber] as? Int) ?? -1
        size = (attributes[.size] as? Int) ?? -1
        modified = (attributes[.modificationDate] as? Date) ?? .distantPast
    }
}

/// A JSON file, read whole and written atomically. A file that cannot be decoded is moved aside
/// (`name.corrupt-<timestamp>`), never overwritten; nor is one another program changed since it
/// was read (`FileChangedOnDisk`).
public final class JSONRepository<Value: Codable>: Repository {
    public let url: URL
    private let validate: (Value) throws -> Void
    private let encode: (Value) throws -> Data
    /// The file as last read or written here: unknown before either, nil when there was none.
    private var known: FileStamp??

    /// `encode` writes the file's text (`JSONFile.encoded`, unless a format writes the same
    /// bytes with less memory). `validate` may throw to reject decoded values that break the
    /// format's rules.
    public init(url: URL, encode: @escaping (Value) throws -> Data = { try JSONFile.encoded($0) },
                validate: @escaping (Value) throws -> Void = { _ in }) {
        self.url = url
        self.validate = validate
        self.encode = encode
    }

    public func load() -> LoadOutcome<Value> {
        AtomicFile.removeAbandonedTemporaries(of: url)
        guard FileManager.default.fileExists(atPath: url.path) else { known = .some(nil); return .missing }
        let reason: FileProblem
        do {
            let stamp = FileStamp(url)
            let data = try Data(contentsOf: url)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let value = try decoder.decode(Value.self, from: data)
            try validate(value)
            known = .some(stamp)
            return .loaded(value)
        } catch let error as DecodingError {
            reason = FileProblem(error)
        } catch is CocoaError {
            reason = .unreadable
        } catch {
            // Validators (`validate`) throw errors written in the interface language.
            reason = .rejected((error as? CustomStringConvertible)?.description)
        }
        let backup = try? AtomicFile.moveAside(url)
        known = .some(nil)
        return .corrupt(backup: backup, reason: reason)
    }

    /// Writes `value`, unless another program wrote the file since it was last read or written
    /// here (`FileChangedOnDisk`; a file deleted meanwhile is simply written again).
    public func save(_ value: Value) throws {
        if case .some(let expected) = known, let now = FileStamp(url), now != expected {
            throw FileChangedOnDisk(url: url)
        }
        try write(value, to: url)
        known = .some(FileStamp(url))
    }

    /// Writes `value` to `other` (a copy kept aside), leaving this repository's file alone.
    public func write(_ value: Value, to other: URL) throws {
        var data = try encode(value)
        data.append(UInt8(ascii: "\n"))
        try AtomicFile.write(data, to: other)
    }

    /// Keeps `value` beside the file as `name.mine-<timestamp>` (when the file changed under
    /// it), and returns where; nil when even that could not be written.
    public func keepAside(_ value: Value, now: Date = Date()) -> URL? {
        let folder = url.deletingLastPathComponent(), stem = url.lastPathComponent + ".mine-" + LocalTime.compact(now)
        var copy = folder.appendingPathComponent(stem)
        var suffix = 1
        while FileManager.default.fileExists(atPath: copy.path) {
            suffix += 1
            copy = folder.appendingPathComponent(stem + "-\(suffix)")
        }
        do { try write(value, to: copy) } catch { return nil }
        return copy
    }
}

/// How the data files are written: pretty-printed JSON with sorted keys, so that a person can
/// read, diff and edit them; dates in ISO 8601.
public enum JSONFile {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func encoded(_ value: some Encodable) throws -> Data {
        try encoder().encode(value)
    }
}

extension DecodingError {
    /// A short, technical description of a decoding error: where in the file and what.
    public var summary: String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            return keys.isEmpty ? "" : " at " + keys.joined()
        }
        switch self {
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { "\($0)" }
            return (underlying ?? context.debugDescription) + path(context)
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"" + path(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.debugDescription + path(context)
        @unknown default:
            return "\(self)"
        }
    }
}
