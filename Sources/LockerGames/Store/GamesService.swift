import LockerKit
import CCrypt
import Foundation
import Synchronization

/// The games API over a store: every rule lives here once, so SQLite and PostgreSQL behave the
/// same. The server answers requests with it, and the commands use it directly on a local file.
public final class GamesService: GamesAPI, @unchecked Sendable {
    public let database: GamesDatabase
    let suburbs: [Suburb]
    /// Passwords refused because they are among the most used (lowercased).
    let commonPasswords: Set<String>
    let now: @Sendable () -> Double
    private let feed: ChangeFeed
    /// When this process last removed old log-in counters.
    private let cleanup = Mutex(0.0)

    public init(database: GamesDatabase, suburbs: [Suburb], commonPasswords: Set<String> = [],
                now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.database = database
        self.suburbs = suburbs
        self.commonPasswords = commonPasswords
        self.now = now
        feed = ChangeFeed(database: database)
    }

    // MARK: Accounts

    public func signUp(_ credentials: Credentials) async throws -> SessionToken {
        guard GamesLimits.isValidUsername(credentials.name) else { throw GamesError.badUsername }
        try checkedNewPassword(credentials.password)
        let hash = try GamesCrypto.hashPassword(credentials.password)
        let time = now()
        do {
            return try await database.transaction { db in
                let row = try await db.one("INSERT INTO account (name, nameKey, passwordHash, createdAt) VALUES (?, ?, ?, ?) RETURNING id",
                                           [credentials.name, credentials.name.lowercased(), hash, time])
                var session = try await GamesService.openSession(db, accountID: row?.int(required: "id") ?? 0, name: credentials.name, now: time)
                session.device = try await GamesService.rememberDevice(db, nil, name: credentials.name.lowercased(), now: time)
                return session
            }
        } catch SQLFailure.uniqueViolation {
            throw GamesError.usernameTaken
        }
    }

    /// A new password: the length and characters, and not one of the most used.
    func checkedNewPassword(_ password: String) throws {
        guard GamesLimits.isValidPassword(password) else { throw GamesError.badPassword }
        guard !commonPasswords.contains(password.lowercased()) else { throw GamesError.commonPassword }
    }

    /// A log-in from this machine's own commands, on a local file.
    public func login(_ credentials: Credentials) async throws -> SessionToken {
        try await login(credentials, source: nil)
    }

    /// Failed log-ins make later attempts wait (`GamesLimits.pairThrottle`, `addressThrottle`,
    /// `nameThrottle`): per name and address, per address, and per name from everywhere, so a
    /// guesser slows down without keeping the owner, at another address, out. An attempt is
    /// counted as a failure before its password is checked, in the same transaction that reads
    /// the counts, so racing guesses queue on the counters and at most the free ones reach the
    /// check; a right password takes its count back. A name with no account is counted and
    /// answered exactly like one with an account, so the answers tell nobody which names exist.
    /// Kept in the store, so the same across processes and servers. `source` is the client's
    /// address (nil: this machine's commands).
    public func login(_ credentials: Credentials, source: String?) async throws -> SessionToken {
        guard GamesLimits.isValidUsername(credentials.name) else { throw GamesError.badUsername }
        guard GamesLimits.isValidPassword(credentials.password) else { throw GamesError.badPassword }
        let time = now()
        let nameKey = credentials.name.lowercased()
        await forgetOldFailures(now: time)
        let (account, counters) = try await database.transaction { db -> (SQLRow?, LoginCounters) in
            let device = try await GamesService.knownDevice(db, credentials.device, name: nameKey, now: time)
            let counters = LoginCounters(name: nameKey, source: source ?? "local", device: device)
            try await GamesService.countAttempt(db, counters: counters, now: time)
            return (try await db.one("SELECT id, name, passwordHash FROM account WHERE nameKey = ?", [nameKey]), counters)
        }
        let hash = account?.string("passwordhash") ?? GamesCrypto.decoyHash
        guard GamesCrypto.verify(credentials.password, against: hash), let account, let id = account.int("id"),
              let name = account.string("name") else { throw GamesError.wrongCredentials }
        return try await database.transaction { db in
            // The password may have changed, or the account gone, since it was checked: the
            // account's row is locked and its hash read again. A log-in that raced a change
            // either committed first (and the change, which locks the same row before it ends
            // the sessions, ends this one too) or sees the new hash and is refused.
            guard try await db.one("SELECT passwordHash FROM account WHERE id = ?\(db.forUpdate)", [id])?.string("passwordhash") == hash else {
                throw GamesError.wrongCredentials
            }
            try await db.query("DELETE FROM loginThrottle WHERE key = ?", [counters.pair])
            try await db.query("UPDATE loginThrottle SET failures = failures - 1 WHERE (key = ? OR key = ?) AND failures > 0",
                               [counters.address, counters.third])
            var session = try await GamesService.openSession(db, accountID: id, name: name, now: time)
            session.device = try await GamesService.rememberDevice(db, counters.device.map { _ in credentials.device ?? "" },
                                                                   name: nameKey, now: time)
            return session
        }
    }

