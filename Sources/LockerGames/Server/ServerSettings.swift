import LockerKit
import Foundation

/// Every setting of `locker-games serve`: its defaults, then a configuration file
/// (`--config FILE`, `ServerConfigurationFile`), then the command line, each later one
/// overriding. A setting has one name in both places: the option's long name without `--`.
public struct ServerSettings: Sendable {
    /// What the server is given: the address, TLS files, limits and who may read `/metrics`,
    /// each checked as it is set.
    public var server = GamesServerOptions()
    public var db: String?
    public var logFormat = LogFormat.text

    /// How the server writes its log to standard error.
    public enum LogFormat: String, CaseIterable, Sendable {
        /// One line of text per request or event.
        case text
        /// One JSON object per line (`docs/RELIABILITY.md` lists the fields).
        case json
    }

    public init() {}

    /// The settings' names, as options (`--listen`) and as configuration keys (`listen`).
    public static let names = ["listen", "db", "tls-cert", "tls-key", "account-rate", "max-connections",
                               "max-connections-per-address", "idle-timeout", "request-timeout", "event-streams",
                               "trusted-proxy", "metrics-allow", "log-format"]

    /// A value a setting cannot take, or a name that is no setting.
    public enum Problem: Error, Equatable, Sendable {
        case unknownName(String)
        case notAnAddressToListenOn(String)
        case notAWholeNumber(name: String)
        case notANetwork(name: String, value: String)
        case notALogFormat(String)
        case empty(name: String)

        /// One translated sentence; `option` is how the user wrote the name (`--idle-timeout`
        /// on the command line, `idle-timeout` in a file).
        public func message(_ localizer: Localizer, option: String) -> String {
            /// A value as the message quotes it: inert, and cut short.
            func shown(_ value: String) -> String {
                TerminalText.inert(value.count > 60 ? String(value.prefix(60)) + "…" : value)
            }
            switch self {
            case .unknownName(let name):
                return localizer.t("“{value}” is not a setting of the games server. Its settings are: {values}.",
                                   ["value": shown(name), "values": ServerSettings.names.joined(separator: ", ")])
            case .notAnAddressToListenOn(let value):
                return localizer.t("“{value}” is not an address to listen on: write HOST:PORT, e.g. 127.0.0.1:8787.",
                                   ["value": shown(value)])
            case .notAWholeNumber:
                return localizer.t("{option} must be a whole number from 1 to 1000000.", ["option": option])
            case .notANetwork(_, let value):
                return localizer.t("“{value}” is not an address or a network for {option}: write 10.0.0.5 or 10.0.0.0/8.",
                                   ["value": shown(value), "option": option])
            case .notALogFormat(let value):
                return localizer.t("“{value}” is not a log format: write text or json.", ["value": shown(value)])
            case .empty:
                return localizer.t("{option} needs a value.", ["option": option])
            }
        }
    }

    /// Sets the setting `name` from its written value. Settings that take several values
    /// (`trusted-proxy`, `metrics-allow`) take them all at once, separated by commas in a file or
    /// repeated on the command line: a later source replaces the list, it does not add to it.
    public mutating func set(_ name: String, _ values: [String]) throws(Problem) {
        func single() throws(Problem) -> String {
            guard let value = values.last?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { throw .empty(name: name) }
            return value
        }
        func number() throws(Problem) -> Int {
            guard let value = Int(try single()), (1...1_000_000).contains(value) else { throw .notAWholeNumber(name: name) }
            return value
        }
        func networks() throws(Problem) -> AddressNetworks {
            let entries = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            do {
                return try AddressNetworks(entries)
            } catch {
                guard case TrustedProxiesError.notAnAddress(let entry) = error else { throw .notANetwork(name: name, value: entries.joined(separator: ",")) }
                throw .notANetwork(name: name, value: entry)
            }
        }
        switch name {
        case "listen":
            let value = try single()
            guard let (host, port) = ServerSettings.hostAndPort(value) else { throw .notAnAddressToListenOn(value) }
            (server.host, server.port) = (host, port)
        case "db":
            let store = try single()
            db = store
            // PostgreSQL connections are opened as requests need them, up to the pool's size.
            server.reservedDescriptors = GamesServerOptions.baseReservedDescriptors
                + (store.contains("://") ? PostgresGamesDatabase.defaultConnections + 2 : 0)
        case "tls-cert": server.tlsCertificate = try single()
        case "tls-key": server.tlsKey = try single()
        case "account-rate": server.accountRequestsPerMinute = try number()
        case "max-connections": server.maxConnections = try number()
        case "max-connections-per-address": server.maxConnectionsPerAddress = try number()
        case "idle-timeout": server.idleTimeoutSeconds = try number()
        case "request-timeout": server.requestSeconds = try number()
        case "event-streams": server.eventStreamsPerClient = try number()
        case "trusted-proxy": server.trustedProxies = TrustedProxies(try networks())
        case "metrics-allow": server.metricsAllow = try networks()
        case "log-format":
            let value = try single()
            guard let format = LogFormat(rawValue: value.lowercased()) else { throw .notALogFormat(value) }
            logFormat = format
        default: throw .unknownName(name)
        }
    }

