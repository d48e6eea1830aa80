import LockerKit
import Foundation
import Hummingbird
import HummingbirdTLS
import HummingbirdCore
import HTTPTypes
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// How `locker-games serve` listens.
public struct GamesServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8787
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Sign-ups and log-ins one address may make per minute.
    public var accountRequestsPerMinute = 30
    /// A connection with no request in progress for this long is closed.
    public var idleTimeoutSeconds = 30
    /// A request must arrive whole (head, body, end) within this long.
    public var requestSeconds = 10
    /// Connections held at once, in all (lowered to what `ulimit -n` allows) and per address.
    public var maxConnections = 512
    public var maxConnectionsPerAddress = 32
    /// Descriptors kept back from the connection limit, beyond those open when the server
    /// starts, for what the store opens later (SQLite readers, PostgreSQL connections) and files.
    public var reservedDescriptors = GamesServerOptions.baseReservedDescriptors
    /// The descriptors kept back with a SQLite store; a PostgreSQL store adds its pool's.
    public static let baseReservedDescriptors = 24
    /// Live event streams at once per account (per address for anonymous ones).
    public var eventStreamsPerClient = 4
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    public var trustedProxies = TrustedProxies.none
    /// Clients that may read `GET /metrics` (after `trustedProxies` has named the client).
    public var metricsAllow = (try? AddressNetworks(["127.0.0.1", "::1"])) ?? .none
    /// What the server counts for `/metrics`.
    public var metrics = GamesMetrics()
    public init() {}
}

/// Each request's context: Hummingbird's, plus the caller's address and a small body limit.
public struct GamesRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection's other end: the client, or a reverse proxy in front of the server.
    public let peerAddress: String
    /// The client: the peer, or what a trusted proxy says in `X-Forwarded-For`
    /// (`ClientAddressMiddleware`). Rate limits and log-in delays are kept per client.
    public var clientAddress: String
    /// Completes when the connection closes: a live feed whose client left gives its slot back
    /// at once instead of when its next line fails to send.
    let connectionClosed: EventLoopFuture<Void>

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        clientAddress = peerAddress
        connectionClosed = source.channel.closeFuture
    }

    public var maxUploadSize: Int { GamesLimits.bodyBytes }
}

