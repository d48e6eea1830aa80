import LockerKit
import Foundation
import GRDB

/// Backups of a games store, taken while the server runs, and restores from them.
///
/// A backup is a SQLite file of the store's schema with one more table, `lockerBackup` (format,
/// schema version, when, from which store), whichever store it came from: a SQLite store is
/// copied by SQLite's online backup, a PostgreSQL store is read in one read-only, repeatable-read
/// transaction (a consistent snapshot that holds up no writer). It is written beside its name
/// and renamed into place once complete, so a file of that name is always a whole backup. A
/// restore goes into a store holding no accounts or games, or replaces one when told to, in one
/// transaction: it lands whole or not at all.
public enum GamesBackup {
    /// The backup format this Locker writes and reads.
    public static let format: Int64 = 1

    /// The store's tables, each after the tables it refers to.
    static let tables = ["account", "ground", "game", "booking", "session", "loginThrottle", "loginDevice", "idempotency", "gamesChange"]

    /// What a backup or restore carried.
    public struct Summary: Sendable, Equatable {
        public var accounts = 0
        public var games = 0
        public var bookings = 0
    }

    /// Why a backup or restore did nothing.
    public enum Problem: Error, Equatable, Sendable {
        /// The file is not a Locker games backup (not SQLite, or no `lockerBackup` table).
        case notABackup(path: String)
        /// The backup was written by a newer Locker.
        case newerBackup(path: String)
        /// The backup cannot be written there: the system's `errno`, or the store's words.
        case cannotWrite(path: String, code: Int32)
        case storeFailed(path: String, reason: String)
        /// The backup would be written over the store it is taken of (or its journal).
        case isTheStore(path: String)
        /// The backup file cannot be read, and why.
        case unreadable(path: String, reason: String)
        /// The store to restore into already holds accounts or games.
        case storeNotEmpty(accounts: Int, games: Int)

        public func message(_ l: Localizer) -> String {
            switch self {
            case .notABackup(let path):
                return l.t("{file} is not a Locker games backup: give a file written by locker-games backup.", ["file": path])
            case .newerBackup(let path):
                return l.t("{file} was written by a newer Locker: restore it with that version or a later one.", ["file": path])
            case .cannotWrite(let path, let code):
                return l.t("The backup cannot be written to {file}: {reason}. Choose a folder this user can write to.",
                           ["file": path, "reason": StorageError.reason(code, l)])
            case .storeFailed(let path, let reason):
                return l.t("The backup cannot be written to {file}: {reason}. Choose a folder this user can write to.", ["file": path, "reason": reason])
            case .isTheStore(let path):
                return l.t("{file} is the games store itself: write the backup to another file.", ["file": path])
            case .unreadable(let path, let reason):
                return l.t("The backup {file} cannot be read: {reason}.", ["file": path, "reason": reason])
            case .storeNotEmpty(let accounts, let games):
                let held = l.n("{count} account", "{count} accounts", count: accounts) + ", " + l.n("{count} game", "{count} games", count: games)
                return l.t("The store already holds {held}: restore into an empty store, or add --replace to replace everything in it.", ["held": held])
            }
        }
    }

    // MARK: Backup

    /// Writes a backup of `database` to `path`, replacing a file there only once the new backup
    /// is whole.
    @discardableResult
    public static func backup(_ database: GamesDatabase, to path: String) async throws -> Summary {
        let partial = path + ".partial"
        var target = stat()
        if stat(path, &target) == 0 {
            // Only a regular file is replaced: never a device, a folder or a pipe.
            guard (target.st_mode & S_IFMT) == S_IFREG else {
                throw Problem.cannotWrite(path: path, code: EEXIST)
            }
            if let sqlite = database as? SQLiteGamesDatabase {
                for file in [sqlite.path, sqlite.path + "-wal", sqlite.path + "-shm"] {
                    var info = stat()
                    if stat(file, &info) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino { throw Problem.isTheStore(path: path) }
                }
            }
        }
        unlink(partial)
        let descriptor = open(partial, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Problem.cannotWrite(path: path, code: errno) }
        close(descriptor)
        do {
            let destination = try DatabaseQueue(path: partial)
            let store: String
            if let sqlite = database as? SQLiteGamesDatabase {
                try sqlite.pool.backup(to: destination)
                try await destination.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode=DELETE") }
                store = "sqlite"
            } else {
                let snapshot = try await database.transaction { session in
                    if database.kind == .postgres {
                        try await session.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", [])
                    }
                    var rows: [String: [SQLRow]] = [:]
                    for table in GamesBackup.tables { rows[table] = try await session.query("SELECT * FROM \(table)", []) }
                    return rows
                }
                try GamesSchema.sqliteMigrator.migrate(destination)
                try await destination.write { db in
                    for table in tables { try insert(snapshot[table] ?? [], into: table, db) }
                }
                store = database.kind.rawValue
            }
            let summary = try await destination.write { db -> Summary in
                try db.execute(sql: "CREATE TABLE lockerBackup (format INTEGER NOT NULL, schemaVersion INTEGER NOT NULL, takenAt DOUBLE NOT NULL, store TEXT NOT NULL)")
                try db.execute(sql: "INSERT INTO lockerBackup VALUES (?, ?, ?, ?)",
                               arguments: [format, GamesSchema.version, Date().timeIntervalSince1970, store])
                return try summarize(db)
            }
            try destination.close()
            try AtomicFile.replace(URL(fileURLWithPath: path), with: URL(fileURLWithPath: partial))
            return summary
        } catch {
            unlink(partial)
            if case StorageError.writeFailed(_, let code) = error { throw Problem.cannotWrite(path: path, code: code) }
            if let error = error as? DatabaseError { throw Problem.storeFailed(path: path, reason: SQLiteGamesDatabase.describe(error)) }
            throw error
        }
    }

