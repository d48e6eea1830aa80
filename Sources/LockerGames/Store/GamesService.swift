import LockerKit
import CCrypt
import Foundation

/// The games API over a store: every rule lives here once, so SQLite and PostgreSQL behave the
/// same. The server answers requests with it, and the commands use it directly on a local file.
public final class GamesService: GamesAPI, @unchecked Sendable {
    public let database: GamesDatabase
    let suburbs: [Suburb]
    let now: @Sendable () -> Double
    private let feed: ChangeFeed

    public init(database: GamesDatabase, suburbs: [Suburb], now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.database = database
        self.suburbs = suburbs
        self.now = now
        feed = ChangeFeed(database: database)
    }

    // MARK: Accounts

    public func signUp(_ credentials: Credentials) async throws -> SessionToken {
        guard GamesLimits.isValidUsername(credentials.name) else { throw GamesError.badUsername }
        guard GamesLimits.isValidPassword(credentials.password) else { throw GamesError.badPassword }
        let hash = try GamesCrypto.hashPassword(credentials.password)
        let time = now()
        do {
            return try await database.transaction { db in
                let row = try await db.one("INSERT INTO account (name, nameKey, passwordHash, createdAt) VALUES (?, ?, ?, ?) RETURNING id",
                                           [credentials.name, credentials.name.lowercased(), hash, time])
                return try await GamesService.openSession(db, accountID: row?.int(required: "id") ?? 0, name: credentials.name, now: time)
            }
        } catch SQLFailure.uniqueViolation {
            throw GamesError.usernameTaken
        }
    }

    /// After five failures in a row the account refuses every attempt for 15 minutes (kept in the
    /// store, so across processes and servers). An unknown name and a wrong password get the same
    /// answer in the same time.
    public func login(_ credentials: Credentials) async throws -> SessionToken {
        let time = now()
        let stored = try await database.transaction { db in
            try await db.one("""
                SELECT account.id, account.name, account.passwordHash, loginAttempt.lockedUntil FROM account
                LEFT JOIN loginAttempt ON loginAttempt.accountId = account.id WHERE account.nameKey = ?
                """, [credentials.name.lowercased()])
        }
        guard let stored, let id = stored.int("id"), let name = stored.string("name"), let hash = stored.string("passwordhash") else {
            _ = GamesCrypto.verify(credentials.password, against: GamesCrypto.decoyHash)
            throw GamesError.wrongCredentials
        }
        if let until = stored.double("lockeduntil"), until > time { throw GamesError.locked(until: until) }
        let matches = GamesCrypto.verify(credentials.password, against: hash)
        let outcome: Result<SessionToken, GamesError> = try await database.transaction { db in
            try await db.lockRow("account", id: id)
            let attempt = try await db.one("SELECT failures, lockedUntil FROM loginAttempt WHERE accountId = ?", [id])
            let lockedUntil = attempt?.double("lockeduntil")
            if let lockedUntil, lockedUntil > time { return .failure(.locked(until: lockedUntil)) }
            guard matches else {
                let failures = (lockedUntil != nil ? 0 : Int(attempt?.int("failures") ?? 0)) + 1
                let lock: Double? = failures >= GamesLimits.maximumFailures ? time + GamesLimits.lockSeconds : nil
                try await db.query("""
                    INSERT INTO loginAttempt (accountId, failures, lockedUntil) VALUES (?, ?, ?)
                    ON CONFLICT (accountId) DO UPDATE SET failures = excluded.failures, lockedUntil = excluded.lockedUntil
                    """, [id, lock == nil ? failures : 0, lock])
                return .failure(lock.map { .locked(until: $0) } ?? .wrongCredentials)
            }
            try await db.query("DELETE FROM loginAttempt WHERE accountId = ?", [id])
            return .success(try await GamesService.openSession(db, accountID: id, name: name, now: time))
        }
        return try outcome.get()
    }

    public func logout(token: String) async throws {
        try await database.transaction { db in
            try await db.query("DELETE FROM session WHERE tokenHash = ?", [GamesCrypto.tokenHash(token)])
        }
    }

    public func account(token: String) async throws -> AccountInfo {
        let time = now()
        return try await database.transaction { db in AccountInfo(name: try await GamesService.authenticate(db, token, now: time).name) }
    }

