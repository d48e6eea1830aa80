import LockerKit

/// A value bound to, or read from, a statement of the games store.
public enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// Swift values that bind as statement arguments.
public protocol SQLBindable: Sendable { var sqlValue: SQLValue { get } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Optional: SQLBindable where Wrapped: SQLBindable { public var sqlValue: SQLValue { self?.sqlValue ?? .null } }

/// One result row, by column name.
public struct SQLRow: Sendable {
    public var values: [String: SQLValue]

    public init(_ values: [String: SQLValue]) { self.values = values }

    public func int(_ column: String) -> Int64? {
        switch values[column] {
        case .integer(let v): return v
        case .real(let v): return v.isFinite && abs(v) < 9e18 ? Int64(v) : nil
        case .text(let t): return Int64(t)
        default: return nil
        }
    }

    public func double(_ column: String) -> Double? {
        switch values[column] {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        case .text(let t): return Double(t)
        default: return nil
        }
    }

    public func string(_ column: String) -> String? {
        switch values[column] {
        case .text(let t): return t
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        default: return nil
        }
    }

    /// A column that must be there; a missing one means the schema is not Locker's.
    func required<T>(_ value: T?, _ column: String) throws -> T {
        guard let value else { throw GamesError.database("column \(column) is missing") }
        return value
    }
    public func int(required column: String) throws -> Int64 { try required(int(column), column) }
    public func double(required column: String) throws -> Double { try required(double(column), column) }
    public func string(required column: String) throws -> String { try required(string(column), column) }
}

/// A connection inside a transaction. Statements are written once for both stores: `?`
/// placeholders, `INSERT … RETURNING`, `ON CONFLICT … DO UPDATE`, integers for booleans.
public protocol SQLSession: Sendable {
    /// Runs a statement and returns its rows (none for most writes).
    @discardableResult
    func query(_ sql: String, _ arguments: [SQLBindable]) async throws -> [SQLRow]
    /// Locks the row of `table` with this id until the transaction ends (PostgreSQL `FOR
    /// UPDATE`); SQLite needs nothing, its `BEGIN IMMEDIATE` already holds the whole file.
    func lockRow(_ table: String, id: Int64) async throws
    /// Ends a sub-select that locks the row it reads until the transaction ends: ` FOR UPDATE`
    /// on PostgreSQL, nothing on SQLite.
    var forUpdate: String { get }
    /// Tells the servers listening on this store that something changed (PostgreSQL `NOTIFY`,
    /// sent after the transaction commits).
    func notifyChange(_ sequence: Int64) async throws
}

/// A change for the live feed's table, recorded with the statement that makes it.
public struct RecordedChange: Sendable {
    public var kind: GamesChange.Kind
    public var game: Int64
    public var ground: String
    public var at: Double
}

extension SQLSession {
    /// Runs a statement that changes a game and adds `change` to the live feed (then signals
    /// listeners after the commit). Stores that can do both in one round trip override this
    /// (PostgreSQL, with a data-modifying `WITH`).
    @discardableResult
    public func query(_ sql: String, _ arguments: [SQLBindable], recording change: RecordedChange) async throws -> [SQLRow] {
        let rows = try await query(sql, arguments)
        try await recordChange(change)
        return rows
    }

    /// Appends `change` to the live feed's table and signals listeners after the commit.
    public func recordChange(_ change: RecordedChange) async throws {
        let row = try await one("INSERT INTO gamesChange (at, kind, gameId, groundId) VALUES (?, ?, ?, ?) RETURNING sequence",
                                [change.at, change.kind.rawValue, change.game, change.ground])
        try await notifyChange(row?.int("sequence") ?? 0)
    }

    public func one(_ sql: String, _ arguments: [SQLBindable]) async throws -> SQLRow? {
        try await query(sql, arguments).first
    }
}

/// Which store a database is.
public enum GamesStoreKind: String, Sendable { case sqlite, postgres }

/// A games store: a SQLite file through GRDB or a PostgreSQL database through postgres-nio.
public protocol GamesDatabase: Sendable {
    var kind: GamesStoreKind { get }
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// A unique-key violation inside surfaces as `SQLFailure.uniqueViolation`.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T
    /// Runs `body`, which only reads, without waiting for writers (a list answers while someone
    /// books). On SQLite each statement reads the last committed state; on PostgreSQL it is a
    /// transaction like any other, whose readers never wait.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T
    /// Wake-ups when another process may have changed the store (PostgreSQL `LISTEN`; SQLite
    /// has none, its readers poll). Ends when the database closes.
    func changeSignals() -> AsyncStream<Void>
    /// Closes connections; waits for those in use.
    func close() async
    /// Store connections lent to a transaction now and how many may be open (nil: no pool).
    var connectionsInUse: (inUse: Int, limit: Int)? { get }
}

extension GamesDatabase {
    /// Store connections lent to a transaction now and how many may be open, for a store with
    /// a pool (PostgreSQL); nil otherwise.
    public var connectionsInUse: (inUse: Int, limit: Int)? { nil }

    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T {
        try await transaction(body)
    }
}

/// Store failures the service reacts to (others become `GamesError.database`).
public enum SQLFailure: Error, Equatable {
    case uniqueViolation
}

/// The change feed's NOTIFY channel on PostgreSQL.
public let gamesChangeChannel = "locker_games_changes"

/// When the request being answered must be answered by: the server sets it for each request
/// (`DeadlineMiddleware`), and a store that can stall (PostgreSQL) gives up on its work by
/// then, however many transactions the request makes. Nil outside a request (commands).
public enum RequestDeadline {
    @TaskLocal public static var current: ContinuousClock.Instant?
}
