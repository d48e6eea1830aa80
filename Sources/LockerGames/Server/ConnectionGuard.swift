import LockerKit
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// How many connections the server holds, in all and per source address, so that one address
/// cannot take every descriptor (docs/RELIABILITY.md, "Hostile clients"). A connection beyond
/// either limit is answered 503 `busy` with `Retry-After` as soon as its request head arrives
/// (the request is not read, so any client may retry it), while at most `refusals` such
/// answers are pending; beyond those it is closed as soon as it is accepted. Trusted proxies
/// count only towards the total: every player behind them shares their address.
///
/// An address at its limit gives up its idle connections first: a new connection from it
/// closes one of its connections that has no request in progress (a player's pooled keep-alive
/// line, which the player's client opens again when it needs it) and takes its place. So a
/// club of many players behind one address is never turned away by its own idle lines.
final class ConnectionLimits: Sendable {
    let total: Int
    let perAddress: Int
    /// Connections over a limit that may wait for their request head at once, to be told 503.
    let refusals: Int
    /// How long such a connection may take to send its head before it is closed unanswered.
    static let refusalSeconds: Int64 = 2
    private let proxies: TrustedProxies
    private let open = OpenCounts()
    private let refusing = OpenCounts()
    private let idle = IdleConnections()
    /// Where refusals are counted for `/metrics`.
    let metrics: GamesMetrics

    /// `total` is lowered to what the process's descriptor limit leaves after the descriptors
    /// open now (the store, the listening socket, the event loops) and `reserved` more (store
    /// connections and files opened later), and one address never gets more than a quarter of
    /// the total, so another address always finds room.
    init(total: Int, perAddress: Int, reservedDescriptors: Int, proxies: TrustedProxies, metrics: GamesMetrics = GamesMetrics()) {
        let descriptors = ConnectionLimits.descriptorLimit()
        let inUse = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 32
        let room = descriptors.map { max(4, $0 - inUse - reservedDescriptors) } ?? total
        // The refusals' descriptors come out of the room, so a refusal never takes a descriptor
        // the store or an admitted connection needs.
        refusals = max(1, min(32, min(total, room) / 8))
        self.total = max(1, min(total, room - (room < total + refusals ? refusals : 0)))
        self.perAddress = max(1, min(perAddress, max(1, self.total / 4)))
        self.proxies = proxies
        self.metrics = metrics
    }

    /// Connections open now, from every address.
    var openConnections: Int { open.total }

    /// Counts the connection in, or answers false when it would go over a limit. At its
    /// address's limit, an idle connection of the same address is closed to make room.
    func admit(_ address: String) -> Bool {
        let trusted = proxies.contains(address)
        let limit = perAddress, total = total
        if open.take(address, if: { mine, all in all < total && (trusted || mine < limit) }) { return true }
        guard idle.closeOne(of: address) else { return false }
        // The closed one gives its count back when it has gone; until then this one is over.
        return open.take(address) { _, all in all < total + limit }
    }

    /// Notes that a connection has no request in progress (`close` ends it), or has one again.
    func noteIdle(_ address: String, _ connection: ObjectIdentifier, close: (@Sendable () -> Void)?) {
        idle.note(address, connection, close: close)
    }

    func release(_ address: String) { open.give(address) }

    /// Takes one of the slots of connections waiting to be told 503, or answers false.
    func takeRefusal() -> Bool {
        let limit = refusals
        return refusing.take("") { _, all in all < limit }
    }

    func releaseRefusal() { refusing.give("") }

    /// The soft limit on open descriptors (`ulimit -n`), if there is one.
    static func descriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}

