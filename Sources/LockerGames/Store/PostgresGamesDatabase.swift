import LockerKit
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The games store in PostgreSQL through postgres-nio: a connection pool, transactions that lock
/// the game they change (`SELECT … FOR UPDATE`) so racing bookers queue per game, and `NOTIFY`
/// after every committed change so every server on the database hears it (`LISTEN`).
public final class PostgresGamesDatabase: GamesDatabase, @unchecked Sendable {
    public let kind = GamesStoreKind.postgres
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>
    private let notifier: Notifier

    /// Connections a server keeps to PostgreSQL: eight per processor, at most 40. More only
    /// queue on the same processors: with 16 on two processors the booking churn ran 32 % of
    /// pgbench's rate against 30 % with 40, and 31 % with 8 (docs/PERFORMANCE.md).
    public static let defaultConnections = min(40, 8 * max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Connects to `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (`?sslmode=require` for
    /// TLS; the password may also come from `PGPASSWORD`), then creates or checks the schema. A
    /// database of a newer schema is refused untouched.
    public init(url: String, environment: [String: String] = [:], maximumConnections: Int = PostgresGamesDatabase.defaultConnections,
                logger: Logger) async throws {
        guard let parts = PostgresURL(url, environment: environment) else {
            throw GamesError.database("“\(url)” is not a postgres:// address")
        }
        var configuration = PostgresClient.Configuration(host: parts.host, port: parts.port, username: parts.user,
                                                         password: parts.password, database: parts.database,
                                                         tls: parts.requireTLS ? .require(.makeClientConfiguration()) : .disable)
        configuration.options.maximumConnections = maximumConnections
        self.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        // The pool says every failed connection attempt at info level, in its own words: the
        // store's state is logged once, by the server, in plain words.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.logger = logger
        notifier = Notifier(client: client, logger: logger)
        let client = self.client
        runner = Task { await client.run() }
        do {
            try await migrate()
        } catch {
            runner.cancel()
            throw error
        }
    }

    /// Creates the schema on an empty database; refuses one a newer Locker wrote. An advisory
    /// lock keeps two servers starting together from both creating it.
    private func migrate() async throws {
        try await transaction { session in
            try await session.query("SELECT pg_advisory_xact_lock(72650)", [])
            try await session.query("CREATE TABLE IF NOT EXISTS lockerSchema (version BIGINT NOT NULL)", [])
            let version = try await session.one("SELECT max(version) AS version FROM lockerSchema", [])?.int("version")
            if let version, version > GamesSchema.version { throw GamesError.newerSchema }
            if version == nil {
                for statement in GamesSchema.postgres.split(separator: ";") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    try await session.query(String(statement), [])
                }
            }
            if (version ?? 2) < 3 {
                for statement in GamesSchema.version3 { try await session.query(statement, []) }
            }
            if (version ?? 2) < 4 {
                for statement in GamesSchema.version4 { try await session.query(statement, []) }
            }
            if version != GamesSchema.version {
                try await session.query("DELETE FROM lockerSchema", [])
                try await session.query("INSERT INTO lockerSchema (version) VALUES (?)", [GamesSchema.version])
            }
        }
    }

    /// How long a transaction waits for a connection before the store counts as unreachable.
    /// postgres-nio's pool keeps retrying a server that is down for about a minute before it
    /// gives up on a request; a player should hear within seconds. Once a wait has failed, the
    /// next ones wait a second only (each still asks the pool, which goes on reconnecting), until
    /// a connection comes again: the store answers as soon as PostgreSQL does.
    static let connectionPatience: Duration = .seconds(5)
    static let patienceWhileUnreachable: Duration = .seconds(1)
    private let unreachable = Flag()
    private let leased = Atomic<Int>(0)
    private let maximumConnections: Int

    /// Connections lent to a transaction now, and how many the pool may open (`/metrics`).
    public var connectionsInUse: (inUse: Int, limit: Int)? { (leased.load(ordering: .relaxed), maximumConnections) }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T {
        do {
            return try await withConnection { connection in
                let session = Session(connection: connection, logger: self.logger, changes: Flag())
                _ = try await session.query("BEGIN", [])
                do {
                    let result = try await body(session)
                    _ = try await session.query("COMMIT", [])
                    if session.changes.isSet { self.notifier.signal() }
                    return result
                } catch {
                    _ = try? await session.query("ROLLBACK", [])
                    throw error
                }
            }
        } catch {
            throw PostgresGamesDatabase.translate(error)
        }
    }

    /// How long a transaction may take in all, from asking for a connection to its commit.
    /// PostgreSQL that stops answering on an open connection (a frozen host, a stopped
    /// process, a network that drops packets without a reset) would otherwise hold the
    /// request, and the connection, for as long as it stays silent.
    static let transactionDeadline: Duration = .milliseconds(4500)

    /// A pooled connection for `body`, or `GamesError.storeUnreachable` when none comes within
    /// `connectionPatience`, or when the transaction is not over by its deadline: the earlier of
    /// `transactionDeadline` from now and the request's own (`RequestDeadline`, so a request
    /// of several transactions still answers in time). Then its connection is closed, which
    /// ends the statement waiting on it (PostgreSQL rolls back what it had not committed), and
    /// the caller is answered at once: the work goes on in a task of its own until the library
    /// gives up on it, so no wait inside the library can hold a request, or a shutdown.
    private func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let patience = unreachable.isSet ? PostgresGamesDatabase.patienceWhileUnreachable : PostgresGamesDatabase.connectionPatience
        let now = ContinuousClock.now
        let deadline = min(now + PostgresGamesDatabase.transactionDeadline, RequestDeadline.current ?? .now + .seconds(3600))
        guard deadline > now else { throw GamesError.storeUnreachable }
        let leaseBy = min(now + patience, deadline)
        let outcome = Outcome<T>()
        let work = Task {
            do {
                let value = try await self.client.withConnection { connection in
                    outcome.leased(connection)
                    self.unreachable.clear()
                    self.leased.add(1, ordering: .relaxed)
                    defer { self.leased.subtract(1, ordering: .relaxed) }
                    return try await body(connection)
                }
                outcome.finish(.success(value))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let timer = Task {
            try await Task.sleep(until: leaseBy, clock: .continuous)
            if !outcome.isLeased {
                if outcome.finish(.failure(GamesError.storeUnreachable)) { self.unreachable.set() }
                work.cancel()
                return
            }
            try await Task.sleep(until: deadline, clock: .continuous)
            if outcome.finish(.failure(GamesError.storeUnreachable)) {
                self.logger.warning("PostgreSQL did not finish a transaction in time: its connection is closed")
                outcome.connection?.close().whenComplete { _ in }
                work.cancel()
            }
        }
        defer { timer.cancel() }
        return try await outcome.value()
    }

    /// The first of a transaction's result and its deadline, for the caller to wait on.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, Error>?
        private var waiter: CheckedContinuation<T, Error>?
        private var held: PostgresConnection?
        private var isLeasedValue = false

        var isLeased: Bool { lock.withLock { isLeasedValue } }
        var connection: PostgresConnection? { lock.withLock { held } }

        func leased(_ connection: PostgresConnection) {
            lock.withLock { held = connection; isLeasedValue = true }
        }

        /// Settles the outcome; false when it was settled already.
        @discardableResult
        func finish(_ result: Result<T, Error>) -> Bool {
            let (settled, waiter): (Bool, CheckedContinuation<T, Error>?) = lock.withLock {
                guard self.result == nil else { return (false, nil) }
                self.result = result
                defer { self.waiter = nil }
                return (true, self.waiter)
            }
            waiter?.resume(with: result)
            return settled
        }

        func value() async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<T, Error>? = lock.withLock {
                    if let result { return result }
                    waiter = continuation
                    return nil
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }

    public func changeSignals() -> AsyncStream<Void> {
        let client = self.client, logger = self.logger
        return AsyncStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    do {
                        try await client.withConnection { connection in
                            try await connection.listen(on: gamesChangeChannel) { notifications in
                                for try await _ in notifications { continuation.yield() }
                            }
                        }
                    } catch {
                        logger.warning("LISTEN \(gamesChangeChannel) stopped: \(String(reflecting: error)); listening again in 1 s")
                    }
                    continuation.yield()   // a reader catches up on whatever it missed
                    try? await Task.sleep(nanoseconds: 1_000_000_000)
                }
                continuation.finish()
            }
            // A NOTIFY lost with a server killed between its commit and its signal is made up
            // for within a second.
            let heartbeat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 1_000_000_000)
                    continuation.yield()
                }
            }
            continuation.onTermination = { _ in task.cancel(); heartbeat.cancel() }
        }
    }

    public func close() async {
        runner.cancel()
        _ = await runner.value
    }

    struct Session: SQLSession, @unchecked Sendable {
        let connection: PostgresConnection
        let logger: Logger
        let changes: Flag

        func query(_ sql: String, _ arguments: [SQLBindable]) async throws -> [SQLRow] {
            var binds = PostgresBindings()
            for argument in arguments {
                switch argument.sqlValue {
                case .integer(let v): binds.append(v)
                case .real(let v): binds.append(v)
                case .text(let v): binds.append(v)
                case .null: binds.appendNull()
                }
            }
            do {
                let (sql, name) = StatementCache.shared.statement(for: sql)
                var result: [SQLRow] = []
                if let name {
                    let rows = try await StoreStatement.$current.withValue(StoreStatement.Current(name: name, sql: sql)) {
                        try await connection.execute(StoreStatement(bindings: binds), logger: logger)
                    }
                    for try await row in rows { result.append(try PostgresGamesDatabase.sqlRow(row)) }
                } else {
                    let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                    for try await row in rows { result.append(try PostgresGamesDatabase.sqlRow(row)) }
                }
                return result
            } catch let error as PSQLError {
                throw PostgresGamesDatabase.translate(error)
            }
        }

        func lockRow(_ table: String, id: Int64) async throws {
            _ = try await query("SELECT id FROM \(table) WHERE id = ? FOR UPDATE", [id])
        }

        var forUpdate: String { " FOR UPDATE" }

        /// The statement and the live feed's row in one round trip.
        func query(_ sql: String, _ arguments: [SQLBindable], recording change: RecordedChange) async throws -> [SQLRow] {
            let rows = try await query("WITH recorded AS (INSERT INTO gamesChange (at, kind, gameId, groundId) VALUES (?, ?, ?, ?)) " + sql,
                                       [change.at, change.kind.rawValue, change.game, change.ground] + arguments)
            changes.set()
            return rows
        }

        func notifyChange(_ sequence: Int64) async throws {
            changes.set()
        }
    }

    /// A flag shared between tasks: whether a transaction recorded a change (set inside it,
    /// read after its commit), whether it has its connection yet, whether the store was last
    /// found unreachable.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
        func clear() { value.withLock { $0 = false } }
    }

    /// Sends the change signal after commits, outside them. A NOTIFY inside a transaction holds
    /// a database-wide lock until its commit is on disk, which queued every booking of every
    /// game behind one another; listeners read the change table anyway, so one signal after
    /// several commits tells them all. Signals that arrive while one is being sent fold into
    /// the next.
    final class Notifier: @unchecked Sendable {
        private let client: PostgresClient
        private let logger: Logger
        private let lock = NSLock()
        private var pending = false
        private var sending = false

        static let gatherNanoseconds: UInt64 = 10_000_000

        init(client: PostgresClient, logger: Logger) {
            self.client = client
            self.logger = logger
        }

        func signal() {
            let start = lock.withLock { () -> Bool in
                pending = true
                if sending { return false }
                sending = true
                return true
            }
            if start { Task { await drain() } }
        }

        /// Sends one NOTIFY for every signal that came in since the last one. Each round first
        /// waits a few milliseconds so the commits of that time share it: at most a hundred a
        /// second however busy the store, and a live feed still hears of a change within a frame.
        private func drain() async {
            while true {
                try? await Task.sleep(nanoseconds: Notifier.gatherNanoseconds)
                let send = lock.withLock { () -> Bool in
                    if pending { pending = false; return true }
                    sending = false
                    return false
                }
                guard send else { return }
                do {
                    try await client.query("SELECT pg_notify(\(gamesChangeChannel), '')", logger: logger)
                } catch {
                    logger.warning("NOTIFY \(gamesChangeChannel) failed: \(String(reflecting: error)); listeners catch up within a second")
                }
            }
        }
    }

    static func sqlRow(_ row: PostgresRow) throws -> SQLRow {
        var values: [String: SQLValue] = [:]
        for cell in row { values[cell.columnName.lowercased()] = try value(cell) }
        return SQLRow(values)
    }

    /// `?` placeholders as `$1`, `$2`… (none of the store's statements has a `?` in a literal).
    static func numbered(_ sql: String) -> String {
        var result = ""
        var index = 0
        var inLiteral = false
        for character in sql {
            if character == "'" { inLiteral.toggle() }
            if character == "?" && !inLiteral {
                index += 1
                result += "$\(index)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .numeric: return .real(Double(try cell.decode(String.self)) ?? 0)
        default: return .text(try cell.decode(String.self))
        }
    }

    /// A unique violation (23505) becomes `SQLFailure.uniqueViolation`; anything else a
    /// `GamesError.database` with PostgreSQL's own message.
    static func translate(_ error: Error) -> Error {
        if let error = error as? GamesError { return error }
        if let error = error as? SQLFailure { return error }
        if let error = error as? PSQLError {
            if error.serverInfo?[.sqlState] == "23505" { return SQLFailure.uniqueViolation }
            if let message = error.serverInfo?[.message] { return GamesError.database(message) }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection: return GamesError.storeUnreachable
            default: return GamesError.database("PostgreSQL: \(error.code)")
            }
        }
        // The pool's own refusals (no connection could be made, the pool shut down): its error
        // type is not exported, so it is known by name.
        if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") { return GamesError.storeUnreachable }
        return GamesError.database(String(describing: error))
    }
}

/// Each of the store's queries is prepared once per connection, so PostgreSQL plans it once:
/// parsing and planning every statement again cost more than running it. postgres-nio prepares
/// statements by Swift type, and the store's statements are strings written for both stores,
/// so this one type carries the statement of the call in progress in a task-local value.
struct StoreStatement: PostgresPreparedStatement {
    struct Current: Sendable {
        var name: String
        var sql: String
    }
    @TaskLocal static var current = Current(name: "", sql: "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    var bindings: PostgresBindings
    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// The store's statements as PostgreSQL takes them (numbered placeholders) and their
/// server-side names: one per distinct text, the same on every connection, worked out once.
/// Statements other than queries and row changes (BEGIN, COMMIT, DDL) are not prepared.
final class StatementCache: @unchecked Sendable {
    static let shared = StatementCache()
    private let lock = NSLock()
    private var statements: [String: (text: String, name: String?)] = [:]

    func statement(for sql: String) -> (text: String, name: String?) {
        if let known = lock.withLock({ statements[sql] }) { return known }
        let verb = sql.drop { $0.isWhitespace }.prefix(6).uppercased()
        let prepared = ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(verb)
        let text = PostgresGamesDatabase.numbered(sql)
        return lock.withLock {
            if let known = statements[sql] { return known }
            let entry = (text: text, name: prepared ? "locker_\(statements.count + 1)" : nil)
            statements[sql] = entry
            return entry
        }
    }
}

/// The parts of a `postgres://` address.
struct PostgresURL {
    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    var requireTLS: Bool

    init?(_ text: String, environment: [String: String]) {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else { return nil }
        self.host = host
        port = components.port ?? 5432
        user = components.user ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        password = components.password ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        requireTLS = ["require", "verify-ca", "verify-full"].contains(mode)
    }
}