/// The games server: the `/v1` HTTP JSON API (docs/games-api.yaml) on Hummingbird 2, over a
/// `GamesService`. Refusals are `application/problem+json` documents.
public enum GamesServer {
    /// `value` as the API writes every JSON object: its keys sorted (the responses, the problems,
    /// the live feed's events), so equal values are equal bytes.
    static func sortedJSON<T: Encodable>(_ value: T) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try? encoder.encode(value)
    }

    /// Why the server could not listen on its address, when the system said so.
    public enum ListenProblem: Equatable, Sendable {
        /// Another program holds the port.
        case portInUse
        /// Ports below 1024 need privileges this process lacks.
        case notPermitted
        /// The address is not one of this machine's.
        case notLocalAddress
        /// The host name does not resolve, or is not written as an address.
        case unknownHost
    }

    /// The listening problem behind an error of `runService()`, or nil for any other error.
    public static func listenProblem(_ error: Error) -> ListenProblem? {
        if error is SocketAddressError || error is SocketAddressError.UnknownHost { return .unknownHost }
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case EADDRINUSE: return .portInUse
        case EACCES, EPERM: return .notPermitted
        case EADDRNOTAVAIL: return .notLocalAddress
        default: return nil
        }
    }

    /// Why a certificate and key cannot serve HTTPS.
    public enum TLSProblem: Equatable, Sendable {
        /// `systemError`: why the file cannot be read; nil when it was read but holds no PEM.
        case unreadableCertificate(file: String, systemError: String?)
        case unreadableKey(file: String, systemError: String?)
        /// The key is not the certificate's.
        case mismatch(certificate: String, key: String)
    }

    /// Checks, before anything listens, that the certificate and key can be read and belong
    /// together; nil when they can serve.
    public static func tlsProblem(certificate: String, key: String) -> TLSProblem? {
        func reason(_ file: String) -> String? {
            access(file, R_OK) != 0 ? String(cString: strerror(errno)) : nil
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
            if chain.isEmpty { return .unreadableCertificate(file: certificate, systemError: nil) }
        } catch {
            return .unreadableCertificate(file: certificate, systemError: reason(certificate))
        }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            return .unreadableKey(file: key, systemError: reason(key))
        }
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                      privateKey: .privateKey(privateKey))
        guard (try? NIOSSLContext(configuration: configuration)) != nil else { return .mismatch(certificate: certificate, key: key) }
        return nil
    }

    /// The application, ready for `runService()` (which ends on SIGTERM or SIGINT once the
    /// requests in flight are answered). `onRunning` gets the port it listens on.
    public static func application(service: GamesService, options: GamesServerOptions, logger: Logger,
                                   onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let metrics = options.metrics
        let routes = GamesRoutes(service: service, options: options)
        // The methods each path has, read from a router holding the same routes (middleware
        // applies only to routes added after it, and it needs the table).
        let probe = Router(context: GamesRequestContext.self)
        routes.add(to: probe)
        let methods = RouteMethods(probe.routes.map { ($0.path.description, $0.method.rawValue) })

        let router = Router(context: GamesRequestContext.self)
        router.add(middleware: ClientAddressMiddleware(proxies: options.trustedProxies))
        router.add(middleware: RequestRecordMiddleware(logger: logger, metrics: metrics))
        router.add(middleware: ProblemMiddleware(logger: logger, methods: methods, metrics: metrics))
        router.add(middleware: VersionMiddleware())
        router.add(middleware: DeadlineMiddleware())
        routes.add(to: router)

        let limits = ConnectionLimits(total: options.maxConnections, perAddress: options.maxConnectionsPerAddress,
                                      reservedDescriptors: options.reservedDescriptors, proxies: options.trustedProxies, metrics: metrics)
        metrics.openConnections = { limits.openConnections }
        metrics.openEventStreams = { routes.streams.openStreams }
        metrics.storeConnections = { service.database.connectionsInUse }
        let requestSeconds = options.requestSeconds
        let http1 = HTTPServerBuilder.http1(configuration: .init(
            additionalChannelHandlers: [ConnectionGuard(limits: limits, requestSeconds: requestSeconds, bodyLimit: GamesLimits.bodyBytes)],
            idleTimeout: .seconds(Int64(options.idleTimeoutSeconds))))
        let server: HTTPServerBuilder
        if let certificate = options.tlsCertificate, let key = options.tlsKey {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain,
                                                                          privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            // TLS 1.0 and 1.1 are broken and retired (RFC 8996).
            configuration.minimumTLSVersion = .tlsv12
            server = try .tls(http1, tlsConfiguration: configuration)
        } else {
            server = http1
        }
        logger.info("connection limits: \(limits.total) in all, \(limits.perAddress) per address; idle connections close after \(options.idleTimeoutSeconds) s, requests must arrive within \(requestSeconds) s")
        return Application(router: router, server: server,
                           configuration: .init(address: .hostname(options.host, port: options.port), serverName: "locker-games"),
                           onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? options.port) },
                           logger: logger)
    }
}

/// The routes of API version 1, with the limits the options set on account requests and live
/// event streams.
struct GamesRoutes: Sendable {
    let service: GamesService
    let options: GamesServerOptions
    let limiter: RateLimiter
    let streams: EventStreamLimiter

    init(service: GamesService, options: GamesServerOptions) {
        self.service = service
        self.options = options
        limiter = RateLimiter(perMinute: options.accountRequestsPerMinute)
        streams = EventStreamLimiter(perClient: options.eventStreamsPerClient)
    }

    private var metrics: GamesMetrics { options.metrics }

