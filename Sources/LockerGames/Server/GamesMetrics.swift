import LockerKit
import Foundation

/// What the server has done since it started, for `GET /metrics` in the Prometheus text format
/// (version 0.0.4): requests by route, method and status, their latency, refusals by the limit
/// that refused them, store errors, sign-ups and bookings; and, read when scraped, what is open
/// now (connections, live event streams, store connections). Names are listed in
/// docs/RELIABILITY.md.
public final class GamesMetrics: @unchecked Sendable {
    /// Why a request or connection was turned away.
    public enum Refusal: String, CaseIterable, Sendable {
        /// Connections in all, or per address, were at their limit (503 `busy`).
        case connections
        /// A body larger than the limit (413).
        case bodySize = "body_size"
        /// A request that did not arrive whole in time, or was not HTTP.
        case malformed
        /// Sign-ups, log-ins and password changes per address (429).
        case accountRate = "account_rate"
        /// Live event streams per account or address (429).
        case eventStreams = "event_streams"
        /// Log-in delays after wrong passwords, and the games-per-hour limit (429).
        case throttled
        /// `/metrics` asked from an address not allowed to read it (403).
        case metricsAddress = "metrics_address"
    }

    /// The limit behind a refusal the service or a route threw, if it is one.
    static func refusal(_ error: GamesError) -> Refusal? {
        switch error {
        case .rateLimited: return .accountRate
        case .tooManyStreams: return .eventStreams
        case .tooManyGames, .locked: return .throttled
        default: return nil
        }
    }

    /// What went wrong with the store.
    public enum StoreError: String, CaseIterable, Sendable {
        /// The store refused or failed a statement.
        case failed
        /// PostgreSQL could not be reached in time.
        case unreachable
    }

    /// Upper bounds of the latency buckets, in seconds (`+Inf` follows).
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct RequestKey: Hashable { var route: String; var method: String; var status: Int }
    private struct Latency { var buckets = [Int](repeating: 0, count: GamesMetrics.latencyBuckets.count); var count = 0; var sum = 0.0 }

    private let lock = NSLock()
    private var requests: [RequestKey: Int] = [:]
    private var latency: [String: Latency] = [:]
    private var refusals: [Refusal: Int] = [:]
    private var storeErrors: [StoreError: Int] = [:]
    private let started = Date().timeIntervalSince1970

    /// Read when scraped: connections open now, live event streams open now, and store
    /// connections in use and allowed (nil for a store without a pool).
    var openConnections: @Sendable () -> Int = { 0 }
    var openEventStreams: @Sendable () -> Int = { 0 }
    var storeConnections: @Sendable () -> (inUse: Int, limit: Int)? = { nil }

    public init() {}

    /// Counts one answered request. `route` is the route's pattern (`/v1/games/{id}`), never the
    /// path as sent, so a stranger cannot make the label set grow.
    func answered(route: String, method: String, status: Int, seconds: Double) {
        lock.withLock {
            requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var entry = latency[route] ?? Latency()
            for (index, bound) in Self.latencyBuckets.enumerated() where seconds <= bound { entry.buckets[index] += 1 }
            entry.count += 1
            entry.sum += seconds
            latency[route] = entry
        }
    }

    func refused(_ refusal: Refusal) { lock.withLock { refusals[refusal, default: 0] += 1 } }

    func storeFailed(_ error: StoreError) { lock.withLock { storeErrors[error, default: 0] += 1 } }

    /// The Prometheus text exposition of everything counted so far.
    public func exposition() -> String {
        let (requests, latency, refusals, storeErrors) = lock.withLock { (self.requests, self.latency, self.refusals, self.storeErrors) }
        /// Successful POSTs to `route`: sign-ups, bookings and creations are read off the requests.
        func made(_ route: String) -> Int {
            requests.filter { $0.key.route == route && $0.key.method == "POST" && (200..<300).contains($0.key.status) }.values.reduce(0, +)
        }
        var text = ""
        func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let rendered = labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",")
            text += labels.isEmpty ? "\(name) \(value)\n" : "\(name){\(rendered)} \(value)\n"
        }

        family("locker_games_requests_total", "counter", "Requests answered, by route, method and status.")
        for (key, count) in requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            sample("locker_games_requests_total", [("route", key.route), ("method", key.method), ("status", String(key.status))], String(count))
        }
        family("locker_games_request_duration_seconds", "histogram", "Time from a request's head to its answer, by route.")
        for (route, entry) in latency.sorted(by: { $0.key < $1.key }) {
            for (index, bound) in Self.latencyBuckets.enumerated() {
                sample("locker_games_request_duration_seconds_bucket", [("route", route), ("le", Self.number(bound))], String(entry.buckets[index]))
            }
            sample("locker_games_request_duration_seconds_bucket", [("route", route), ("le", "+Inf")], String(entry.count))
            sample("locker_games_request_duration_seconds_sum", [("route", route)], Self.number(entry.sum))
            sample("locker_games_request_duration_seconds_count", [("route", route)], String(entry.count))
        }
        family("locker_games_refusals_total", "counter", "Requests and connections turned away, by the limit that refused them.")
        for refusal in Refusal.allCases { sample("locker_games_refusals_total", [("limit", refusal.rawValue)], String(refusals[refusal] ?? 0)) }
        family("locker_games_store_errors_total", "counter", "Store failures, by kind.")
        for error in StoreError.allCases { sample("locker_games_store_errors_total", [("kind", error.rawValue)], String(storeErrors[error] ?? 0)) }
        family("locker_games_signups_total", "counter", "Accounts created.")
        sample("locker_games_signups_total", [], String(made("/v1/accounts")))
        family("locker_games_bookings_total", "counter", "Bookings made (going or waitlisted).")
        sample("locker_games_bookings_total", [], String(made("/v1/games/{id}/booking")))
        family("locker_games_games_created_total", "counter", "Games created.")
        sample("locker_games_games_created_total", [], String(made("/v1/games")))
        family("locker_games_open_connections", "gauge", "Client connections open now.")
        sample("locker_games_open_connections", [], String(openConnections()))
        family("locker_games_open_event_streams", "gauge", "Live event streams open now.")
        sample("locker_games_open_event_streams", [], String(openEventStreams()))
        if let pool = storeConnections() {
            family("locker_games_store_connections_in_use", "gauge", "Store connections lent to a transaction now.")
            sample("locker_games_store_connections_in_use", [], String(pool.inUse))
            family("locker_games_store_connections_max", "gauge", "Store connections the pool may open.")
            sample("locker_games_store_connections_max", [], String(pool.limit))
        }
        family("locker_games_start_time_seconds", "gauge", "When the server started, in seconds since 1970.")
        sample("locker_games_start_time_seconds", [], Self.number(started))
        return text
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
