import Foundation
import Logging

/// The server's log on standard error: a line of text per request or event, or one JSON object
/// per line (`--log-format json`) with the message and its fields (`request_id`, `route`,
/// `status`, `duration_ms`, `client`, `event`…) for a log collector. Only what the server
/// hands it is written: requests are logged without bodies or headers, so never a password,
/// a token or the PostgreSQL password.
public struct ServerLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let format: ServerSettings.LogFormat
    private let output: Output

    /// Lines are written whole, one writer at a time.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        func write(_ line: String) {
            lock.withLock {
                var bytes = Array(line.utf8)[...]
                while !bytes.isEmpty {
                    let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    bytes = bytes.dropFirst(written)
                }
            }
        }
    }
    private static let shared = Output()

    public init(label: String, format: ServerSettings.LogFormat) {
        self.label = label
        self.format = format
        output = Self.shared
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }
        switch format {
        case .text:
            // The message says it all; fields are for the JSON log.
            output.write("\(Self.timestamp(fractional: false)) \(event.level) \(label) : \(event.message)\n")
        case .json:
            var object = "{\"time\":\(Self.quoted(Self.timestamp(fractional: true))),\"level\":\(Self.quoted(event.level.rawValue))"
            object += ",\"message\":\(Self.quoted(event.message.description))"
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !["time", "level", "message"].contains(key) {
                object += ",\(Self.quoted(key)):\(Self.json(value))"
            }
            output.write(object + "}\n")
        }
    }

    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .stringConvertible(let convertible):
            if let number = convertible as? Int { return String(number) }
            if let number = convertible as? Double, number.isFinite { return String(number) }
            return quoted(convertible.description)
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            return "{" + values.sorted(by: { $0.key < $1.key }).map { "\(quoted($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string, escaped by Foundation's encoder.
    static func quoted(_ text: String) -> String {
        (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// ISO 8601 in UTC, with milliseconds for the JSON log.
    static func timestamp(fractional: Bool) -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                          parts.tm_hour, parts.tm_min, parts.tm_sec)
        return fractional ? base + String(format: ".%03dZ", now.tv_nsec / 1_000_000) : base + "+0000"
    }
}