    static func openSession(_ db: SQLSession, accountID: Int64, name: String, now: Double) async throws -> SessionToken {
        let token = try GamesCrypto.randomToken()
        let expires = now + GamesLimits.tokenSeconds
        try await db.query("INSERT INTO session (tokenHash, accountId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           [GamesCrypto.tokenHash(token), accountID, now, expires])
        try await db.query("DELETE FROM session WHERE accountId = ? AND expiresAt <= ?", [accountID, now])
        return SessionToken(token: token, name: name, expiresAt: Instant.string(expires))
    }

    struct Account { var id: Int64; var name: String }

    /// The account of a token that exists and has not expired. With `game`, that game's row is
    /// locked in the same statement (one round trip less on every booking); the caller then
    /// reads the game in a statement of its own, which sees every change committed before the
    /// lock was granted.
    static func authenticate(_ db: SQLSession, _ token: String?, now: Double, lockingGame game: Int64? = nil) async throws -> Account {
        guard let token, !token.isEmpty, token.utf8.count <= 128 else { throw GamesError.notLoggedIn }
        let row: SQLRow?
        if let game {
            row = try await db.one("""
                SELECT account.id, account.name, (SELECT game.id FROM game WHERE game.id = ?\(db.forUpdate)) AS locked
                FROM session JOIN account ON account.id = session.accountId
                WHERE session.tokenHash = ? AND session.expiresAt > ?
                """, [game, GamesCrypto.tokenHash(token), now])
        } else {
            row = try await db.one("""
                SELECT account.id, account.name FROM session JOIN account ON account.id = session.accountId
                WHERE session.tokenHash = ? AND session.expiresAt > ?
                """, [GamesCrypto.tokenHash(token), now])
        }
        guard let row else { throw GamesError.notLoggedIn }
        return Account(id: try row.int(required: "id"), name: try row.string(required: "name"))
    }

    /// The account when the token is valid, nil when there is none or it is not (anonymous reads).
    static func optionalAccount(_ db: SQLSession, _ token: String?, now: Double) async throws -> Account? {
        guard token != nil else { return nil }
        return try? await authenticate(db, token, now: now)
    }

    // MARK: Grounds

    public func grounds(near place: Place) async throws -> [GroundListing] {
        let point = try self.point(place)
        let rows = try await database.transaction { db in try await db.query("SELECT * FROM ground", []) }
        return try rows.map { row in
            let latitude = try row.double(required: "latitude"), longitude = try row.double(required: "longitude")
            return GroundListing(id: try row.string(required: "id"), name: try row.string(required: "name"),
                                 suburb: try row.string(required: "suburb"), postcode: try row.string(required: "postcode"),
                                 latitude: latitude, longitude: longitude, approximate: row.int("approximate") == 1,
                                 distanceMeters: GreatCircle.meters(point.latitude, point.longitude, latitude, longitude))
        }
        .sorted { ($0.distanceMeters, $0.id) < ($1.distanceMeters, $1.id) }
        .prefix(5).map { $0 }
    }

    /// The search point: the postcode's suburb centres (several suburbs: their mean) or the position.
    func point(_ place: Place) throws -> (latitude: Double, longitude: Double) {
        switch place {
        case .position(let latitude, let longitude):
            return (latitude, longitude)
        case .postcode(let code):
            let matching = suburbs.filter { $0.postcode == code }
            guard !matching.isEmpty else { throw GamesError.noSuchPostcode(code) }
            return (matching.map(\.latitude).reduce(0, +) / Double(matching.count), matching.map(\.longitude).reduce(0, +) / Double(matching.count))
        }
    }

    /// Adds or replaces grounds (the bundled list, council exports).
    public func importGrounds(_ grounds: [Ground]) async throws {
        try await database.transaction { db in
            for g in grounds {
                try await db.query("""
                    INSERT INTO ground (id, name, suburb, postcode, latitude, longitude, approximate) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, suburb = excluded.suburb, postcode = excluded.postcode,
                      latitude = excluded.latitude, longitude = excluded.longitude, approximate = excluded.approximate
                    """, [g.id, g.name, g.suburb, g.postcode, g.latitude, g.longitude, g.approximate])
            }
        }
    }

    /// Loads the bundled grounds into an empty store.
    public func seedGroundsIfEmpty(_ grounds: () throws -> [Ground]) async throws {
        let count = try await database.transaction { db in try await db.one("SELECT COUNT(*) AS n FROM ground", [])?.int("n") ?? 0 }
        if count == 0 { try await importGrounds(try grounds()) }
    }

    // MARK: Reading games

    private static let gameSelect = """
        SELECT game.id, game.groundId, game.organiserId, game.startsAt, game.players, game.capacity, game.minimum, game.note,
               game.status, game.cancelReason, ground.name AS groundName, ground.suburb, ground.postcode, ground.latitude,
               ground.longitude, organiser.name AS organiserName,
               (SELECT COUNT(*) FROM booking b WHERE b.gameId = game.id AND b.status = 'going') AS going,
               (SELECT COUNT(*) FROM booking b WHERE b.gameId = game.id AND b.status = 'waitlisted') AS waitlisted,
               (SELECT b.status FROM booking b WHERE b.gameId = game.id AND b.accountId = ? AND b.status <> 'cancelled') AS myBooking
        FROM game JOIN ground ON ground.id = game.groundId JOIN account organiser ON organiser.id = game.organiserId
        """

    static func listing(_ row: SQLRow, me: Int64?) throws -> GameListing {
        let players = Int(try row.int(required: "players")), capacity = Int(try row.int(required: "capacity"))
        let going = Int(row.int("going") ?? 0), minimum = row.int("minimum").map(Int.init)
        let status = GameStatus(cancelled: row.string("status") == "cancelled", seatsUsed: players + going,
                                capacity: capacity, minimum: minimum)
        let mine: PlayerPart? = me != nil && row.int("organiserid") == me ? .organiser : row.string("mybooking").flatMap(PlayerPart.init)
        let latitude = try row.double(required: "latitude"), longitude = try row.double(required: "longitude")
        return GameListing(id: try row.int(required: "id"), ground: try row.string(required: "groundid"),
                           groundName: try row.string(required: "groundname"), suburb: try row.string(required: "suburb"),
                           postcode: try row.string(required: "postcode"), latitude: latitude, longitude: longitude,
                           startsAt: Instant.string(try row.double(required: "startsat")), capacity: capacity, players: players,
                           minimum: minimum, going: going, waitlisted: Int(row.int("waitlisted") ?? 0), status: status, myStatus: mine,
                           organiser: try row.string(required: "organisername"), note: row.string("note"),
                           cancelReason: row.string("cancelreason"),
                           map: "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=17/\(latitude)/\(longitude)")
    }

    static func loadGame(_ db: SQLSession, _ id: Int64, me: Int64?) async throws -> GameListing {
        guard let row = try await db.one(gameSelect + " WHERE game.id = ?", [me ?? -1, id]) else { throw GamesError.unknownGame(id) }
        return try listing(row, me: me)
    }

    public func games(near place: Place, token: String?) async throws -> [GameListing] {
        let ids = try await grounds(near: place).map(\.id)
        guard !ids.isEmpty else { return [] }
        let time = now()
        return try await database.transaction { db in
            let me = try await GamesService.optionalAccount(db, token, now: time)?.id
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try await db.query(GamesService.gameSelect + " WHERE game.groundId IN (\(marks)) AND game.startsAt > ? ORDER BY game.startsAt, game.id",
                                      [me ?? -1] + ids + [time]).map { try GamesService.listing($0, me: me) }
        }
    }

    /// From three hours ago, so a game under way still shows (as started).
    public func upcoming(token: String) async throws -> [GameListing] {
        let time = now()
        return try await database.transaction { db in
            let me = try await GamesService.authenticate(db, token, now: time).id
            return try await db.query(GamesService.gameSelect + """
                 WHERE game.startsAt >= ? AND (game.organiserId = ? OR EXISTS
                   (SELECT 1 FROM booking b WHERE b.gameId = game.id AND b.accountId = ? AND b.status <> 'cancelled'))
                 ORDER BY game.startsAt, game.id
                """, [me, time - 3 * 3600, me, me]).map { try GamesService.listing($0, me: me) }
        }
    }

    public func game(_ id: Int64, token: String?) async throws -> GameListing {
        let time = now()
        return try await database.transaction { db in
            try await GamesService.loadGame(db, id, me: try await GamesService.optionalAccount(db, token, now: time)?.id)
        }
    }

    public func roster(_ id: Int64, token: String) async throws -> GameRoster {
        let time = now()
        return try await database.transaction { db in
            let me = try await GamesService.authenticate(db, token, now: time)
            let game = try await GamesService.loadGame(db, id, me: me.id)
            guard game.myStatus == .organiser else { throw GamesError.notOrganiser }
            let rows = try await db.query("""
                SELECT account.name, booking.status, booking.bookedAt FROM booking JOIN account ON account.id = booking.accountId
                WHERE booking.gameId = ? AND booking.status <> 'cancelled' ORDER BY booking.queueAt, booking.bookedAt, booking.id
                """, [id])
            func entries(_ status: String) throws -> [GameRoster.Entry] {
                try rows.filter { $0.string("status") == status }.map {
                    GameRoster.Entry(name: try $0.string(required: "name"), since: Instant.string(try $0.double(required: "bookedat")))
                }
            }
            return GameRoster(game: id, going: try entries("going"), waitlisted: try entries("waitlisted"))
        }
    }

    // MARK: Changing games

    public func create(_ game: NewGame, idempotencyKey: String?, token: String) async throws -> GameListing {
        let time = now()
        let startsAt = try checkedStart(game.startsAt, now: time)
        guard GamesLimits.capacity.contains(game.capacity) else { throw GamesError.badCapacity }
        guard game.players >= 1, game.players <= game.capacity else { throw GamesError.badPlayers }
        if let minimum = game.minimum, !(2...game.capacity).contains(minimum) { throw GamesError.badMinimum }
        let note = try checkedNote(game.note)
        let key = try checkedKey(idempotencyKey)
        return try await idempotent(key, operation: "create", game: nil, token: token, now: time) { db, me in
            guard try await db.one("SELECT id FROM ground WHERE id = ?", [game.ground]) != nil else { throw GamesError.unknownGround(game.ground) }
            let row = try await db.one("""
                INSERT INTO game (groundId, organiserId, startsAt, players, capacity, minimum, note, status, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id
                """, [game.ground, me.id, startsAt, game.players, game.capacity, game.minimum, note, time, time])
            let id = try row?.int(required: "id") ?? 0
            try await GamesService.record(db, .created, game: id, ground: game.ground, now: time)
            return try await GamesService.loadGame(db, id, me: me.id)
        }
    }

    public func edit(_ id: Int64, _ changes: GameChanges, token: String) async throws -> GameListing {
        let time = now()
        guard !changes.isEmpty else { throw GamesError.invalid(field: "body") }
        let startsAt = try changes.startsAt.map { try checkedStart($0, now: time) }
        if let capacity = changes.capacity, !GamesLimits.capacity.contains(capacity) { throw GamesError.badCapacity }
        let note = try changes.note.map { try checkedNote($0) }
        return try await database.transaction { db in
            let (me, game) = try await GamesService.organisedGame(db, id, token: token, now: time)
            let capacity = changes.capacity ?? game.capacity
            guard game.players <= capacity else { throw GamesError.badPlayers }
            if let minimum = game.minimum, minimum > capacity { throw GamesError.badMinimum }
            try await db.query("UPDATE game SET startsAt = ?, capacity = ?, note = ?, updatedAt = ? WHERE id = ?",
                               [startsAt ?? game.start, capacity, changes.note == nil ? game.note : note, time, id])
            try await GamesService.balanceSeats(db, game: id, players: game.players, capacity: capacity, now: time)
            try await GamesService.record(db, .edited, game: id, ground: game.ground, now: time)
            return try await GamesService.loadGame(db, id, me: me.id)
        }
    }

    /// The game `id`, locked for this transaction, when the token's account organises it and it
    /// is neither cancelled nor started: what an organiser may still change.
    static func organisedGame(_ db: SQLSession, _ id: Int64, token: String, now: Double) async throws -> (Account, GameListing) {
        let me = try await authenticate(db, token, now: now, lockingGame: id)
        let game = try await loadGame(db, id, me: me.id)
        guard game.myStatus == .organiser else { throw GamesError.notOrganiser }
        guard game.status != .cancelled else { throw GamesError.gameCancelled }
        guard game.start > now else { throw GamesError.gameStarted }
        return (me, game)
    }

    /// After a capacity change or a cancelled place: players beyond the capacity move to the
    /// head of the waitlist, latest booked last (so they keep their order among themselves);
    /// free seats go to the waitlist in order. `going` is the count of going bookings when the
    /// caller knows it. Returns how many bookings moved: + promoted, − moved to the waitlist.
    @discardableResult
    static func balanceSeats(_ db: SQLSession, game id: Int64, players: Int, going known: Int? = nil, capacity: Int,
                             now: Double) async throws -> Int {
        var going = known ?? 0
        if known == nil {
            going = Int(try await db.one("SELECT COUNT(*) AS n FROM booking WHERE gameId = ? AND status = 'going'", [id])?.int("n") ?? 0)
        }
        let excess = players + going - capacity
        if excess > 0 {
            let latest = try await db.query("SELECT id FROM booking WHERE gameId = ? AND status = 'going' ORDER BY bookedAt DESC, id DESC LIMIT ?",
                                            [id, excess])
            let head = try await db.one("SELECT min(queueAt) AS head FROM booking WHERE gameId = ? AND status = 'waitlisted'", [id])?.double("head") ?? now
            for (offset, row) in latest.reversed().enumerated() {
                try await db.query("UPDATE booking SET status = 'waitlisted', queueAt = ?, updatedAt = ? WHERE id = ?",
                                   [head - Double(latest.count - offset), now, try row.int(required: "id")])
            }
            return -latest.count
        } else if excess < 0 {
            let promoted = try await db.query("""
                UPDATE booking SET status = 'going', updatedAt = ? WHERE id IN
                  (SELECT id FROM booking WHERE gameId = ? AND status = 'waitlisted' ORDER BY queueAt, id LIMIT ?) RETURNING id
                """, [now, id, -excess])
            return promoted.count
        }
        return 0
    }

    public func cancelGame(_ id: Int64, reason: String, token: String) async throws -> GameListing {
        let text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw GamesError.reasonMissing }
        guard text.count <= GamesLimits.reasonLength else { throw GamesError.invalid(field: "reason") }
        let time = now()
        return try await database.transaction { db in
            let (me, game) = try await GamesService.organisedGame(db, id, token: token, now: time)
            try await db.query("UPDATE game SET status = 'cancelled', cancelReason = ?, updatedAt = ? WHERE id = ?", [text, time, id])
            try await GamesService.record(db, .cancelled, game: id, ground: game.ground, now: time)
            return try await GamesService.loadGame(db, id, me: me.id)
        }
    }