    func add(to router: Router<GamesRequestContext>) {
        router.get("/healthz") { _, _ in
            try await service.healthCheck()
            return Self.json(["status": "ok", "store": service.database.kind.rawValue], status: .ok)
        }
        router.get("/metrics") { _, context in
            guard options.metricsAllow.contains(context.clientAddress) else {
                metrics.refused(.metricsAddress)
                return ProblemMiddleware.response(Problem(code: .forbidden, title: "Metrics are not served to this address.", reason: "metrics"))
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        let v1 = router.group("v1")
        v1.post("accounts") { request, context in
            try limiter.admit(context.clientAddress)
            let credentials = try await Self.body(Credentials.self, request, context)
            // A device token is what a log-in gives back; a new account has none yet.
            guard credentials.device == nil else { throw GamesError.invalid(field: "device") }
            return Self.json(try await service.signUp(credentials), status: .created)
        }
        v1.post("sessions") { request, context in
            try limiter.admit(context.clientAddress)
            return Self.json(try await service.login(try await Self.body(Credentials.self, request, context), source: context.clientAddress),
                             status: .created)
        }
        v1.delete("sessions/current") { request, _ in
            try await service.logout(token: try Self.token(request))
            return Response(status: .noContent)
        }
        v1.delete("sessions") { request, _ in
            try await service.logoutEverywhere(token: try Self.token(request))
            return Response(status: .noContent)
        }
        v1.put("me/password") { request, context in
            try limiter.admit(context.clientAddress)
            try await service.changePassword(try await Self.body(PasswordChange.self, request, context), token: try Self.token(request))
            return Response(status: .noContent)
        }
        v1.delete("me") { request, context in
            try limiter.admit(context.clientAddress)
            let body = try await Self.body(AccountDeletion.self, request, context)
            try await service.deleteAccount(password: body.password, token: try Self.token(request))
            return Response(status: .noContent)
        }
        v1.get("me") { request, _ in Self.json(try await service.account(token: try Self.token(request))) }
        v1.get("me/games") { request, _ in
            let token = try Self.token(request)
            let page = try Self.pageRequest(request)
            let games = try await service.upcoming(token: token, page: page)
            return Self.page(games, of: page, path: "/v1/me/games", query: [])
        }
        v1.get("grounds") { request, _ in Self.json(try await service.grounds(near: try Self.place(request))) }
        v1.get("games") { request, _ in
            let place = try Self.place(request)
            let page = try Self.pageRequest(request)
            let games = try await service.games(near: place, token: Self.optionalToken(request), page: page)
            return Self.page(games, of: page, path: "/v1/games", query: [("near", place.text)])
        }
        v1.post("games") { request, context in
            let game = try await Self.body(NewGame.self, request, context)
            return Self.json(try await service.create(game, idempotencyKey: Self.idempotencyKey(request), token: try Self.token(request)),
                             status: .created)
        }
        v1.get("games/:id") { request, context in
            Self.json(try await service.game(try Self.gameID(context), token: Self.optionalToken(request)))
        }
        v1.delete("games/:id") { request, context in
            try await service.removeGame(try Self.gameID(context), token: try Self.token(request))
            return Response(status: .noContent)
        }
        v1.patch("games/:id") { request, context in
            let changes = try await Self.body(GameChanges.self, request, context)
            return Self.json(try await service.edit(try Self.gameID(context), changes, token: try Self.token(request)))
        }
        v1.post("games/:id/cancellation") { request, context in
            let body = try await Self.body(GameCancellation.self, request, context)
            return Self.json(try await service.cancelGame(try Self.gameID(context), reason: body.reason, token: try Self.token(request)))
        }
        v1.get("games/:id/roster") { request, context in
            Self.json(try await service.roster(try Self.gameID(context), token: try Self.token(request)))
        }
        v1.post("games/:id/booking") { request, context in
            Self.json(try await service.book(try Self.gameID(context), idempotencyKey: Self.idempotencyKey(request), token: try Self.token(request)))
        }
        v1.delete("games/:id/booking") { request, context in
            Self.json(try await service.cancelBooking(try Self.gameID(context), token: try Self.token(request)))
        }
        v1.get("events") { request, context in
            // One account (or, signed out, one address) follows the feed on a few streams at
            // most: a stream is a connection held for hours.
            var client = "address:" + context.clientAddress
            if let token = Self.optionalToken(request), let account = try? await service.account(token: token) {
                client = "account:" + account.name.lowercased()
            }
            guard let lease = streams.open(client) else { throw GamesError.tooManyStreams }
            return try Self.events(service, request, lease: lease, closed: context.connectionClosed)
        }
    }

    // MARK: Reading requests

    static func token(_ request: Request) throws -> String {
        guard let token = optionalToken(request) else { throw GamesError.notLoggedIn }
        return token
    }

    static func optionalToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    static let idempotencyHeader = HTTPField.Name("Idempotency-Key")!
    static let linkHeader = HTTPField.Name("Link")!
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    static func idempotencyKey(_ request: Request) -> String? { request.headers[idempotencyHeader] }

    /// The game's number in the path: decimal digits, no sign and no leading zero (one URL per
    /// game: `/v1/games/+1` and `/v1/games/01` are not game 1).
    static func gameID(_ context: GamesRequestContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), text.first != "0",
              let id = try sequence(text, field: "id"), id > 0 else { throw GamesError.invalid(field: "id") }
        return id
    }

    /// `limit` (1–500, 100 when absent) and `cursor` (one this server gave) of a list request;
    /// anything else is a `validation` problem naming the parameter.
    static func pageRequest(_ request: Request) throws -> GamesPageRequest {
        var page = GamesPageRequest()
        if let text = formValue(request, "limit") {
            guard (1...3).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let limit = Int(text),
                  (1...GamesPageRequest.maxLimit).contains(limit) else { throw GamesError.invalid(field: "limit") }
            page.limit = limit
        }
        if let text = formValue(request, "cursor") {
            guard let cursor = GamesCursor(text) else { throw GamesError.invalid(field: "cursor") }
            page.after = cursor
        }
        return page
    }

    /// A page of games as JSON, with `Link: <…>; rel="next"` (RFC 8288) naming the next page
    /// when there is one: the same path and query, and the cursor after this page's last game.
    static func page(_ page: GamesPage, of request: GamesPageRequest, path: String, query: [(String, String)]) -> Response {
        var response = json(page.games)
        if let next = page.next {
            let parameters = query + [("limit", String(request.limit)), ("cursor", next.text)]
            let text = parameters.map { $0.0 + "=" + ($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._"))) ?? "") }
                .joined(separator: "&")
            response.headers[linkHeader] = "<\(path)?\(text)>; rel=\"next\""
        }
        return response
    }

    static func place(_ request: Request) throws -> Place {
        guard let text = formValue(request, "near") else { throw GamesError.invalid(field: "near") }
        guard let place = Place(text) else { throw GamesError.badPostcode(text) }
        return place
    }

    /// A query parameter read as HTML forms and most HTTP libraries write it: `+` is a space
    /// (a plus sign is `%2B`), then percent-decoded. The first of several wins.
    static func formValue(_ request: Request, _ name: String) -> String? {
        guard let query = request.uri.query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first.map({ $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }) == name else { continue }
            let value = parts.count > 1 ? String(parts[1]) : ""
            return value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    /// The body as `T`: JSON, within the size limit, with no field `T` does not know and no
    /// text holding a control character. A wrong type or a missing field is a `validation`
    /// problem naming the field.
    static func body<T: Decodable & KnownFields>(_ type: T.Type, _ request: Request, _ context: GamesRequestContext) async throws -> T {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > context.maxUploadSize { throw GamesError.tooLarge }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: context.maxUploadSize)
        } catch {
            // Past the limit (Hummingbird's own error type for it varies between versions).
            throw GamesError.tooLarge
        }
        let data = Data(buffer.readableBytesView)
        guard isStrictJSON(data), let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            throw GamesError.invalid(field: "body")
        }
        if let unknown = fields.keys.sorted().first(where: { !T.knownFields.contains($0) }) { throw GamesError.invalid(field: unknown) }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            if let text = value as? String, GamesLimits.hasForbiddenCharacters(text) { throw GamesError.forbiddenCharacters(field: name) }
            if T.wholeNumberFields.contains(name), !(value is NSNull) {
                guard let number = value as? NSNumber, isSmallWholeNumber(number) else { throw GamesError.invalid(field: name) }
            }
        }
        do {
            // Decoded from the fields as checked: with a key given twice, the text could show
            // one value to the check and the other to the decoder.
            return try JSONDecoder().decode(T.self, from: try JSONSerialization.data(withJSONObject: fields))
        } catch let DecodingError.keyNotFound(key, _) {
            throw GamesError.invalid(field: key.stringValue)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.dataCorrupted(context) {
            throw GamesError.invalid(field: context.codingPath.first?.stringValue ?? "body")
        }
    }

    /// Whether `data` is JSON as RFC 8259 writes it where Foundation's parser is more lenient:
    /// UTF-8 (not UTF-16, which it detects), no byte-order mark anywhere (it drops one at the
    /// start of a string, so a name sent as U+FEFF "ann" would become "ann"), and no comma
    /// before a closing bracket.
    static func isStrictJSON(_ data: Data) -> Bool {
        guard String(validating: data, as: UTF8.self) != nil else { return false }
        var inString = false, escaped = false
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        var lastSignificant: UInt8 = 0
        for byte in data {
            defer { beforePrevious = previous; previous = byte }
            if byte == 0xBF, previous == 0xBB, beforePrevious == 0xEF { return false }
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x22: inString = true
            case 0x7D, 0x5D: if lastSignificant == 0x2C { return false }
            default: break
            }
            lastSignificant = byte
        }
        return true
    }

