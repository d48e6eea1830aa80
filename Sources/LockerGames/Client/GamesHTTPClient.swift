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
        guard let address = GamesServerAddress(url) else { throw GamesError.badServerAddress(url) }
        if address.scheme == "http", !allowInsecure, !IPAddress.isLoopback(address.host) { throw GamesError.insecureServer(address.host) }
        baseURL = address.base
        self.host = address.host
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
        try await sendPages("/games?near=" + Self.query(place.text) + "&limit=\(pageSize)", token: token)
    }
    public func upcoming(token: String) async throws -> [GameListing] { try await sendPages("/me/games?limit=\(pageSize)", token: token) }
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
        request(method, url: baseURL + GamesAPIVersion.pathPrefix + path, token: token, idempotencyKey: idempotencyKey)
    }

    private func request(_ method: HTTPMethod, url: String, token: String?, idempotencyKey: String?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: GamesAPIVersion.header, value: String(GamesAPIVersion.current))
        request.headers.add(name: "User-Agent", value: "locker/\(LockerVersion.current)")
        if let token { request.headers.add(name: "Authorization", value: "Bearer " + token) }
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        return request
    }

    private func send<T: Decodable>(_ method: HTTPMethod, _ path: String, body: (some Encodable)? = Optional<Credentials>.none,
                                    token: String? = nil, idempotencyKey: String? = nil) async throws -> T {
        let (_, data) = try await exchange(method, url: baseURL + GamesAPIVersion.pathPrefix + path, body: body.map { try JSONEncoder().encode($0) },
                                           token: token, idempotencyKey: idempotencyKey)
        if T.self == Empty.self { return Empty() as! T }
        do { return try JSONDecoder().decode(T.self, from: data) } catch { throw GamesError.badResponse }
    }

    /// Games a list page asks for; a list is read page by page, following each page's `Link`.
    var pageSize = 500
    /// Pages read of one list at most (a quarter of a million games).
    static let maxPages = 500

    /// Every page of a list: the first, then each page its `Link: <…>; rel="next"` names, on
    /// this server only, until a page names none (or names one already read).
    private func sendPages<T: Decodable>(_ path: String, token: String?) async throws -> [T] {
        var items: [T] = []
        var next: String? = GamesAPIVersion.pathPrefix + path
        var read: Set<String> = []
        while let target = next, read.count < Self.maxPages, read.insert(target).inserted {
            let (headers, data) = try await exchange(.GET, url: baseURL + target, body: nil, token: token, idempotencyKey: nil)
            do { items += try JSONDecoder().decode([T].self, from: data) } catch { throw GamesError.badResponse }
            next = headers["link"].lazy.compactMap(Self.nextPage).first
        }
        return items
    }

    /// The path of a `Link` header's `rel="next"` target, when it is a path of this API.
    static func nextPage(_ header: String) -> String? {
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">"),
                  parts.dropFirst().contains(where: { $0.replacingOccurrences(of: " ", with: "").lowercased() == "rel=\"next\"" }) else { continue }
            let path = String(target.dropFirst().dropLast())
            guard path.hasPrefix(GamesAPIVersion.pathPrefix + "/"), !path.contains("//") else { return nil }
            return path
        }
        return nil
    }

    /// How often a request is tried in all when the server turns it away or the line breaks.
    static let attempts = 6

    /// One request and its answer's headers and body, or the refusal it got as `GamesError`.
    /// A request the server turned away unread (503 `busy`: over a connection cap) is tried
    /// again, whatever it is; one whose connection broke before an answer (reset or closed) or
    /// that met a store too slow to answer (503 `store`) is tried again only when it is safe to
    /// do twice: a read, or a write with an idempotency key. Waits grow from 0.2 s, doubling to
    /// at most 3 s, each at least what `Retry-After` asks (up to 3 s), with jitter (half to all of
    /// it) so the clients turned away together do not come back together; `attempts` in all.
    private func exchange(_ method: HTTPMethod, url: String, body: Data?, token: String?,
                          idempotencyKey: String?) async throws -> (HTTPHeaders, Data) {
        let safeTwice = method == .GET || idempotencyKey != nil
        var attempt = 1
        while true {
            var request = self.request(method, url: url, token: token, idempotencyKey: idempotencyKey)
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            var retryAfter = 0.0
            do {
                return try await once(request)
            } catch GamesError.serverBusy(let seconds, _) {
                guard attempt < Self.attempts else { throw GamesError.serverBusy(retryAfter: seconds, tries: attempt) }
                retryAfter = Double(seconds)
            } catch let error as GamesError where safeTwice && attempt < Self.attempts
                        && (error == .storeUnreachable || error == .unreachable(.closedByServer)) {
                retryAfter = 0
            }
            let backoff = max(min(0.2 * Double(1 << (attempt - 1)), 3), min(retryAfter, 3))
            try await Task.sleep(nanoseconds: UInt64(backoff * Double.random(in: 0.5...1) * 1e9))
            attempt += 1
        }
    }

    private func once(_ request: HTTPClientRequest) async throws -> (HTTPHeaders, Data) {
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
            if text.contains("Connection reset by peer") || text.contains("errno: 104") || text.contains("Broken pipe") {
                throw GamesError.unreachable(.closedByServer)
            }
            throw GamesError.unreachable(.other(text))
        }
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(Int(response.status.code)) else {
            if let problem = try? JSONDecoder().decode(Problem.self, from: data) { throw GamesError(problem: problem) }
            throw GamesError.unreachable(.status(Int(response.status.code)))
        }
        return (response.headers, data)
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