    /// The game row is locked first, so concurrent bookers of one game queue and each counts the
    /// seats the previous ones took: never overbooked, the waitlist in arrival order. The answer
    /// is worked out from the game as read under the lock, without reading it again.
    public func book(_ id: Int64, idempotencyKey: String?, token: String) async throws -> GameListing {
        let time = now()
        let key = try checkedKey(idempotencyKey)
        return try await idempotent(key, operation: "book", game: id, token: token, now: time) { db, me in
            var game = try await GamesService.loadGame(db, id, me: me.id)
            guard game.status != .cancelled else { throw GamesError.gameCancelled }
            guard game.start > time else { throw GamesError.gameStarted }
            guard game.myStatus != .organiser else { throw GamesError.organiserCannotBook }
            if game.myStatus == .going || game.myStatus == .waitlisted { return game }
            let part: PlayerPart = game.seatsUsed < game.capacity ? .going : .waitlisted
            try await db.query("""
                INSERT INTO booking (gameId, accountId, status, bookedAt, queueAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (gameId, accountId) DO UPDATE SET status = excluded.status, bookedAt = excluded.bookedAt,
                  queueAt = excluded.queueAt, updatedAt = excluded.updatedAt
                """, [id, me.id, part.rawValue, time, time, time])
            try await GamesService.record(db, .booked, game: id, ground: game.ground, now: time)
            if part == .going { game.going += 1 } else { game.waitlisted += 1 }
            game.myStatus = part
            return game.withStatusRecomputed()
        }
    }

