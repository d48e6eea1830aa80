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
    func save(_ value: Value) throws
}

/// A JSON file, read whole and written atomically. A file that cannot be decoded is moved aside
/// (`name.corrupt-<timestamp>`), never overwritten.
public final class JSONRepository<Value: Codable>: Repository {
    public let url: URL
    private let validate: (Value) throws -> Void

    /// `validate` may throw to reject decoded values that break the format's rules.
    public init(url: URL, validate: @escaping (Value) throws -> Void = { _ in }) {
        self.url = url
        self.validate = validate
    }

    public func load() -> LoadOutcome<Value> {
        AtomicFile.removeAbandonedTemporaries(of: url)
        guard FileManager.default.fileExists(atPath: url.path) else { return .missing }
        let reason: FileProblem
        do {
            let data = try Data(contentsOf: url)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let value = try decoder.decode(Value.self, from: data)
            try validate(value)
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
        return .corrupt(backup: backup, reason: reason)
    }

    public func save(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        try AtomicFile.write(data + Data("\n".utf8), to: url)
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