    // MARK: Restore

    /// A backup read whole and checked, ready to restore.
    public struct Contents: Sendable {
        let rows: [String: [SQLRow]]
        public let summary: Summary
    }

    /// Writes a backup (`read(_:)`) into `database` in one transaction: into a store with no
    /// accounts and no games, or, with `replace`, instead of everything the store holds.
    @discardableResult
    public static func restore(_ contents: Contents, into database: GamesDatabase, replace: Bool) async throws -> Summary {
        let rows = contents.rows
        // The refusal is returned, not thrown: a store wraps what a transaction throws.
        let refusal = try await database.transaction { session -> Problem? in
            let accounts = try await session.one("SELECT count(*) AS n FROM account", [])?.int("n") ?? 0
            let games = try await session.one("SELECT count(*) AS n FROM game", [])?.int("n") ?? 0
            if (accounts > 0 || games > 0) && !replace { return Problem.storeNotEmpty(accounts: Int(accounts), games: Int(games)) }
            for table in tables.reversed() { try await session.query("DELETE FROM \(table)", []) }
            for table in tables { try await insert(rows[table] ?? [], into: table, session) }
            if database.kind == .postgres {
                for (table, column) in [("account", "id"), ("game", "id"), ("booking", "id"), ("gamesChange", "sequence")] {
                    try await session.query("SELECT setval(pg_get_serial_sequence('\(table.lowercased())', '\(column)'), "
                                            + "GREATEST((SELECT max(\(column)) FROM \(table)), 1))", [])
                }
            }
            return nil
        }
        if let refusal { throw refusal }
        return contents.summary
    }

    /// The backup's rows, table by table, from a private copy of the file (migrated there when
    /// an older Locker wrote it): the backup itself is never opened for writing.
    public static func read(_ path: String) throws -> Contents {
        var info = stat()
        guard stat(path, &info) == 0, access(path, R_OK) == 0 else {
            throw Problem.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Problem.unreadable(path: path, reason: String(cString: strerror(EINVAL))) }
        guard let data = FileManager.default.contents(atPath: path), data.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw Problem.notABackup(path: path)
        }
        let copy = NSTemporaryDirectory() + "locker-restore-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        defer { unlink(copy); unlink(copy + "-journal") }
        guard FileManager.default.createFile(atPath: copy, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw Problem.notABackup(path: path)
        }
        do {
            let queue = try DatabaseQueue(path: copy)
            defer { try? queue.close() }
            // Read as values, never decoded by force: a hand-edited header is not a backup.
            let header = try queue.read { db in
                try SQLiteGamesDatabase.rows(db, "SELECT format, schemaVersion FROM lockerBackup", [])
            }
            guard header.count == 1, case .integer(let format)? = header[0].values["format"],
                  case .integer(let version)? = header[0].values["schemaversion"] else {
                throw Problem.notABackup(path: path)
            }
            if format > Self.format || version > GamesSchema.version { throw Problem.newerBackup(path: path) }
            try GamesSchema.sqliteMigrator.migrate(queue)
            return try queue.read { db in
                var rows: [String: [SQLRow]] = [:]
                for table in tables { rows[table] = try SQLiteGamesDatabase.rows(db, "SELECT * FROM \(table)", []) }
                return Contents(rows: rows, summary: try summarize(db))
            }
        } catch let error as Problem {
            throw error
        } catch {
            throw Problem.notABackup(path: path)
        }
    }

    // MARK: Rows

    static func summarize(_ db: Database) throws -> Summary {
        Summary(accounts: try Int.fetchOne(db, sql: "SELECT count(*) FROM account") ?? 0,
                games: try Int.fetchOne(db, sql: "SELECT count(*) FROM game") ?? 0,
                bookings: try Int.fetchOne(db, sql: "SELECT count(*) FROM booking WHERE status <> 'cancelled'") ?? 0)
    }

    /// Rows go in by the hundred: one statement per batch, not per row.
    static let batch = 100

    static func statements(_ rows: [SQLRow], into table: String) -> [(String, [SQLValue])] {
        guard let columns = rows.first.map({ $0.values.keys.sorted() }) else { return [] }
        var statements: [(String, [SQLValue])] = []
        var start = 0
        while start < rows.count {
            let slice = rows[start..<min(rows.count, start + batch)]
            let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: placeholders, count: slice.count).joined(separator: ", ")
            statements.append((sql, slice.flatMap { row in columns.map { row.values[$0] ?? .null } }))
            start += batch
        }
        return statements
    }

    static func insert(_ rows: [SQLRow], into table: String, _ db: Database) throws {
        for (sql, values) in statements(rows, into: table) {
            try db.execute(sql: sql, arguments: StatementArguments(values.map(\.databaseValue)))
        }
    }

    static func insert(_ rows: [SQLRow], into table: String, _ session: SQLSession) async throws {
        for (sql, values) in statements(rows, into: table) { try await session.query(sql, values) }
    }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }

    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let v): return v.databaseValue
        case .real(let v): return v.databaseValue
        case .text(let v): return v.databaseValue
        case .null: return .null
        }
    }
}