    /// "127.0.0.1:8787", "[::1]:8787", ":8787" (loopback).
    public static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}

/// A configuration file of `locker-games serve`: one `name = value` per line, `#` comments,
/// blank lines; a value may be quoted ("…") to keep a `#` or spaces at its ends. Each name once.
public struct ServerConfigurationFile: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var value: String
        public var line: Int
    }

    /// Why a file cannot be used, with the line where that is about a line.
    public struct Problem: Error, Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            case unreadable(String)
            case notASetting
            case unclosedQuote
            case repeated(firstLine: Int)
            case setting(ServerSettings.Problem)
        }
        public var path: String
        public var line: Int?
        public var reason: Reason

        /// One translated sentence naming the file, the line and what to do.
        public func message(_ localizer: Localizer) -> String {
            let what: String
            var name = ""
            switch reason {
            case .unreadable(let why):
                return localizer.t("The configuration file {file} cannot be read: {reason}.", ["file": path, "reason": why])
            case .notASetting:
                what = localizer.t("write one setting per line, as NAME = VALUE (or # for a comment).")
            case .unclosedQuote:
                what = localizer.t("the value's opening quote is never closed.")
            case .repeated(let first):
                what = localizer.t("this setting is already given on line {line}: give it once.", ["line": String(first)])
            case .setting(let problem):
                if case .notAWholeNumber(let n) = problem { name = n }
                if case .notANetwork(let n, _) = problem { name = n }
                if case .empty(let n) = problem { name = n }
                what = problem.message(localizer, option: name)
            }
            return localizer.t("{file}, line {line}: {problem}", ["file": path, "line": String(line ?? 0), "problem": what])
        }
    }

    public let path: String
    public let entries: [Entry]

    /// Reads and checks `path`: its syntax, that each name is a setting and appears once. Values
    /// are checked by `apply(to:)`.
    public init(path: String) throws(Problem) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Problem(path: path, line: nil, reason: .unreadable(ServerConfigurationFile.reason(path)))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: nil, reason: .unreadable("not UTF-8 text"))
        }
        try self.init(path: path, text: text)
    }

    public init(path: String, text: String) throws(Problem) {
        self.path = path
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        // "\r\n" is one Character in Swift: a file from Windows splits as any other.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else { throw Problem(path: path, line: number, reason: .notASetting) }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw Problem(path: path, line: number, reason: .notASetting)
            }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\"") {
                guard let close = value.dropFirst().firstIndex(of: "\"") else { throw Problem(path: path, line: number, reason: .unclosedQuote) }
                let rest = value[value.index(after: close)...].trimmingCharacters(in: .whitespaces)
                guard rest.isEmpty || rest.hasPrefix("#") else { throw Problem(path: path, line: number, reason: .notASetting) }
                value = String(value[value.index(after: value.startIndex)..<close])
            } else if let comment = value.range(of: " #") ?? value.range(of: "\t#") {
                value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            let key = name.replacingOccurrences(of: "_", with: "-")
            guard ServerSettings.names.contains(key) else {
                throw Problem(path: path, line: number, reason: .setting(.unknownName(name)))
            }
            if let first = seen[key] { throw Problem(path: path, line: number, reason: .repeated(firstLine: first)) }
            seen[key] = number
            entries.append(Entry(name: key, value: value, line: number))
        }
        self.entries = entries
    }

    /// Sets each entry on `settings`, or throws the first value a setting cannot take.
    public func apply(to settings: inout ServerSettings) throws(Problem) {
        for entry in entries {
            do {
                try settings.set(entry.name, [entry.value])
            } catch {
                throw Problem(path: path, line: entry.line, reason: .setting(error))
            }
        }
    }

    static func reason(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) != 0 { return String(cString: strerror(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return String(cString: strerror(EISDIR)) }
        return String(cString: strerror(EACCES))
    }
}
