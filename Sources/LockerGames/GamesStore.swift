import LockerKit
import CCrypt
import FoundationEssentials
import GRDB

/// The shared games database (SQLite through GRDB, WAL, busy timeout): accounts, sessions,
/// login attempts, grounds, games and bookings. Several Locker processes, of one user or of
/// several users of one host, may use one file at the same time. Every booking change runs in a
/// `BEGIN IMMEDIATE` transaction that counts the seats again, so racing bookers queue instead
/// of failing and a game is never overbooked.
public final class GamesStore: @unchecked Sendable {
    public let path: String
    let pool: DatabasePool

    /// Failed logins before an account is locked, and for how long.
    public static let maximumFailures = 5
    public static let lockSeconds = 15 * 60.0

    /// Opens (creating when missing) and migrates the database. Refuses a database written by a
    /// newer Locker, and one that is not a Locker games database.
    public init(path: String, busySeconds: Double = 10) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busySeconds)
        configuration.foreignKeysEnabled = true
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = GamesStore.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw GamesError.newerSchema }
            try migrator.migrate(pool)
        } catch let error as GamesError {
            throw error
        } catch let error as DatabaseError {
            throw GamesError.database(GamesStore.describe(error))
        }
    }

    static func describe(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "the database is locked by another program"
        case .SQLITE_NOTADB: return "the file is not a database"
        case .SQLITE_CORRUPT: return "the database is damaged"
        case .SQLITE_READONLY: return "the database is read-only"
        case .SQLITE_CANTOPEN: return "the database cannot be opened"
        default: return error.message ?? "\(error.resultCode)"
        }
    }

    /// Runs `body` and turns SQLite errors into `GamesError.database`.
    func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError { throw GamesError.database(GamesStore.describe(error)) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                t.column("passwordHash", .text).notNull()
                t.column("createdAt", .double).notNull()
            }
            try db.create(table: "session") { t in
                t.primaryKey("tokenHash", .text)
                t.column("userId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("createdAt", .double).notNull()
            }
            try db.create(table: "loginAttempt") { t in
                t.primaryKey("userId", .integer).references("user", onDelete: .cascade)
                t.column("failures", .integer).notNull()
                t.column("lockedUntil", .double)
            }
            try db.create(table: "ground") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("suburb", .text).notNull()
                t.column("postcode", .text).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("approximate", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "game") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("groundId", .text).notNull().references("ground")
                t.column("organiserId", .integer).notNull().references("user")
                t.column("startsAt", .double).notNull()
                t.column("players", .integer).notNull()
                t.column("capacity", .integer).notNull()
                t.column("minimum", .integer)
                t.column("note", .text)
                t.column("status", .text).notNull()
                t.column("cancelReason", .text)
                t.column("createdAt", .double).notNull()
            }
            try db.create(table: "booking") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("gameId", .integer).notNull().references("game", onDelete: .cascade)
                t.column("userId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("status", .text).notNull()
                t.column("updatedAt", .double).notNull()
                t.uniqueKey(["gameId", "userId"])
            }
            try db.create(index: "booking_game", on: "booking", columns: ["gameId", "status"])
            try db.create(index: "game_start", on: "game", columns: ["startsAt"])
        }
        return migrator
    }
}

/// What went wrong in the games database, for messages in the interface language.
public enum GamesError: Error, Equatable {
    case database(String)
    case newerSchema
    case badUsername
    case badPassword
    case usernameTaken
    /// The same message for an unknown user and a wrong password.
    case wrongCredentials
    case locked(until: Double)
    case notLoggedIn
    case unknownGround(String)
    case unknownGame(Int64)
    case inThePast
    case badPlayers
    case badCapacity
    case badMinimum
    case gameCancelled
    case gameStarted
    case notOrganiser
    case organiserCannotBook
    case notBooked
    case badPostcode(String)
    case noSuchPostcode(String)

    public func message(_ l: Localizer) -> String {
        switch self {
        case .database(let reason): return l.t("The games database cannot be used: {reason}.", ["reason": reason])
        case .newerSchema: return l.t("The games database was written by a newer Locker; update Locker to use it. Nothing was changed.")
        case .badUsername: return l.t("A username has 3 to 32 characters: letters, digits, dot, underscore or hyphen.")
        case .badPassword: return l.t("A password needs at least 8 characters.")
        case .usernameTaken: return l.t("That username is taken.")
        case .wrongCredentials: return l.t("Wrong username or password.")
        case .locked(let until):
            return l.t("Too many failed logins: this account refuses logins until {time}.", ["time": WorkoutText.dateTime(until)])
        case .notLoggedIn: return l.t("You are not logged in. Log in with: locker login NAME --password-stdin")
        case .unknownGround(let id): return l.t("There is no ground “{id}”.", ["id": TerminalText.inert(id)])
        case .unknownGame(let id): return l.t("There is no game {id}.", ["id": String(id)])
        case .inThePast: return l.t("A game cannot start in the past.")
        case .badPlayers: return l.t("Players already there must be at least 1 (you count) and not more than the capacity.")
        case .badCapacity: return l.t("The capacity must be between 2 and 50 players.")
        case .badMinimum: return l.t("The minimum must be between 2 and the capacity.")
        case .gameCancelled: return l.t("This game was cancelled.")
        case .gameStarted: return l.t("This game has already started.")
        case .notOrganiser: return l.t("Only the organiser can cancel the game.")
        case .organiserCannotBook: return l.t("You organise this game; your place is already counted.")
        case .notBooked: return l.t("You have no booking for this game.")
        case .badPostcode(let text): return l.t("“{postcode}” is not a postcode: write 4 digits, like 3977.", ["postcode": TerminalText.inert(text)])
        case .noSuchPostcode(let text): return l.t("No Casey suburb has the postcode {postcode}.", ["postcode": TerminalText.inert(text)])
        }
    }
}