    /// A going player's cancellation frees a seat for the head of the waitlist, until the game
    /// starts; after the start nothing can be cancelled.
    public func cancelBooking(_ id: Int64, token: String) async throws -> GameListing {
        let time = now()
        return try await database.transaction { db in
            let me = try await GamesService.authenticate(db, token, now: time, lockingGame: id)
            var game = try await GamesService.loadGame(db, id, me: me.id)
            guard let part = game.myStatus, part == .going || part == .waitlisted else { throw GamesError.notBooked }
            guard game.start > time else { throw GamesError.gameStarted }
            try await db.query("UPDATE booking SET status = 'cancelled', updatedAt = ? WHERE gameId = ? AND accountId = ?", [time, id, me.id])
            if part == .going {
                game.going -= 1
                if game.status != .cancelled {
                    let promoted = try await GamesService.balanceSeats(db, game: id, players: game.players, going: game.going,
                                                                       capacity: game.capacity, now: time)
                    game.going += promoted
                    game.waitlisted -= promoted
                }
            } else {
                game.waitlisted -= 1
            }
            game.myStatus = nil
            try await GamesService.record(db, .unbooked, game: id, ground: game.ground, now: time)
            return game.withStatusRecomputed()
        }
    }

    // MARK: Live

    public func changes(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error> {
        feed.subscribe(after: sequence)
    }

    static func record(_ db: SQLSession, _ kind: GamesChange.Kind, game: Int64, ground: String, now: Double) async throws {
        let row = try await db.one("INSERT INTO gamesChange (at, kind, gameId, groundId) VALUES (?, ?, ?, ?) RETURNING sequence",
                                   [now, kind.rawValue, game, ground])
        try await db.notifyChange(row?.int("sequence") ?? 0)
    }

    // MARK: Checks

    func checkedStart(_ text: String, now: Double) throws -> Double {
        guard let seconds = Instant.parse(text) else { throw GamesError.badTime }
        guard seconds > now else { throw GamesError.inThePast }
        guard seconds <= now + GamesLimits.planningSeconds else { throw GamesError.tooFarAhead }
        return seconds
    }

    /// Notes are kept as typed (shown inert everywhere); empty means none.
    func checkedNote(_ note: String?) throws -> String? {
        guard let note, !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard note.count <= GamesLimits.noteLength else { throw GamesError.noteTooLong }
        return note
    }

    func checkedKey(_ key: String?) throws -> String? {
        guard let key else { return nil }
        guard (1...100).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw GamesError.invalid(field: "Idempotency-Key")
        }
        return key
    }