    /// A whole number a request may carry: finite, without a fraction, within ±(2³¹ − 1).
    /// Compared as a double, so no value (−9223372036854775808, 1e400, 20 digits) ever reaches
    /// integer arithmetic or a conversion that traps.
    static func isSmallWholeNumber(_ number: NSNumber) -> Bool {
        let value = number.doubleValue
        return value.isFinite && value.rounded(.towardZero) == value && value > -2_147_483_648 && value < 2_147_483_648
    }

    // MARK: Writing responses

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let data = GamesServer.sortedJSON(value) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Server-sent events: `id: N`, `event: change`, `data: {GamesChange}`; a comment every 15 s
    /// keeps proxies and clients sure the line is alive. Resumes after `Last-Event-ID` or
    /// `?after=`; a client too far behind gets `event: reload` (data `{}`) instead of the
    /// changes it missed. A client that reads too slowly for the changes (2,000 lines behind)
    /// is cut off, and resumes from the last change it read. Ends when the server shuts down.
    static func events(_ service: GamesService, _ request: Request, lease: EventStreamLimiter.Lease,
                       closed: EventLoopFuture<Void>) throws -> Response {
        let after = try sequence(request.headers[Self.lastEventID], field: "Last-Event-ID")
            ?? sequence(request.uri.queryParameters.get("after").map { String($0) }, field: "after")
        let body = ResponseBody { writer in
            _ = lease   // held until the stream ends
            let (lines, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(2000))
            let send: @Sendable (String) -> Void = { line in
                if case .dropped = continuation.yield(line) { continuation.finish() }
            }
            let changes = Task {
                do {
                    for try await change in service.changes(after: after) {
                        if change.kind == .reload {
                            send("id: \(change.sequence)\nevent: reload\ndata: {}\n\n")
                        } else {
                            let data = GamesServer.sortedJSON(change).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                            send("id: \(change.sequence)\nevent: change\ndata: \(data)\n\n")
                        }
                    }
                } catch {}
                continuation.finish()
            }
            let heartbeat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 15_000_000_000)
                    send(": alive\n\n")
                }
            }
            // A client that hangs up ends the stream now (ConnectionGuard closes a feed's
            // connection when its client stops sending), not when a line next fails to send.
            closed.whenComplete { _ in continuation.finish() }
            defer { changes.cancel(); heartbeat.cancel() }
            try await writer.write(ByteBuffer(string: ": live changes of the Locker games store\nretry: 2000\n\n"))
            try await withGracefulShutdownHandler {
                for await line in lines { try await writer.write(ByteBuffer(string: line)) }
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// A change's sequence number as a client sends it back: digits only, or a `validation`
    /// problem naming `field`.
    static func sequence(_ text: String?, field: String) throws -> Int64? {
        guard let text else { return nil }
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
            throw GamesError.invalid(field: field)
        }
        return value
    }
}

