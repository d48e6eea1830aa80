import LockerKit
import CCrypt
import FoundationEssentials
import GRDB

/// A Locker games account.
public struct GamesUser: Equatable, Sendable {
    public var id: Int64
    public var name: String
}

extension GamesStore {
    /// 3–32 letters, digits, `.`, `_` or `-`.
    public static func isValidUsername(_ name: String) -> Bool {
        (3...32).contains(name.count) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
    }

    /// Creates an account; the password is stored as a yescrypt hash only.
    @discardableResult
    public func createAccount(name: String, password: String, now: Double) throws -> GamesUser {
        guard GamesStore.isValidUsername(name) else { throw GamesError.badUsername }
        guard password.count >= 8 else { throw GamesError.badPassword }
        let hash = try GamesStore.hashPassword(password)
        return try guarded {
            try pool.write { db in
                if try Row.fetchOne(db, sql: "SELECT id FROM user WHERE name = ?", arguments: [name]) != nil { throw GamesError.usernameTaken }
                try db.execute(sql: "INSERT INTO user (name, passwordHash, createdAt) VALUES (?, ?, ?)", arguments: [name, hash, now])
                return GamesUser(id: db.lastInsertedRowID, name: name)
            }
        }
    }

    /// Checks a password and opens a session; returns the user and the session token (to keep
    /// in the 0600 session file). After five failures in a row the account refuses every attempt
    /// for 15 minutes (kept in the database, so across processes). A wrong user and a wrong
    /// password get the same error.
    public func login(name: String, password: String, now: Double) throws -> (GamesUser, String) {
        let stored: (Int64, String, String)? = try guarded {
            try pool.read { db in
                try Row.fetchOne(db, sql: "SELECT id, name, passwordHash FROM user WHERE name = ?", arguments: [name])
                    .map { ($0["id"], $0["name"], $0["passwordHash"]) }
            }
        }
        guard let (id, canonical, hash) = stored else {
            // Spend the same time as a real check, so timing does not tell which names exist.
            _ = GamesStore.verify(password, against: "$y$j9T$AAAAAAAAAAAAAAAAAAAAA.$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
            throw GamesError.wrongCredentials
        }
        return try guarded {
            try pool.writeWithoutTransaction { db in
                var outcome: Result<(GamesUser, String), GamesError> = .failure(.wrongCredentials)
                try db.inTransaction(.immediate) {
                    let attempt = try Row.fetchOne(db, sql: "SELECT failures, lockedUntil FROM loginAttempt WHERE userId = ?", arguments: [id])
                    let lockedUntil: Double? = attempt?["lockedUntil"]
                    if let lockedUntil, lockedUntil > now {
                        outcome = .failure(.locked(until: lockedUntil))
                        return .commit
                    }
                    guard GamesStore.verify(password, against: hash) else {
                        let failures = (lockedUntil != nil ? 0 : (attempt?["failures"] as Int? ?? 0)) + 1
                        let lock: Double? = failures >= GamesStore.maximumFailures ? now + GamesStore.lockSeconds : nil
                        try db.execute(sql: """
                            INSERT INTO loginAttempt (userId, failures, lockedUntil) VALUES (?, ?, ?)
                            ON CONFLICT(userId) DO UPDATE SET failures = excluded.failures, lockedUntil = excluded.lockedUntil
                            """, arguments: [id, lock == nil ? failures : 0, lock])
                        outcome = .failure(lock.map { .locked(until: $0) } ?? .wrongCredentials)
                        return .commit
                    }
                    try db.execute(sql: "DELETE FROM loginAttempt WHERE userId = ?", arguments: [id])
                    let token = try GamesStore.randomToken()
                    try db.execute(sql: "INSERT INTO session (tokenHash, userId, createdAt) VALUES (?, ?, ?)",
                                   arguments: [GamesStore.tokenHash(token), id, now])
                    outcome = .success((GamesUser(id: id, name: canonical), token))
                    return .commit
                }
                return try outcome.get()
            }
        }
    }

    /// The user of a session token, or nil when the session is unknown (logged out elsewhere).
    public func user(forToken token: String) throws -> GamesUser? {
        try guarded {
            try pool.read { db in
                try Row.fetchOne(db, sql: "SELECT user.id, user.name FROM session JOIN user ON user.id = session.userId WHERE tokenHash = ?",
                                 arguments: [GamesStore.tokenHash(token)]).map { GamesUser(id: $0["id"], name: $0["name"]) }
            }
        }
    }

    public func logout(token: String) throws {
        try guarded {
            try pool.write { db in try db.execute(sql: "DELETE FROM session WHERE tokenHash = ?", arguments: [GamesStore.tokenHash(token)]) }
        }
    }

    static func hashPassword(_ password: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        guard lk_password_hash(password, &buffer, buffer.count) == 0 else { throw GamesError.database("libcrypt could not hash the password") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func verify(_ password: String, against hash: String) -> Bool {
        lk_password_verify(password, hash) == 1
    }

    /// 128 random bits as 32 hex digits.
    static func randomToken() throws -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard lk_random_bytes(&bytes, bytes.count) == 0 else { throw GamesError.database("no random numbers from the kernel") }
        return SHA256.hex(bytes)
    }

    static func tokenHash(_ token: String) -> String { SHA256.hex(SHA256.hash(Array(token.utf8))) }
}

/// The session file of one data directory (0600): the token of the logged-in user.
public struct GamesSessionFile: Sendable {
    public let url: URL

    public init(directory: URL) {
        url = directory.appendingPathComponent("games-session")
    }

    public func read() -> String? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let token = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        return token.count == 32 && token.allSatisfy(\.isHexDigit) ? token : nil
    }

    public func write(_ token: String) throws {
        try AtomicFile.write(Data((token + "\n").utf8), to: url, permissions: 0o600)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
