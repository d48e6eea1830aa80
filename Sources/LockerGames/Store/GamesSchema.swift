import LockerKit
import GRDB

/// The games store's tables, the same on both stores (schema version 4):
///
/// - `account` (id, name, nameKey = lower(name), unique; passwordHash: yescrypt; createdAt;
///   role 'player'|'admin')
/// - `session` (tokenHash = SHA-256 of the bearer token, accountId, createdAt, expiresAt)
/// - `loginThrottle` (key: "name:" + nameKey or "source:" + address, failures, lastFailureAt):
///   failed log-ins, for growing delays; kept for names that have no account too
/// - `ground` (id, name, suburb, postcode, latitude, longitude, approximate 0/1, timeZone IANA)
/// - `game` (id, groundId, organiserId, startsAt, players, capacity, minimum, note, status
///   'open'|'cancelled', cancelReason, createdAt, updatedAt)
/// - `booking` (id, gameId, accountId, status 'going'|'waitlisted'|'cancelled', bookedAt,
///   queueAt: the waitlist order, updatedAt), one per game and account
/// - `idempotency` (accountId, key, operation, gameId, createdAt): retried creations and bookings
/// - `gamesChange` (sequence, at, kind, gameId, groundId): the live feed
/// - `loginDevice` (tokenHash = SHA-256 of a device token, nameKey, createdAt, lastUsedAt): the
///   devices each name logged in from, which the name-wide count of failed log-ins does not hold
///
/// Times are seconds since 1970 (UTC). SQLite files of schema 1 (Locker before the server) and
/// 2 are migrated in place, and so are PostgreSQL databases of schema 2 and 3.
public enum GamesSchema {
    public static let version: Int64 = 4

    /// Schema 3 → 4, the same on both stores: log-in devices.
    static let version4 = [
        """
        CREATE TABLE loginDevice (tokenHash TEXT NOT NULL PRIMARY KEY, nameKey TEXT NOT NULL, createdAt DOUBLE PRECISION NOT NULL,
                                  lastUsedAt DOUBLE PRECISION NOT NULL)
        """,
        "CREATE INDEX loginDevice_used ON loginDevice(lastUsedAt)",
    ]

    /// Schema 2 → 3, the same statements on both stores: ground time zones, account roles,
    /// growing log-in delays instead of a lock, an index for the game-creation limit.
    static let version3 = [
        "ALTER TABLE ground ADD COLUMN timeZone TEXT NOT NULL DEFAULT 'Australia/Melbourne'",
        "ALTER TABLE account ADD COLUMN role TEXT NOT NULL DEFAULT 'player'",
        "DROP TABLE loginAttempt",
        "CREATE TABLE loginThrottle (key TEXT NOT NULL PRIMARY KEY, failures BIGINT NOT NULL, lastFailureAt DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX game_organiser ON game(organiserId, createdAt)",
    ]