/// Request bodies list the fields they accept: anything else is refused by name.
/// Those that are whole numbers say so: `3.5` or `1e3` for one is refused by name.
protocol KnownFields {
    static var knownFields: Set<String> { get }
    static var wholeNumberFields: Set<String> { get }
}
extension KnownFields { static var wholeNumberFields: Set<String> { [] } }
extension Credentials: KnownFields { static var knownFields: Set<String> { ["name", "password", "device"] } }
extension NewGame: KnownFields {
    static var knownFields: Set<String> { ["ground", "startsAt", "players", "capacity", "minimum", "note"] }
    static var wholeNumberFields: Set<String> { ["players", "capacity", "minimum"] }
}
extension GameChanges: KnownFields {
    static var knownFields: Set<String> { ["startsAt", "capacity", "note"] }
    static var wholeNumberFields: Set<String> { ["capacity"] }
}
extension GameCancellation: KnownFields { static var knownFields: Set<String> { ["reason"] } }
extension PasswordChange: KnownFields { static var knownFields: Set<String> { ["current", "new"] } }
extension AccountDeletion: KnownFields { static var knownFields: Set<String> { ["password"] } }

extension GamesService {
    /// Answers when the store does.
    func healthCheck() async throws {
        try await database.transaction { db in _ = try await db.query("SELECT 1 AS ok", []) }
    }
}

