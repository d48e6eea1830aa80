import LockerKit
import FoundationEssentials
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The games store in a SQLite file through GRDB: WAL, a busy timeout, every transaction
/// `BEGIN IMMEDIATE` so racing writers (threads here, or other processes on the same file)
/// queue instead of failing, and the schema migrated by GRDB's migrator.
public final class SQLiteGamesDatabase: GamesDatabase, @unchecked Sendable {
    public let kind = GamesStoreKind.sqlite
    public let path: String
    let pool: DatabasePool
    /// One transaction at a time on the writer connection of this process.
    private let gate = AsyncGate()

    /// Opens (creating when missing) and migrates the file. Refuses a database written by a newer
    /// Locker, and a file that is not a Locker games database, leaving it untouched.
    public init(path: String, busySeconds: Double = 10) throws {
        self.path = path
        try SQLiteGamesDatabase.claim(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busySeconds)
        configuration.foreignKeysEnabled = true
        // A transaction here spans several awaited statements (see `transaction`); the gate makes
        // sure nothing else runs on the writer connection meanwhile.
        configuration.allowsUnsafeTransactions = true
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = GamesSchema.sqliteMigrator
            // Reading first: a store that needs nothing opens without waiting for its writers.
            let (superseded, complete) = try pool.read { (try migrator.hasBeenSuperseded($0),
                                                          try migrator.hasCompletedMigrations($0)) }
            if superseded { throw GamesError.newerSchema }
            if !complete { try migrator.migrate(pool) }
        } catch let error as GamesError {
            throw error
        } catch let error as DatabaseError {
            throw GamesError.database(SQLiteGamesDatabase.describe(error))
        }
    }

    /// A games file is one person's: created readable by its owner only (SQLite gives its `-wal`
    /// and `-shm` files the same mode), and refused untouched when another user owns it, before
    /// anything could leave files of ours beside it. Players on several accounts or machines
    /// share a games server instead.
    static func claim(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_uid == geteuid() else { throw GamesError.sharedLocalStore(path: path) }
        } else {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
        }
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T {
        await gate.acquire()
        let session = Session(pool: pool)
        do {
            try session.execute("BEGIN IMMEDIATE")
            do {
                let result = try await body(session)
                try session.execute("COMMIT")
                await gate.release()
                return result
            } catch {
                try? session.execute("ROLLBACK")
                throw error
            }
        } catch {
            await gate.release()
            throw error
        }
    }

    /// Reads on the pool's reader connections: WAL readers never wait for the writer, nor for
    /// this process's transaction gate.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T {
        try await body(Session(pool: pool, reading: true))
    }

    /// SQLite has no notifications: readers poll the change table.
    public func changeSignals() -> AsyncStream<Void> {
        AsyncStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 300_000_000)
                    continuation.yield()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func close() async {
        await gate.acquire()
        try? pool.close()
        await gate.release()
    }

    struct Session: SQLSession, @unchecked Sendable {
        let pool: DatabasePool
        var reading = false

        func execute(_ sql: String) throws {
            try SQLiteGamesDatabase.guarded { try pool.writeWithoutTransaction { db in try db.execute(sql: sql) } }
        }

        func query(_ sql: String, _ arguments: [SQLBindable]) async throws -> [SQLRow] {
            let values = arguments.map(\.sqlValue)
            return try SQLiteGamesDatabase.guarded {
                let fetch = { (db: Database) in try SQLiteGamesDatabase.rows(db, sql, values) }
                return try reading ? pool.read(fetch) : pool.writeWithoutTransaction(fetch)
            }
        }

        func lockRow(_ table: String, id: Int64) async throws {}
        var forUpdate: String { "" }
        func notifyChange(_ sequence: Int64) async throws {}
    }

    /// The rows of a statement, by lower-cased column name.
    static func rows(_ db: Database, _ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))).map { row in
            var values: [String: SQLValue] = [:]
            for (column, value) in row {
                switch value.storage {
                case .int64(let v): values[column.lowercased()] = .integer(v)
                case .double(let v): values[column.lowercased()] = .real(v)
                case .string(let v): values[column.lowercased()] = .text(v)
                case .blob(let v): values[column.lowercased()] = .text(String(decoding: v, as: UTF8.self))
                case .null: values[column.lowercased()] = .null
                }
            }
            return SQLRow(values)
        }
    }

    /// Turns SQLite errors into `SQLFailure.uniqueViolation` or `GamesError.database`.
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                throw SQLFailure.uniqueViolation
            }
            throw GamesError.database(describe(error))
        }
    }

    static func describe(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "the database is locked by another program"
        case .SQLITE_NOTADB: return "the file is not a database"
        case .SQLITE_CORRUPT: return "the database is damaged"
        case .SQLITE_READONLY: return "the database is read-only"
        case .SQLITE_CANTOPEN: return "the database cannot be opened"
        case .SQLITE_FULL: return "the disk is full"
        default: return error.message ?? "\(error.resultCode)"
        }
    }
}

/// A first-come, first-served async lock.
actor AsyncGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !busy { busy = true; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
