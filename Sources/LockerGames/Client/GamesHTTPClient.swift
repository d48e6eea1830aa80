import LockerKit
import Foundation
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// The typed client of a Locker games server (API v1 over HTTP or HTTPS, AsyncHTTPClient).
/// Refusals come back as the same `GamesError` the server threw; a server that does not answer
/// within `timeout` is `GamesError.unreachable`.
public final class GamesHTTPClient: GamesAPI, @unchecked Sendable {
    public let baseURL: String
    let host: String
    let http: HTTPClient
    let timeout: TimeAmount

    /// Trusting certificate authorities beyond the system's (a club's own, `GamesTrust`).
    public convenience init(url: String, allowInsecure: Bool = false, trust: GamesTrust, timeout: TimeAmount = .seconds(10)) throws {
        try self.init(url: url, allowInsecure: allowInsecure, timeout: timeout, http: try trust.httpClient())
    }

    /// Refuses plain `http://` to a host that is not this machine unless `allowInsecure`: tokens
    /// and passwords would cross the network readable. Without `http`, the client of the
    /// system's trust (`GamesTrust()`).
    public init(url: String, allowInsecure: Bool = false, timeout: TimeAmount = .seconds(10), http: HTTPClient? = nil) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
            throw GamesError.badServerAddress(url)
        }
        if scheme == "http", !allowInsecure, !IPAddress.isLoopback(host) { throw GamesError.insecureServer(host) }
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base
        self.host = host
        self.http = try http ?? GamesTrust().httpClient()
        self.timeout = timeout
    }

    // MARK: The API

    public func signUp(_ credentials: Credentials) async throws -> SessionToken { try await send(.POST, "/accounts", body: credentials) }
    public func login(_ credentials: Credentials) async throws -> SessionToken { try await send(.POST, "/sessions", body: credentials) }
    public func logout(token: String) async throws { let _: Empty = try await send(.DELETE, "/sessions/current", token: token) }
    public func logoutEverywhere(token: String) async throws { let _: Empty = try await send(.DELETE, "/sessions", token: token) }
    public func changePassword(_ change: PasswordChange, token: String) async throws {
        let _: Empty = try await send(.PUT, "/me/password", body: change, token: token)
    }
    public func deleteAccount(password: String, token: String) async throws {
        let _: Empty = try await send(.DELETE, "/me", body: AccountDeletion(password: password), token: token)
    }
    public func removeGame(_ id: Int64, token: String) async throws { let _: Empty = try await send(.DELETE, "/games/\(id)", token: token) }
    public func account(token: String) async throws -> AccountInfo { try await send(.GET, "/me", token: token) }
    public func grounds(near place: Place) async throws -> [GroundListing] { try await send(.GET, "/grounds?near=" + Self.query(place.text)) }
    public func games(near place: Place, token: String?) async throws -> [GameListing] {
        try await send(.GET, "/games?near=" + Self.query(place.text), token: token)
    }
    public func upcoming(token: String) async throws -> [GameListing] { try await send(.GET, "/me/games", token: token) }
    public func game(_ id: Int64, token: String?) async throws -> GameListing { try await send(.GET, "/games/\(id)", token: token) }
    public func roster(_ id: Int64, token: String) async throws -> GameRoster { try await send(.GET, "/games/\(id)/roster", token: token) }
    public func create(_ game: NewGame, idempotencyKey: String?, token: String) async throws -> GameListing {
        try await send(.POST, "/games", body: game, token: token, idempotencyKey: idempotencyKey)
    }
    public func edit(_ id: Int64, _ changes: GameChanges, token: String) async throws -> GameListing {
        try await send(.PATCH, "/games/\(id)", body: changes, token: token)
    }
    public func cancelGame(_ id: Int64, reason: String, token: String) async throws -> GameListing {
        try await send(.POST, "/games/\(id)/cancellation", body: GameCancellation(reason: reason), token: token)
    }
    public func book(_ id: Int64, idempotencyKey: String?, token: String) async throws -> GameListing {
        try await send(.POST, "/games/\(id)/booking", token: token, idempotencyKey: idempotencyKey)
    }
    public func cancelBooking(_ id: Int64, token: String) async throws -> GameListing {
        try await send(.DELETE, "/games/\(id)/booking", token: token)
    }

    /// The changes of `feed(after:)`, without the server's reachability.
    public func changes(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error> {
        let feed = self.feed(after: sequence)
        return AsyncThrowingStream { continuation in
            let task = Task {
                for try await event in feed {
                    if case .change(let change) = event { continuation.yield(change) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Follows `/v1/events`, resuming after the last change it saw, until the consumer stops.
    /// A dropped line is opened again at once; while it cannot be, the feed says `unreachable`
    /// (once) and tries every 2 s, and says `reachable` when the server answers again.
    public func feed(after sequence: Int64?) -> AsyncThrowingStream<GamesFeedEvent, Error> {
        let server = baseURL
        return AsyncThrowingStream { continuation in
            let task = Task {
                var last = sequence
                var reachable: Bool?
                while !Task.isCancelled {
                    do {
                        var request = self.request(.GET, "/events", token: nil, idempotencyKey: nil)
                        if let last { request.headers.add(name: "Last-Event-ID", value: String(last)) }
                        request.headers.add(name: "Accept", value: "text/event-stream")
                        let response = try await http.execute(request, timeout: .hours(24))
                        guard response.status == .ok else { throw GamesError.badResponse }
                        if reachable != true { reachable = true; continuation.yield(.reachable(server: server)) }
                        var pending = ""
                        for try await buffer in response.body {
                            pending += String(buffer: buffer)
                            while let end = pending.range(of: "\n\n") {
                                let event = String(pending[..<end.lowerBound])
                                pending.removeSubrange(..<end.upperBound)
                                if let change = Self.change(fromEvent: event) {
                                    last = change.sequence
                                    continuation.yield(.change(change))
                                }
                            }
                        }
                        // The line ended (a server stopping, a proxy's limit): open it again at once.
                        try await Task.sleep(nanoseconds: 200_000_000)
                        continue
                    } catch is CancellationError {
                        break
                    } catch {
                        if Task.isCancelled { break }
                        if reachable != false { reachable = false; continuation.yield(.unreachable(server: server)) }
                    }
                    try? await Task.sleep(nanoseconds: 2_000_000_000)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A `change` event's change, or a `reload` event as `GamesChange.reload` (the feed's
    /// position in its `id`); comments and other events are nil.
    static func change(fromEvent event: String) -> GamesChange? {
        let lines = event.split(separator: "\n")
        func field(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        if field("event") == "reload" { return field("id").flatMap { Int64($0) }.map { GamesChange.reload(at: $0) } }
        guard let data = field("data") else { return nil }
        return try? JSONDecoder().decode(GamesChange.self, from: Data(data.utf8))
    }

    // MARK: Requests

    private struct Empty: Decodable {}

    static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._"))) ?? text
    }

    private func request(_ method: HTTPMethod, _ path: String, token: String?, idempotencyKey: String?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: baseURL + GamesAPIVersion.pathPrefix + path)
        request.method = method
        request.headers.add(name: GamesAPIVersion.header, value: String(GamesAPIVersion.current))
        request.headers.add(name: "User-Agent", value: "locker/\(LockerVersion.current)")
        if let token { request.headers.add(name: "Authorization", value: "Bearer " + token) }
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        return request
    }

    private func send<T: Decodable>(_ method: HTTPMethod, _ path: String, body: (some Encodable)? = Optional<Credentials>.none,
                                    token: String? = nil, idempotencyKey: String? = nil) async throws -> T {
        var request = self.request(method, path, token: token, idempotencyKey: idempotencyKey)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await http.execute(request, timeout: timeout)
            bytes = try await response.body.collect(upTo: 8 * 1024 * 1024)
        } catch let error as HTTPClientError {
            throw GamesError.unreachable(Self.reason(error))
        } catch let error as CancellationError {
            throw error
        } catch {
            let text = String(describing: error)
            if let refusal = GamesTrust.refusal(error, host: host) { throw refusal }
            if text.contains("Connection refused") { throw GamesError.unreachable(.refused(address: baseURL)) }
            if text.contains("NXDOMAIN") || text.contains("lookup") || text.contains("UnknownHost") || text.contains("Name or service not known") {
                throw GamesError.unreachable(.unknownName(host: host))
            }
            if text.contains("handshakeFailed") || text.contains("WRONG_VERSION_NUMBER") { throw GamesError.unreachable(.notHTTPS(host: host)) }
            throw GamesError.unreachable(.other(text))
        }
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(Int(response.status.code)) else {
            if let problem = try? JSONDecoder().decode(Problem.self, from: data) { throw GamesError(problem: problem) }
            throw GamesError.unreachable(.status(Int(response.status.code)))
        }
        if T.self == Empty.self { return Empty() as! T }
        do { return try JSONDecoder().decode(T.self, from: data) } catch { throw GamesError.badResponse }
    }

    static func reason(_ error: HTTPClientError) -> Unreachable {
        switch error {
        case .connectTimeout: return .noConnectionInTime
        case .deadlineExceeded, .readTimeout: return .noAnswerInTime
        case .remoteConnectionClosed: return .closedByServer
        default: return .other(String(describing: error))
        }
    }
}