// MARK: Middleware

/// One log line and one count per request: a request id (also sent back as `X-Request-Id`),
/// method, route, path without query (it may hold a place), status, time and client address.
/// Bodies and headers, which carry passwords and tokens, are never logged.
struct RequestRecordMiddleware: RouterMiddleware {
    static let requestID = HTTPField.Name("X-Request-Id")!
    let logger: Logger
    let metrics: GamesMetrics

    func handle(_ request: Request, context: GamesRequestContext, next: (Request, GamesRequestContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            // Hummingbird names a path no route has "NotFound"; either way it is one series.
            let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
            // The methods the API has, and "other" for whatever else a stranger sends.
            let method = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].contains(request.method.rawValue) ? request.method.rawValue : "other"
            metrics.answered(route: route, method: method, status: status, seconds: seconds)
            logger.info("\(request.method) \(request.uri.path) \(status) \(String(format: "%.1f", seconds * 1000)) ms \(context.clientAddress)",
                        metadata: ["request_id": "\(id)", "method": "\(request.method)", "route": "\(route)", "path": "\(request.uri.path)",
                                   "status": .stringConvertible(status), "duration_ms": .stringConvertible((seconds * 1_000_000).rounded() / 1000), "client": "\(context.clientAddress)",
                                   "event": "request"])
        }
        var response = try await next(request, context)
        status = response.status.code
        response.headers[Self.requestID] = id
        return response
    }
}

/// Every refusal as `application/problem+json`, whatever threw it.
struct ProblemMiddleware: RouterMiddleware {
    let logger: Logger
    let methods: RouteMethods
    let metrics: GamesMetrics