    /// Runs a creation or a booking once per key: a retry with the same key answers the game the
    /// first call made or booked. Two racing calls with one key: the loser's transaction is rolled
    /// back by the key's primary key, and it answers the winner's game.
    /// A key used before for another operation or another game is refused. For a booking
    /// (`game` given) the game is locked as the account is checked.
    private func idempotent(_ key: String?, operation: String, game expected: Int64?, token: String, now time: Double,
                            _ body: @escaping @Sendable (SQLSession, Account) async throws -> GameListing) async throws -> GameListing {
        for attempt in 0..<2 {
            do {
                return try await database.transaction { db in
                    let me = try await GamesService.authenticate(db, token, now: time, lockingGame: expected)
                    if let key, let done = try await db.one("SELECT gameId, operation FROM idempotency WHERE accountId = ? AND key = ?",
                                                           [me.id, key]) {
                        let game = try done.int(required: "gameid")
                        guard done.string("operation") == operation, expected == nil || expected == game else {
                            throw GamesError.invalid(field: "Idempotency-Key")
                        }
                        return try await GamesService.loadGame(db, game, me: me.id)
                    }
                    let game = try await body(db, me)
                    if let key {
                        try await db.query("INSERT INTO idempotency (accountId, key, operation, gameId, createdAt) VALUES (?, ?, ?, ?, ?)",
                                           [me.id, key, operation, game.id, time])
                    }
                    return game
                }
            } catch SQLFailure.uniqueViolation where attempt == 0 && key != nil {
                continue
            }
        }
        throw GamesError.serverFailed
    }
}

/// Password hashes (yescrypt, through the system's libcrypt), tokens and their hashes.
enum GamesCrypto {
    /// A real yescrypt hash of nothing anyone knows: checking against it takes the time a real
    /// check takes, so an unknown name answers as slowly as a wrong password.
    static let decoyHash = "$y$j9T$AAAAAAAAAAAAAAAAAAAAA.$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

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
