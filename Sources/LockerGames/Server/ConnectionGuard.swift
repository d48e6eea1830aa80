import LockerKit
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// How many connections the server holds, in all and per source address, so that one address
/// cannot take every descriptor (docs/RELIABILITY.md, "Hostile clients"). A connection beyond
/// either limit is closed as soon as it is accepted. Trusted proxies count only towards the
/// total: every player behind them shares their address.
final class ConnectionLimits: Sendable {
    let total: Int
    let perAddress: Int
    private let proxies: TrustedProxies
    private let open = OpenCounts()

    /// `total` is lowered to what the process's descriptor limit leaves after the descriptors
    /// open now (the store, the listening socket, the event loops) and `reserved` more (store
    /// connections and files opened later), and one address never gets more than a quarter of
    /// the total, so another address always finds room.
    init(total: Int, perAddress: Int, reservedDescriptors: Int, proxies: TrustedProxies) {
        let descriptors = ConnectionLimits.descriptorLimit()
        let inUse = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 32
        let room = descriptors.map { max(4, $0 - inUse - reservedDescriptors) } ?? total
        self.total = max(1, min(total, room))
        self.perAddress = max(1, min(perAddress, max(1, self.total / 4)))
        self.proxies = proxies
    }

    /// Counts the connection in, or answers false when it would go over a limit.
    func admit(_ address: String) -> Bool {
        let trusted = proxies.contains(address)
        return open.take(address) { mine, all in all < total && (trusted || mine < perAddress) }
    }

    func release(_ address: String) { open.give(address) }

    /// The soft limit on open descriptors (`ulimit -n`), if there is one.
    static func descriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}

/// The first handler after the HTTP codec on every connection. It
/// - counts the connection against `ConnectionLimits` and closes it at once beyond them;
/// - gives each request `requestSeconds` to arrive whole (head, body and end), so a client that
///   trickles its body a byte at a time is cut off (a trickled head is cut off by the idle
///   timeout, which no partial head resets);
/// - answers a body announced larger than the limit with 413 before it is sent (`Expect:
///   100-continue` clients send nothing more), and says `100 Continue` to a body within it;
/// - answers a request that cannot be parsed with a problem document instead of an empty 400.
/// Each answer it gives itself closes the connection.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let limits: ConnectionLimits
    private let requestSeconds: Int64
    private let bodyLimit: Int
    private var address: String?
    private var admitted = false
    private var deadline: Scheduled<Void>?
    private var refusing = false

    init(limits: ConnectionLimits, requestSeconds: Int, bodyLimit: Int) {
        self.limits = limits
        self.requestSeconds = Int64(requestSeconds)
        self.bodyLimit = bodyLimit
    }

    func handlerAdded(context: ChannelHandlerContext) {
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
        if admitted, let address { limits.release(address) }
        admitted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            if let length = request.headerFields[.contentLength].flatMap({ Int($0) }), length > bodyLimit {
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

    private func startDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(requestSeconds)) { [weak self] in
            guard let self else { return }
            self.deadline = nil
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A broken or closed socket is Hummingbird's to handle; anything else from the decoders
        // below means the request could not be read: say so in the API's words and close.
        if error is IOError || error is ChannelError {
            context.fireErrorCaught(error)
            return
        }
        refuse(context, GamesError.malformedRequest.problem)
    }

    /// Answers `problem` and closes the connection; nothing more is read from it.
    private func refuse(_ context: ChannelHandlerContext, _ problem: Problem) {
        guard !refusing else { return }
        refusing = true
        deadline?.cancel()
        deadline = nil
        let body = (try? JSONEncoder().encode(problem)) ?? Data()
        let head = HTTPResponse(status: .init(code: problem.status),
                                headerFields: [.contentType: "application/problem+json", .contentLength: String(body.count),
                                               .connection: "close"])
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}

/// The addresses whose `X-Forwarded-For` the server believes: reverse proxies in front of it,
/// each an address (`10.0.0.5`, `::1`) or a network (`10.0.0.0/8`, `fd00::/8`).
public struct TrustedProxies: Sendable {
    struct Network: Sendable {
        var bytes: [UInt8]
        var prefix: Int
    }
    private let networks: [Network]

    public static let none = TrustedProxies(networks: [])

    private init(networks: [Network]) { self.networks = networks }

    /// Throws `notAnAddress` for the first entry that is neither an address nor a network.
    public init(_ entries: [String]) throws {
        var networks: [Network] = []
        for entry in entries {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
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

    /// Whether `address` is one of the trusted proxies.
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

    /// The client's address: the peer itself, or, when the peer is a trusted proxy, the
    /// right-most `X-Forwarded-For` entry that is not one (the first hop nobody trusted added).
    /// A header from any other peer is ignored: anyone can write one.
    public func client(peer: String, forwardedFor: [String]) -> String {
        guard contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard IPAddress.bytes(of: hop) != nil else { return peer }
            if !contains(hop) { return hop }
        }
        return hops.first.flatMap { IPAddress.bytes(of: $0) != nil ? $0 : nil } ?? peer
    }
}

/// A `--trusted-proxy` entry that is neither an address nor a network.
public enum TrustedProxiesError: Error, Equatable {
    case notAnAddress(String)
}