    func handle(_ request: Request, context: GamesRequestContext, next: (Request, GamesRequestContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GamesError {
            switch error {
            case .database(let reason):
                // The store's own words stay in the log: they may name tables and values.
                logger.error("store: \(reason)", metadata: ["event": "store_error"])
                metrics.storeFailed(.failed)
                return Self.response(GamesError.serverUnavailable.problem)
            case .storeUnreachable:
                logger.error("store: PostgreSQL cannot be reached", metadata: ["event": "store_unreachable"])
                metrics.storeFailed(.unreachable)
                return Self.response(error.problem)
            default:
                if let refusal = GamesMetrics.refusal(error) { metrics.refused(refusal) }
                return Self.response(error.problem)
            }
        } catch let error as HTTPError {
            switch error.status {
            case .notFound, .methodNotAllowed:
                let allowed = methods.allowed(for: request.uri.path)
                guard !allowed.isEmpty else {
                    return Self.response(Problem(code: .notFound, title: "No such resource in the games API.", reason: "path"))
                }
                var response = Self.response(Problem(code: .methodNotAllowed, title: "That method is not allowed here.", reason: "method"))
                response.headers[.allow] = allowed.joined(separator: ", ")
                return response
            case .contentTooLarge:
                metrics.refused(.bodySize)
                return Self.response(GamesError.tooLarge.problem)
            default: return Self.response(GamesError.invalid(field: "request").problem)
            }
        } catch {
            logger.error("request failed: \(String(reflecting: error))")
            return Self.response(GamesError.serverFailed.problem)
        }
    }

    static func response(_ problem: Problem) -> Response {
        let data = GamesServer.sortedJSON(problem) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let seconds = problem.retryAfter { headers[.retryAfter] = String(seconds) }
        return Response(status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Sets the request's client address: the peer, or, behind a trusted proxy, the address the
/// proxy forwards (`TrustedProxies.client`).
struct ClientAddressMiddleware: RouterMiddleware {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    let proxies: TrustedProxies

    func handle(_ request: Request, context: GamesRequestContext, next: (Request, GamesRequestContext) async throws -> Response) async throws -> Response {
        guard !proxies.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = proxies.client(peer: context.peerAddress, forwardedFor: request.headers[values: Self.forwardedFor])
        return try await next(request, context)
    }
}

/// Gives each request its deadline (`RequestDeadline`): a store that stalls is given up on by
/// then, however many transactions the request makes, and the request answered 503 `store`.
struct DeadlineMiddleware: RouterMiddleware {
    static let budget: Duration = .milliseconds(4800)

    func handle(_ request: Request, context: GamesRequestContext, next: (Request, GamesRequestContext) async throws -> Response) async throws -> Response {
        try await RequestDeadline.$current.withValue(.now + Self.budget) { try await next(request, context) }
    }
}

/// A client that names another API version gets `unsupported_version` before anything else.
struct VersionMiddleware: RouterMiddleware {
    static let header = HTTPField.Name(GamesAPIVersion.header)!

    func handle(_ request: Request, context: GamesRequestContext, next: (Request, GamesRequestContext) async throws -> Response) async throws -> Response {
        if let version = request.headers[Self.header], version != String(GamesAPIVersion.current) { throw GamesError.unsupportedVersion }
        if request.uri.path.hasPrefix("/v"), !request.uri.path.hasPrefix(GamesAPIVersion.pathPrefix + "/") { throw GamesError.unsupportedVersion }
        return try await next(request, context)
    }
}

/// Sign-ups and log-ins per address: a bucket of `perMinute` tokens refilled continuously.
final class RateLimiter: @unchecked Sendable {
    private let perMinute: Double
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, at: Double)] = [:]

    init(perMinute: Int) { self.perMinute = Double(max(1, perMinute)) }

    func admit(_ address: String, now: Double = Date().timeIntervalSince1970) throws {
        let wait: Int? = lock.withLock {
            if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.at < 120 } }
            var bucket = buckets[address] ?? (perMinute, now)
            bucket.tokens = min(perMinute, bucket.tokens + (now - bucket.at) * perMinute / 60)
            bucket.at = now
            defer { buckets[address] = bucket }
            guard bucket.tokens >= 1 else { return Int(((1 - bucket.tokens) * 60 / perMinute).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
        if let wait { throw GamesError.rateLimited(seconds: max(1, wait)) }
    }
}

/// Live event streams open at once per client (an account, or an address when signed out).
/// A stream holds a `Lease`; the slot frees when the lease goes, however the stream ends.
final class EventStreamLimiter: Sendable {
    final class Lease: Sendable {
        let release: @Sendable () -> Void
        init(release: @escaping @Sendable () -> Void) { self.release = release }
        deinit { release() }
    }

    private let perClient: Int
    private let open = OpenCounts()

    init(perClient: Int) { self.perClient = max(1, perClient) }

    /// A lease for one more stream of `client`, or nil when it has as many as it may.
    func open(_ client: String) -> Lease? {
        let limit = perClient
        guard open.take(client, if: { mine, _ in mine < limit }) else { return nil }
        return Lease { [open] in open.give(client) }
    }

    /// Streams open now, for every client together.
    var openStreams: Int { open.total }
}

/// The methods each route's path answers, for a 405 with an `Allow` header when a request
/// names a path that exists with another method.
struct RouteMethods: Sendable {
    private let routes: [(segments: [Substring], methods: [String])]

    /// `routes`: ("/v1/games/{id}", "GET") pairs (a `{…}` or `:…` segment matches any).
    init(_ routes: [(path: String, method: String)]) {
        var table: [String: [String]] = [:]
        for (path, method) in routes { table[path, default: []].append(method) }
        self.routes = table.map { (path, methods) in (path.split(separator: "/"), methods.sorted()) }
    }

    /// The methods of the route whose path matches `path` (empty when none does).
    func allowed(for path: String) -> [String] {
        let parts = path.split(separator: "/")
        for route in routes where route.segments.count == parts.count {
            if zip(route.segments, parts).allSatisfy({ $0.hasPrefix("{") || $0.hasPrefix(":") || $0 == $1 }) { return route.methods }
        }
        return []
    }
}