/// The connections of each address that have no request in progress, and how to close them.
final class IdleConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var byAddress: [String: [ObjectIdentifier: @Sendable () -> Void]] = [:]

    /// Notes `connection` idle with its closer, or (nil) busy or gone.
    func note(_ address: String, _ connection: ObjectIdentifier, close: (@Sendable () -> Void)?) {
        lock.withLock {
            byAddress[address, default: [:]][connection] = close
            if byAddress[address]?.isEmpty == true { byAddress[address] = nil }
        }
    }

    /// Closes one idle connection of `address` (forgetting it); false when it has none.
    func closeOne(of address: String) -> Bool {
        let close: (@Sendable () -> Void)? = lock.withLock {
            guard let (connection, close) = byAddress[address]?.first else { return nil }
            byAddress[address]?[connection] = nil
            if byAddress[address]?.isEmpty == true { byAddress[address] = nil }
            return close
        }
        close?()
        return close != nil
    }
}

/// The first handler after the HTTP codec on every connection. It
/// - counts the connection against `ConnectionLimits`; beyond them it answers the first request
///   head 503 `busy` with `Retry-After` and closes (or closes at once when too many wait so);
/// - marks a request that does not keep its connection (HTTP/1.0 without `keep-alive`)
///   `Connection: close`, so the connection closes once it is answered (`KeepAliveReader`);
/// - closes a live feed's connection when its client stops sending (a client's half-close),
///   so the feed ends and its slot is given back at once;
/// - gives each request `requestSeconds` to arrive whole (head, body and end), so a client that
///   trickles its body a byte at a time is cut off (a trickled head is cut off by the idle
///   timeout, which no partial head resets);
/// - answers a body announced larger than the limit with 413 before it is sent (`Expect:
///   100-continue` clients send nothing more), and says `100 Continue` to a body within it;
/// - answers a request that cannot be parsed with a problem document instead of an empty 400.
/// Each answer it gives itself closes the connection.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let requestSeconds: Int64
    private let bodyLimit: Int
    private var address: String?
    private var admitted = false
    /// Over a limit: holds a refusal slot until the head comes and is answered 503.
    private var overLimit = false
    private var deadline: Scheduled<Void>?
    private var refusing = false
    /// The request in progress is a live feed (`/v1/events`).
    private var streaming = false

    init(limits: ConnectionLimits, requestSeconds: Int, bodyLimit: Int) {
        self.limits = limits
        self.requestSeconds = Int64(requestSeconds)
        self.bodyLimit = bodyLimit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandler(KeepAliveReader(), position: .after(decoder))
        }
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard address == nil else { return }
        let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        address = peer
        if limits.admit(peer) {
            admitted = true
            noteIdle(context, true)
        } else if limits.takeRefusal() {
            overLimit = true
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(ConnectionLimits.refusalSeconds)) {
                context.close(promise: nil)
            }
        } else {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave()
    }

    private func leave() {
        deadline?.cancel()
        deadline = nil
        if admitted, let address {
            limits.noteIdle(address, ObjectIdentifier(self), close: nil)
            limits.release(address)
        }
        admitted = false
        if overLimit { limits.releaseRefusal() }
        overLimit = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head where overLimit:
            limits.metrics.refused(.connections)
            refuse(context, GamesError.serverBusy(retryAfter: 1).problem)
            return
        case .head(let request):
            noteIdle(context, false)
            streaming = request.path?.hasPrefix("/v1/events") ?? false
            if let length = request.headerFields[.contentLength].flatMap({ Int($0) }), length > bodyLimit {
                limits.metrics.refused(.bodySize)
                refuse(context, GamesError.tooLarge.problem)
                return
            }
            startDeadline(context)
            if request.headerFields[.expect]?.lowercased() == "100-continue" {
                context.writeAndFlush(NIOAny(HTTPResponsePart.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { noteIdle(context, true) }
        context.write(data, promise: promise)
    }

    /// Tells the limits whether this connection may be closed to make room for its address.
    private func noteIdle(_ context: ChannelHandlerContext, _ idle: Bool) {
        guard admitted, let address else { return }
        let channel = context.channel
        let close: (@Sendable () -> Void)? = idle ? { @Sendable in channel.close(mode: .all, promise: nil) } : nil
        limits.noteIdle(address, ObjectIdentifier(self), close: close)
    }

    private func startDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(requestSeconds)) { [weak self] in
            guard let self else { return }
            self.deadline = nil
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event, streaming {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A broken or closed socket is Hummingbird's to handle; anything else from the decoders
        // below means the request could not be read: say so in the API's words and close.
        if error is IOError || error is ChannelError {
            context.fireErrorCaught(error)
            return
        }
        limits.metrics.refused(.malformed)
        refuse(context, GamesError.malformedRequest.problem)
    }

    /// Answers `problem` and closes the connection; nothing more is read from it.
    private func refuse(_ context: ChannelHandlerContext, _ problem: Problem) {
        guard !refusing else { return }
        refusing = true
        deadline?.cancel()
        deadline = nil
        let body = GamesServer.sortedJSON(problem) ?? Data()
        var fields: HTTPFields = [.contentType: "application/problem+json", .contentLength: String(body.count), .connection: "close"]
        if let seconds = problem.retryAfter { fields[.retryAfter] = String(seconds) }
        let head = HTTPResponse(status: .init(code: problem.status), headerFields: fields)
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}

/// Between the HTTP/1 decoder and the conversion to HTTP types, which leaves the version out:
/// a request that does not keep its connection (HTTP/1.0 without `Connection: keep-alive`, or
/// `Connection: close` in any spelling) is marked `Connection: close`, the mark Hummingbird
/// reads to close the connection once it has answered.
final class KeepAliveReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }
}

/// A set of addresses and networks (`10.0.0.5`, `::1`, `10.0.0.0/8`, `fd00::/8`): the trusted
/// proxies, and who may read `/metrics`.
public struct AddressNetworks: Sendable {
    struct Network: Sendable {
        var bytes: [UInt8]
        var prefix: Int
    }
    private let networks: [Network]

    public static let none = AddressNetworks(networks: [])

    private init(networks: [Network]) { self.networks = networks }

    /// Throws `notAnAddress` for the first entry that is neither an address nor a network.
    public init(_ entries: [String]) throws {
        var networks: [Network] = []
        for entry in entries {
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = IPAddress.bytes(of: parts[0]) else { throw TrustedProxiesError.notAnAddress(entry) }
            var prefix = bytes.count * 8
            if parts.count == 2 {
                guard let value = Int(parts[1]), (0...bytes.count * 8).contains(value) else { throw TrustedProxiesError.notAnAddress(entry) }
                prefix = value
            }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` is in one of the networks.
    public func contains(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = IPAddress.bytes(of: address) else { return false }
        return networks.contains { network in
            guard network.bytes.count == bytes.count else { return false }
            var left = network.prefix
            for (a, b) in zip(network.bytes, bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }
}

/// The addresses whose `X-Forwarded-For` the server believes: reverse proxies in front of it.
public struct TrustedProxies: Sendable {
    private let networks: AddressNetworks

    public static let none = TrustedProxies(AddressNetworks.none)

    /// Proxies at these addresses or networks.
    public init(_ networks: AddressNetworks) { self.networks = networks }

    /// Throws `notAnAddress` for the first entry that is neither an address nor a network.
    public init(_ entries: [String]) throws { networks = try AddressNetworks(entries) }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` is one of the trusted proxies.
    public func contains(_ address: String) -> Bool { networks.contains(address) }

    /// The client's address: the peer itself, or, when the peer is a trusted proxy, the
    /// right-most `X-Forwarded-For` entry that is not one (the first hop nobody trusted added).
    /// A header from any other peer is ignored: anyone can write one.
    public func client(peer: String, forwardedFor: [String]) -> String {
        guard contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            // A hop that is not an address (a port added, junk) is no one's address: not the
            // proxy's, whose own rights (loopback, /metrics) it must not borrow.
            guard IPAddress.bytes(of: hop) != nil else { return "unreadable:" + hop.prefix(64) }
            if !contains(hop) { return hop }
        }
        return hops.first.flatMap { IPAddress.bytes(of: $0) != nil ? $0 : nil } ?? peer
    }
}

/// An entry of `--trusted-proxy` or `--metrics-allow` that is neither an address nor a network.
public enum TrustedProxiesError: Error, Equatable {
    case notAnAddress(String)
}