    /// The hash of `device` when it is a device this name logged in from (and not forgotten),
    /// nil otherwise: a token that is not one counts as none.
    static func knownDevice(_ db: SQLSession, _ device: String?, name: String, now: Double) async throws -> String? {
        guard let device, device.utf8.count == 32, device.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            return nil
        }
        let hash = GamesCrypto.tokenHash(device)
        let row = try await db.one("SELECT 1 AS known FROM loginDevice WHERE tokenHash = ? AND nameKey = ? AND lastUsedAt > ?",
                                   [hash, name, now - GamesLimits.deviceSeconds])
        return row == nil ? nil : hash
    }

    /// After a successful log-in or sign-up: the device token the client gave, when it was
    /// known (its use noted), or a new one for this name.
    static func rememberDevice(_ db: SQLSession, _ known: String?, name: String, now: Double) async throws -> String {
        if let known {
            try await db.query("UPDATE loginDevice SET lastUsedAt = ? WHERE tokenHash = ?", [now, GamesCrypto.tokenHash(known)])
            return known
        }
        let device = try GamesCrypto.randomToken()
        try await db.query("INSERT INTO loginDevice (tokenHash, nameKey, createdAt, lastUsedAt) VALUES (?, ?, ?, ?)",
                           [GamesCrypto.tokenHash(device), name, now, now])
        return device
    }

    /// The keys of the three log-in counters of a name (lower case) and an address: the
    /// third is the name's, or, for a device this name logged in from before, the device's.
    struct LoginCounters {
        let pair: String, address: String, third: String
        /// The hash of the known device the attempt came from, if any.
        let device: String?

        init(name: String, source: String, device: String? = nil) {
            pair = "pair:\(name) \(source)"
            address = "address:\(source)"
            third = device.map { "device:" + $0 } ?? "name:\(name)"
            self.device = device
        }

        /// Each key with its rule and what it counts, in key order (the order every attempt
        /// locks them in).
        var all: [(key: String, rule: LoginThrottle, count: LoginCount)] {
            [(pair, GamesLimits.pairThrottle, LoginCount.pair), (address, GamesLimits.addressThrottle, .address),
             (third, device == nil ? GamesLimits.nameThrottle : GamesLimits.deviceThrottle, device == nil ? .name : .device)]
                .sorted { $0.key < $1.key }
        }
    }

    /// Refuses the attempt while any counter's wait runs; otherwise counts it as one more
    /// failure on each. Each counter row is locked as it is read (an upsert), in key order, so
    /// concurrent attempts on the same counters take turns (SQLite's write lock does the same).
    /// A count forgotten after an hour starts again at one.
    static func countAttempt(_ db: SQLSession, counters: LoginCounters, now: Double) async throws {
        var until = 0.0
        var holding = LoginCount.pair
        let keys = counters.all
        for (key, rule, count) in keys {
            let row = try await db.one("""
                INSERT INTO loginThrottle (key, failures, lastFailureAt) VALUES (?, 0, 0)
                ON CONFLICT (key) DO UPDATE SET failures = loginThrottle.failures RETURNING failures, lastFailureAt
                """, [key])
            guard let last = row?.double("lastfailureat"), now - last < GamesLimits.failureMemorySeconds else { continue }
            let wait = last + rule.delay(failures: Int(clamping: row?.int("failures") ?? 0))
            if wait > until { until = wait; holding = count }
        }
        if until > now { throw GamesError.locked(until: until, by: holding) }
        for (key, _, _) in keys {
            try await db.query("""
                UPDATE loginThrottle SET failures = CASE WHEN lastFailureAt < ? THEN 1 ELSE failures + 1 END, lastFailureAt = ?
                WHERE key = ?
                """, [now - GamesLimits.failureMemorySeconds, now, key])
        }
    }

    /// Removes counters untouched for a day, at most once a minute per process, in a
    /// transaction of its own (never while a log-in holds counters).
    private func forgetOldFailures(now time: Double) async {
        let due = cleanup.withLock { last -> Bool in
            guard time - last >= 60 else { return false }
            last = time
            return true
        }
        guard due else { return }
        _ = try? await database.transaction { db in
            try await db.query("DELETE FROM loginThrottle WHERE lastFailureAt < ?", [time - 86_400])
            try await db.query("DELETE FROM loginDevice WHERE lastUsedAt < ?", [time - GamesLimits.deviceSeconds])
        }
    }

    public func logout(token: String) async throws {
        _ = try await database.transaction { db in
            try await db.query("DELETE FROM session WHERE tokenHash = ?", [GamesCrypto.tokenHash(token)])
        }
    }

    public func logoutEverywhere(token: String) async throws {
        let time = now()
        try await database.transaction { db in
            let me = try await GamesService.authenticate(db, token, now: time)
            try await db.lockRow("account", id: me.id)
            try await db.query("DELETE FROM session WHERE accountId = ?", [me.id])
        }
    }

    /// The token's account, once its password is confirmed (what changing the password and
    /// deleting the account ask for).
    private func verifiedAccount(token: String, password: String, now time: Double) async throws -> Account {
        let (me, hash) = try await database.read { db in
            let me = try await GamesService.authenticate(db, token, now: time)
            return (me, try await db.one("SELECT passwordHash FROM account WHERE id = ?", [me.id])?.string("passwordhash") ?? "")
        }
        guard GamesCrypto.verify(password, against: hash) else { throw GamesError.wrongCredentials }
        return me
    }

    public func changePassword(_ change: PasswordChange, token: String) async throws {
        let time = now()
        try checkedNewPassword(change.new)
        let me = try await verifiedAccount(token: token, password: change.current, now: time)
        let newHash = try GamesCrypto.hashPassword(change.new)
        try await database.transaction { db in
            try await db.query("UPDATE account SET passwordHash = ? WHERE id = ?", [newHash, me.id])
            try await db.query("DELETE FROM session WHERE accountId = ? AND tokenHash <> ?", [me.id, GamesCrypto.tokenHash(token)])
        }
    }

    public func deleteAccount(password: String, token: String) async throws {
        let time = now()
        let me = try await verifiedAccount(token: token, password: password, now: time)
        try await database.transaction { db in
            // The account's row first, as a log-in's session is opened under it: a log-in that
            // raced this deletion has committed its session before the sessions are ended below.
            try await db.lockRow("account", id: me.id)
            // Future bookings: cancelled one game at a time, each game locked before its booking
            // is read (a seat released meanwhile by someone else is counted), the waitlist moving up.
            let games = try await db.query("""
                SELECT DISTINCT booking.gameId FROM booking JOIN game ON game.id = booking.gameId
                WHERE booking.accountId = ? AND booking.status <> 'cancelled' AND game.startsAt > ? ORDER BY booking.gameId
                """, [me.id, time])
            for entry in games {
                let game = try entry.int(required: "gameid")
                try await db.lockRow("game", id: game)
                guard let row = try await db.one("""
                    SELECT booking.status, game.groundId, game.players, game.capacity, game.status AS gameStatus
                    FROM booking JOIN game ON game.id = booking.gameId
                    WHERE booking.gameId = ? AND booking.accountId = ? AND booking.status <> 'cancelled'
                    """, [game, me.id]) else { continue }
                _ = try await GamesService.releaseBooking(db, game: game, account: me.id, ground: row.string("groundid") ?? "",
                                                      heldSeat: row.string("status") == "going", gameCancelled: row.string("gamestatus") == "cancelled",
                                                      players: Int(row.int("players") ?? 1), capacity: Int(row.int("capacity") ?? 2), now: time)
            }
            // Future games it organises are called off, with the reason left empty: clients say why.
            let organised = try await db.query("SELECT id, groundId FROM game WHERE organiserId = ? AND startsAt > ? AND status <> 'cancelled'",
                                               [me.id, time])
            for row in organised {
                let game = try row.int(required: "id")
                try await db.query("UPDATE game SET status = 'cancelled', cancelReason = '', updatedAt = ? WHERE id = ?", [time, game])
                try await GamesService.record(db, .cancelled, game: game, ground: row.string("groundid") ?? "", now: time)
            }
            try await db.query("DELETE FROM session WHERE accountId = ?", [me.id])
            try await db.query("DELETE FROM idempotency WHERE accountId = ?", [me.id])
            try await db.query("DELETE FROM booking WHERE accountId = ? AND status = 'cancelled'", [me.id])
            // The row stays for past games' history, with no password and a name nobody can type
            // (unique, as SQLite files made before schema 2 require of names); it reads as empty.
            let gone = "\u{1}deleted-\(me.id)"
            try await db.query("UPDATE account SET name = ?, nameKey = ?, passwordHash = '!', role = 'deleted' WHERE id = ?",
                               [gone, gone, me.id])
        }
    }

    public func account(token: String) async throws -> AccountInfo {
        let time = now()
        return try await database.read { db in AccountInfo(name: try await GamesService.authenticate(db, token, now: time).name) }
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
        let rows = try await database.read { db in try await db.query("SELECT * FROM ground", []) }
        return try rows.map { row in
            let latitude = try row.double(required: "latitude"), longitude = try row.double(required: "longitude")
            return GroundListing(id: try row.string(required: "id"), name: try row.string(required: "name"),
                                 suburb: try row.string(required: "suburb"), postcode: try row.string(required: "postcode"),
                                 latitude: latitude, longitude: longitude, approximate: row.int("approximate") == 1,
                                 distanceMeters: GreatCircle.meters(point.latitude, point.longitude, latitude, longitude),
                                 timeZone: row.string("timezone") ?? GroundClock.defaultZone,
                                 utcOffsetSeconds: GroundClock.zone(row.string("timezone") ?? GroundClock.defaultZone)?.secondsFromGMT())
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

    /// Adds grounds (the bundled list, council exports). A ground already there under the same
    /// id is changed only with `replacing` (never silently: a moved ground moves its games);
    /// identical rows are left as they are. At most `GamesLimits.groundsPerImport` at once.
    /// Only whoever can write the store itself imports: there is no way to do it through the API.
    public func importGrounds(_ grounds: [Ground], replacing: Bool = false) async throws {
        guard grounds.count <= GamesLimits.groundsPerImport else { throw GamesError.tooManyGrounds(limit: GamesLimits.groundsPerImport) }
        for g in grounds where GroundClock.zone(g.timeZone) == nil { throw GamesError.invalid(field: "timeZone") }
        try await database.transaction { db in
            var existing: [String: Ground] = [:]
            for row in try await db.query("SELECT * FROM ground", []) {
                guard let id = row.string("id") else { continue }
                existing[id] = Ground(id: id, name: row.string("name") ?? "", suburb: row.string("suburb") ?? "",
                                      postcode: row.string("postcode") ?? "", latitude: row.double("latitude") ?? 0,
                                      longitude: row.double("longitude") ?? 0, approximate: row.int("approximate") == 1,
                                      timeZone: row.string("timezone") ?? GroundClock.defaultZone)
            }
            let changed = grounds.filter { existing[$0.id] != nil && existing[$0.id] != $0 }.map(\.id)
            if !changed.isEmpty && !replacing { throw GamesError.groundsWouldChange(changed) }
            guard existing.count + grounds.count(where: { existing[$0.id] == nil }) <= GamesLimits.grounds else {
                throw GamesError.tooManyGrounds(limit: GamesLimits.grounds)
            }
            for g in grounds where existing[g.id] != g {
                try await db.query("""
                    INSERT INTO ground (id, name, suburb, postcode, latitude, longitude, approximate, timeZone) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, suburb = excluded.suburb, postcode = excluded.postcode,
                      latitude = excluded.latitude, longitude = excluded.longitude, approximate = excluded.approximate,
                      timeZone = excluded.timeZone
                    """, [g.id, g.name, g.suburb, g.postcode, g.latitude, g.longitude, g.approximate, g.timeZone])
            }
        }
    }

    /// Loads the bundled grounds into an empty store.
    public func seedGroundsIfEmpty(_ grounds: () throws -> [Ground]) async throws {
        let count = try await database.read { db in try await db.one("SELECT COUNT(*) AS n FROM ground", [])?.int("n") ?? 0 }
        if count == 0 { try await importGrounds(try grounds()) }
    }

    // MARK: Reading games

    private static let gameSelect = """
        SELECT game.id, game.groundId, game.organiserId, game.startsAt, game.players, game.capacity, game.minimum, game.note,
               game.status, game.cancelReason, ground.name AS groundName, ground.suburb, ground.postcode, ground.latitude,
               ground.longitude, ground.timeZone, ground.approximate,
               CASE WHEN organiser.role = 'deleted' THEN '' ELSE organiser.name END AS organiserName,
               (SELECT COUNT(*) FROM booking b WHERE b.gameId = game.id AND b.status = 'going') AS going,
               (SELECT COUNT(*) FROM booking b WHERE b.gameId = game.id AND b.status = 'waitlisted') AS waitlisted,
               (SELECT b.status FROM booking b WHERE b.gameId = game.id AND b.accountId = ? AND b.status <> 'cancelled') AS myBooking,
               (SELECT COUNT(*) FROM booking w WHERE w.gameId = game.id AND w.status = 'waitlisted' AND w.queueAt <=
                  (SELECT b.queueAt FROM booking b WHERE b.gameId = game.id AND b.accountId = ? AND b.status = 'waitlisted')) AS waitlistPosition
        FROM game JOIN ground ON ground.id = game.groundId JOIN account organiser ON organiser.id = game.organiserId
        """

    static func listing(_ row: SQLRow, me: Int64?) throws -> GameListing {
        let players = Int(try row.int(required: "players")), capacity = Int(try row.int(required: "capacity"))
        let going = Int(row.int("going") ?? 0), minimum = row.int("minimum").map(Int.init)
        let status = GameStatus(cancelled: row.string("status") == "cancelled", seatsUsed: players + going,
                                capacity: capacity, minimum: minimum)
        let mine: PlayerPart? = me != nil && row.int("organiserid") == me ? .organiser : row.string("mybooking").flatMap(PlayerPart.init)
        let latitude = try row.double(required: "latitude"), longitude = try row.double(required: "longitude")
        let start = try row.double(required: "startsat")
        let timeZone = row.string("timezone") ?? GroundClock.defaultZone
        guard let zone = GroundClock.zone(timeZone) else { throw GamesError.database("ground time zone “\(timeZone)” is unknown") }
        return GameListing(id: try row.int(required: "id"), ground: try row.string(required: "groundid"),
                           groundName: try row.string(required: "groundname"), suburb: try row.string(required: "suburb"),
                           postcode: try row.string(required: "postcode"), latitude: latitude, longitude: longitude,
                           startsAt: Instant.string(start), timeZone: timeZone,
                           localStart: GroundClock.localStart(start, in: zone), capacity: capacity, players: players,
                           minimum: minimum, going: going, waitlisted: Int(row.int("waitlisted") ?? 0), status: status, myStatus: mine,
                           organiser: try row.string(required: "organisername"), note: row.string("note"),
                           cancelReason: row.string("cancelreason"),
                           waitlistPosition: row.int("waitlistposition").flatMap { $0 > 0 ? Int($0) : nil },
                           map: "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=17/\(latitude)/\(longitude)",
                           approximate: row.int("approximate") == 1)
    }

    /// The games of `rows`; a row that does not read as a game (a value written by hand, a
    /// damaged file) is reported on standard error and left out, so one bad row hides one game
    /// rather than every list.
    static func listings(_ rows: [SQLRow], me: Int64?) -> [GameListing] {
        rows.compactMap { row in
            do {
                return try listing(row, me: me)
            } catch {
                let id = row.int("id").map(String.init) ?? "?"
                FileHandle.standardError.write(Data("locker-games: game \(id) skipped: it cannot be read (\(error))\n".utf8))
                return nil
            }
        }
    }

    static func loadGame(_ db: SQLSession, _ id: Int64, me: Int64?) async throws -> GameListing {
        guard let row = try await db.one(gameSelect + " WHERE game.id = ?", [me ?? -1, me ?? -1, id]) else { throw GamesError.unknownGame(id) }
        return try listing(row, me: me)
    }

    public func games(near place: Place, token: String?) async throws -> [GameListing] {
        try await games(near: place, token: token, page: nil).games
    }

    /// A page of the games at the five grounds nearest `place` (all of them without `page`).
    public func games(near place: Place, token: String?, page: GamesPageRequest?) async throws -> GamesPage {
        let ids = try await grounds(near: place).map(\.id)
        guard !ids.isEmpty else { return GamesPage(games: [], next: nil) }
        let time = now()
        return try await database.read { db in
            let me = try await GamesService.optionalAccount(db, token, now: time)?.id
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try await GamesService.page(db, where: "game.groundId IN (\(marks)) AND game.startsAt > ?", ids + [time], me: me, page: page)
        }
    }

    public func upcoming(token: String) async throws -> [GameListing] {
        try await upcoming(token: token, page: nil).games
    }

    /// A page of the games the account organises or is booked on, from three hours ago, so a
    /// game under way still shows (as started); all of them without `page`.
    public func upcoming(token: String, page: GamesPageRequest?) async throws -> GamesPage {
        let time = now()
        return try await database.read { db in
            let me = try await GamesService.authenticate(db, token, now: time).id
            return try await GamesService.page(db, where: """
                game.startsAt >= ? AND (game.organiserId = ? OR EXISTS
                  (SELECT 1 FROM booking b WHERE b.gameId = game.id AND b.accountId = ? AND b.status <> 'cancelled'))
                """, [time - 3 * 3600, me, me], me: me, page: page)
        }
    }

    /// The games matching `condition`, in start order: the ids of one page first (one more
    /// than the page, to know whether another follows), then those games whole, so the
    /// counts of bookings are worked out for the page only, however many games match.
    static func page(_ db: SQLSession, where condition: String, _ arguments: [SQLBindable], me: Int64?,
                     page: GamesPageRequest?) async throws -> GamesPage {
        var sql = "SELECT game.id, game.startsAt FROM game WHERE " + condition
        var values = arguments
        if let after = page?.after {
            sql += " AND (game.startsAt > ? OR (game.startsAt = ? AND game.id > ?))"
            values += [after.start, after.start, after.id]
        }
        sql += " ORDER BY game.startsAt, game.id"
        if let page {
            sql += " LIMIT ?"
            values.append(Int64(page.limit + 1))
        }
        let found = try await db.query(sql, values)
        let shown = page.map { Array(found.prefix($0.limit)) } ?? found
        guard !shown.isEmpty else { return GamesPage(games: [], next: nil) }
        let ids = try shown.map { try $0.int(required: "id") }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let games = listings(try await db.query(gameSelect + " WHERE game.id IN (\(marks)) ORDER BY game.startsAt, game.id",
                                                [me ?? -1, me ?? -1] + ids), me: me)
        var next: GamesCursor?
        if let page, found.count > page.limit, let last = shown.last {
            next = GamesCursor(start: try last.double(required: "startsat"), id: try last.int(required: "id"))
        }
        return GamesPage(games: games, next: next)
    }

    public func game(_ id: Int64, token: String?) async throws -> GameListing {
        let time = now()
        return try await database.read { db in
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
        try checkedStartText(game.startsAt)
        if let problem = NewGame.numbersProblem(players: game.players, capacity: game.capacity, minimum: game.minimum) { throw problem }
        guard !GamesLimits.hasForbiddenCharacters(game.ground) else { throw GamesError.forbiddenCharacters(field: "ground") }
        guard (1...GamesLimits.groundIDBytes).contains(game.ground.utf8.count) else { throw GamesError.invalid(field: "ground") }
        let note = try checkedNote(game.note)
        let key = try checkedKey(idempotencyKey)
        return try await idempotent(key, operation: "create", game: nil, token: token, now: time) { db, me in
            guard let ground = try await db.one("SELECT id, timeZone FROM ground WHERE id = ?", [game.ground]) else {
                throw GamesError.unknownGround(game.ground)
            }
            let startsAt = try self.checkedStart(game.startsAt, timeZone: ground.string("timezone"), now: time)
            try await GamesService.checkCreationRate(db, organiser: me.id, now: time)
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
        if let text = changes.startsAt { try checkedStartText(text) }
        if let capacity = changes.capacity, !GamesLimits.capacity.contains(capacity) { throw GamesError.badCapacity }
        let note = try changes.note.map { try checkedNote($0) }
        return try await database.transaction { db in
            let (me, game) = try await GamesService.organisedGame(db, id, token: token, now: time)
            let startsAt = try changes.startsAt.map { try self.checkedStart($0, timeZone: game.timeZone, now: time) }
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
        guard !GamesLimits.hasForbiddenCharacters(reason) else { throw GamesError.forbiddenCharacters(field: "reason") }
        let text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw GamesError.reasonMissing }
        guard text.count <= GamesLimits.reasonLength, text.utf8.count <= GamesLimits.noteBytes else { throw GamesError.invalid(field: "reason") }
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
                """, [id, me.id, part.rawValue, time, time, time], recording: RecordedChange(kind: .booked, game: id, ground: game.ground, at: time))
            if part == .going { game.going += 1 } else { game.waitlisted += 1; game.waitlistPosition = game.waitlisted }
            game.myStatus = part
            return game.withStatusRecomputed()
        }
    }

    /// At most `GamesLimits.gamesPerHour` new games per account in any hour, so one account
    /// cannot bury the real games under its own.
    /// The organiser's account row is locked first, so one account's racing creations count
    /// one another in turn instead of all reading the same count (SQLite's write lock does the same).
    static func checkCreationRate(_ db: SQLSession, organiser: Int64, now: Double) async throws {
        try await db.lockRow("account", id: organiser)
        let recent = try await db.query("SELECT createdAt FROM game WHERE organiserId = ? AND createdAt > ? ORDER BY createdAt",
                                        [organiser, now - 3600])
        guard recent.count >= GamesLimits.gamesPerHour else { return }
        let oldest = recent[recent.count - GamesLimits.gamesPerHour].double("createdat") ?? now
        throw GamesError.tooManyGames(retryAfter: max(1, Int((oldest + 3600 - now).rounded(.up))))
    }

    public func removeGame(_ id: Int64, token: String) async throws {
        let time = now()
        try await database.transaction { db in
            let me = try await GamesService.authenticate(db, token, now: time, lockingGame: id)
            guard try await db.one("SELECT role FROM account WHERE id = ?", [me.id])?.string("role") == "admin" else { throw GamesError.adminOnly }
            guard let game = try await db.one("SELECT groundId FROM game WHERE id = ?", [id]) else { throw GamesError.unknownGame(id) }
            try await db.query("DELETE FROM booking WHERE gameId = ?", [id])
            try await db.query("DELETE FROM idempotency WHERE gameId = ?", [id])
            try await db.query("DELETE FROM game WHERE id = ?", [id])
            try await GamesService.record(db, .cancelled, game: id, ground: game.string("groundid") ?? "", now: time)
        }
    }

    /// Makes `name` an administrator (or a player again). Done on the store itself by whoever
    /// runs it, never through the API.
    public func setAdministrator(_ name: String, _ isAdministrator: Bool) async throws {
        try await database.transaction { db in
            let rows = try await db.query("UPDATE account SET role = ? WHERE nameKey = ? AND role <> 'deleted' RETURNING id",
                                          [isAdministrator ? "admin" : "player", name.lowercased()])
            guard !rows.isEmpty else { throw GamesError.noSuchAccount(name) }
        }
    }

    /// Cancels an account's booking of a game the transaction has locked, recording the change;
    /// a seat it held goes to the head of the waitlist unless the game is off. `going` is the
    /// count of going bookings without this one and `waiting` the length of the waitlist, when
    /// the caller knows them (an empty waitlist costs no statement). Returns how many waiting
    /// players got a seat.
    static func releaseBooking(_ db: SQLSession, game: Int64, account: Int64, ground: String, heldSeat: Bool, gameCancelled: Bool,
                               players: Int, going: Int? = nil, waiting: Int? = nil, capacity: Int, now: Double) async throws -> Int {
        try await db.query("UPDATE booking SET status = 'cancelled', updatedAt = ? WHERE gameId = ? AND accountId = ?", [now, game, account],
                           recording: RecordedChange(kind: .unbooked, game: game, ground: ground, at: now))
        guard heldSeat, !gameCancelled, waiting != 0 else { return 0 }
        return try await balanceSeats(db, game: game, players: players, going: going, capacity: capacity, now: now)
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
            if part == .going { game.going -= 1 } else { game.waitlisted -= 1 }
            let promoted = try await GamesService.releaseBooking(db, game: id, account: me.id, ground: game.ground, heldSeat: part == .going,
                                                                 gameCancelled: game.status == .cancelled, players: game.players,
                                                                 going: game.going, waiting: game.waitlisted, capacity: game.capacity, now: time)
            game.going += promoted
            game.waitlisted -= promoted
            game.myStatus = nil
            game.waitlistPosition = nil
            return game.withStatusRecomputed()
        }
    }

    // MARK: Live

    public func changes(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error> {
        feed.subscribe(after: sequence)
    }

    static func record(_ db: SQLSession, _ kind: GamesChange.Kind, game: Int64, ground: String, now: Double) async throws {
        try await db.recordChange(RecordedChange(kind: kind, game: game, ground: ground, at: now))
    }

    // MARK: Checks

    /// Refuses a start that is neither a time on a clock nor an instant, before any lookup.
    func checkedStartText(_ text: String) throws {
        guard text.utf8.count <= 40, Instant.parse(text) != nil || WallTime.parse(text) != nil else { throw GamesError.badTime }
    }

    /// The instant a game starts: an instant as given, or a time on the ground's clock read in
    /// its zone (a time the clocks skip is refused). Not in the past, at most two years ahead.
    func checkedStart(_ text: String, timeZone: String?, now: Double) throws -> Double {
        let seconds: Double
        if let instant = Instant.parse(text) {
            seconds = instant
        } else if let wall = WallTime.parse(text) {
            guard let zone = GroundClock.zone(timeZone ?? GroundClock.defaultZone) else { throw GamesError.badTime }
            seconds = try GroundClock.instant(of: wall, in: zone)
        } else {
            throw GamesError.badTime
        }
        guard seconds > now else { throw GamesError.inThePast }
        guard seconds <= now + GamesLimits.planningSeconds else { throw GamesError.tooFarAhead }
        return seconds
    }

    /// Notes are kept as typed (shown inert everywhere); empty means none.
    func checkedNote(_ note: String?) throws -> String? {
        guard let note else { return nil }
        guard !GamesLimits.hasForbiddenCharacters(note) else { throw GamesError.forbiddenCharacters(field: "note") }
        guard !note.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard note.count <= GamesLimits.noteLength, note.utf8.count <= GamesLimits.noteBytes else { throw GamesError.noteTooLong }
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
        guard GamesLimits.isValidPassword(password) else { throw GamesError.badPassword }
        var buffer = [CChar](repeating: 0, count: 512)
        guard lk_password_hash(password, &buffer, buffer.count) == 0 else { throw GamesError.database("libcrypt could not hash the password") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A password the C library would read differently (cut at a NUL, or too long for it) never
    /// matches.
    static func verify(_ password: String, against hash: String) -> Bool {
        guard !password.utf8.contains(0), password.utf8.count <= GamesLimits.passwordBytes else { return false }
        return lk_password_verify(password, hash) == 1
    }

    /// 128 random bits as 32 hex digits.
    static func randomToken() throws -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard lk_random_bytes(&bytes, bytes.count) == 0 else { throw GamesError.database("no random numbers from the kernel") }
        return SHA256.hex(bytes)
    }

    static func tokenHash(_ token: String) -> String { SHA256.hex(SHA256.hash(Array(token.utf8))) }
}