    static var sqliteMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE user (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE ON CONFLICT ABORT COLLATE NOCASE,
                                   passwordHash TEXT NOT NULL, createdAt DOUBLE NOT NULL);
                CREATE TABLE session (tokenHash TEXT NOT NULL PRIMARY KEY, userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                                      createdAt DOUBLE NOT NULL);
                CREATE TABLE loginAttempt (userId INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE, failures INTEGER NOT NULL,
                                           lockedUntil DOUBLE);
                CREATE TABLE ground (id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, suburb TEXT NOT NULL, postcode TEXT NOT NULL,
                                     latitude DOUBLE NOT NULL, longitude DOUBLE NOT NULL, approximate BOOLEAN NOT NULL DEFAULT 0);
                CREATE TABLE game (id INTEGER PRIMARY KEY AUTOINCREMENT, groundId TEXT NOT NULL REFERENCES ground(id),
                                   organiserId INTEGER NOT NULL REFERENCES user(id), startsAt DOUBLE NOT NULL, players INTEGER NOT NULL,
                                   capacity INTEGER NOT NULL, minimum INTEGER, note TEXT, status TEXT NOT NULL, cancelReason TEXT,
                                   createdAt DOUBLE NOT NULL);
                CREATE TABLE booking (id INTEGER PRIMARY KEY AUTOINCREMENT, gameId INTEGER NOT NULL REFERENCES game(id) ON DELETE CASCADE,
                                      userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE, status TEXT NOT NULL,
                                      updatedAt DOUBLE NOT NULL, UNIQUE (gameId, userId));
                CREATE INDEX booking_game ON booking(gameId, status);
                CREATE INDEX game_start ON game(startsAt);
                """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE user RENAME TO account;
                ALTER TABLE session RENAME COLUMN userId TO accountId;
                ALTER TABLE loginAttempt RENAME COLUMN userId TO accountId;
                ALTER TABLE booking RENAME COLUMN userId TO accountId;
                ALTER TABLE account ADD COLUMN nameKey TEXT;
                UPDATE account SET nameKey = lower(name);
                CREATE UNIQUE INDEX account_nameKey ON account(nameKey);
                ALTER TABLE session ADD COLUMN expiresAt DOUBLE NOT NULL DEFAULT 0;
                UPDATE session SET expiresAt = createdAt + \(GamesLimits.tokenSeconds);
                ALTER TABLE booking ADD COLUMN bookedAt DOUBLE NOT NULL DEFAULT 0;
                ALTER TABLE booking ADD COLUMN queueAt DOUBLE NOT NULL DEFAULT 0;
                UPDATE booking SET bookedAt = updatedAt, queueAt = updatedAt;
                ALTER TABLE game ADD COLUMN updatedAt DOUBLE NOT NULL DEFAULT 0;
                UPDATE game SET updatedAt = createdAt;
                CREATE INDEX game_ground ON game(groundId, startsAt);
                CREATE INDEX booking_account ON booking(accountId, status);
                CREATE TABLE idempotency (accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE, key TEXT NOT NULL,
                                          operation TEXT NOT NULL, gameId INTEGER NOT NULL, createdAt DOUBLE NOT NULL,
                                          PRIMARY KEY (accountId, key));
                CREATE TABLE gamesChange (sequence INTEGER PRIMARY KEY AUTOINCREMENT, at DOUBLE NOT NULL, kind TEXT NOT NULL,
                                          gameId INTEGER NOT NULL, groundId TEXT NOT NULL);
                """)
        }
        migrator.registerMigration("v3") { db in
            for statement in version3 { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v4") { db in
            for statement in version4 { try db.execute(sql: statement) }
        }
        return migrator
    }

    /// The whole schema 2 on PostgreSQL, created in one transaction (then `version3` follows).
    static let postgres = """
        CREATE TABLE account (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, nameKey TEXT NOT NULL UNIQUE,
                              passwordHash TEXT NOT NULL, createdAt DOUBLE PRECISION NOT NULL);
        CREATE TABLE session (tokenHash TEXT PRIMARY KEY, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                              createdAt DOUBLE PRECISION NOT NULL, expiresAt DOUBLE PRECISION NOT NULL);
        CREATE TABLE loginAttempt (accountId BIGINT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE, failures BIGINT NOT NULL,
                                   lockedUntil DOUBLE PRECISION);
        CREATE TABLE ground (id TEXT PRIMARY KEY, name TEXT NOT NULL, suburb TEXT NOT NULL, postcode TEXT NOT NULL,
                             latitude DOUBLE PRECISION NOT NULL, longitude DOUBLE PRECISION NOT NULL, approximate BIGINT NOT NULL DEFAULT 0);
        CREATE TABLE game (id BIGSERIAL PRIMARY KEY, groundId TEXT NOT NULL REFERENCES ground(id), organiserId BIGINT NOT NULL REFERENCES account(id),
                           startsAt DOUBLE PRECISION NOT NULL, players BIGINT NOT NULL, capacity BIGINT NOT NULL, minimum BIGINT, note TEXT,
                           status TEXT NOT NULL, cancelReason TEXT, createdAt DOUBLE PRECISION NOT NULL, updatedAt DOUBLE PRECISION NOT NULL);
        CREATE TABLE booking (id BIGSERIAL PRIMARY KEY, gameId BIGINT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
                              accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, status TEXT NOT NULL,
                              updatedAt DOUBLE PRECISION NOT NULL, bookedAt DOUBLE PRECISION NOT NULL, queueAt DOUBLE PRECISION NOT NULL,
                              UNIQUE (gameId, accountId));
        CREATE INDEX booking_game ON booking(gameId, status);
        CREATE INDEX booking_account ON booking(accountId, status);
        CREATE INDEX game_start ON game(startsAt);
        CREATE INDEX game_ground ON game(groundId, startsAt);
        CREATE TABLE idempotency (accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, key TEXT NOT NULL,
                                  operation TEXT NOT NULL, gameId BIGINT NOT NULL, createdAt DOUBLE PRECISION NOT NULL,
                                  PRIMARY KEY (accountId, key));
        CREATE TABLE gamesChange (sequence BIGSERIAL PRIMARY KEY, at DOUBLE PRECISION NOT NULL, kind TEXT NOT NULL,
                                  gameId BIGINT NOT NULL, groundId TEXT NOT NULL);
        """
}
