import FoundationEssentials

/// What loading stored data gave.
public enum LoadOutcome<Value> {
    /// The file was read.
    case loaded(Value)
    /// There is no file yet (first start).
    case missing
    /// The file could not be read; it was moved to `backup` (nil if even that failed) and
    /// `reason` says what was wrong. Callers go on with defaults and tell the user.
    case corrupt(backup: URL?, reason: String)
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
        let reason: String
        do {
            let data = try Data(contentsOf: url)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let value = try decoder.decode(Value.self, from: data)
            try validate(value)
            return .loaded(value)
        } catch let error as DecodingError {
            reason = error.summary
        } catch {
            reason = "\(error)"
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
