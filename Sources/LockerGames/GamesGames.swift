import LockerKit
import FoundationEssentials
import GRDB

extension GamesStore {
    // MARK: Grounds

    /// Adds or replaces grounds (bundled data, council exports).
    public func upsert(_ grounds: [Ground]) throws {
        try guarded {
            try pool.write { db in
                for g in grounds {
                    try db.execute(sql: """
                        INSERT INTO ground (id, name, suburb, postcode, latitude, longitude, approximate) VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET name = excluded.name, suburb = excluded.suburb, postcode = excluded.postcode,
                          latitude = excluded.latitude, longitude = excluded.longitude, approximate = excluded.approximate
                        """, arguments: [g.id, g.name, g.suburb, g.postcode, g.latitude, g.longitude, g.approximate])
                }
            }
        }
    }

    public func groundCount() throws -> Int {
        try guarded { try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ground") ?? 0 } }
    }

    public func allGrounds() throws -> [Ground] {
        try guarded { try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM ground ORDER BY id").map(GamesStore.ground) } }
    }

    static func ground(_ row: Row) -> Ground {
        Ground(id: row["id"], name: row["name"], suburb: row["suburb"], postcode: row["postcode"],
               latitude: row["latitude"], longitude: row["longitude"], approximate: row["approximate"])
    }

    /// The `count` grounds nearest to a point by great-circle distance (ties by id).
    public func nearestGrounds(latitude: Double, longitude: Double, count: Int = 5) throws -> [NearbyGround] {
        try allGrounds()
            .map { NearbyGround(ground: $0, meters: GreatCircle.meters(latitude, longitude, $0.latitude, $0.longitude)) }
            .sorted { ($0.meters, $0.ground.id) < ($1.meters, $1.ground.id) }
            .prefix(count).map { $0 }
    }

    // MARK: Games

    /// Creates a game; `players` counts the organiser.
    @discardableResult
    public func createGame(organiser: GamesUser, groundID: String, startsAt: Double, players: Int, capacity: Int = 22,
                           minimum: Int? = nil, note: String? = nil, now: Double) throws -> Int64 {
        guard (2...50).contains(capacity) else { throw GamesError.badCapacity }
        guard players >= 1, players <= capacity else { throw GamesError.badPlayers }
        if let minimum, !(2...capacity).contains(minimum) { throw GamesError.badMinimum }
        guard startsAt > now else { throw GamesError.inThePast }
        return try guarded {
            try pool.write { db in
                guard try Row.fetchOne(db, sql: "SELECT id FROM ground WHERE id = ?", arguments: [groundID]) != nil else {
                    throw GamesError.unknownGround(groundID)
                }
                let cleanNote = note.map { String($0.prefix(500)) }.flatMap { $0.isEmpty ? nil : $0 }
                try db.execute(sql: """
                    INSERT INTO game (groundId, organiserId, startsAt, players, capacity, minimum, note, status, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)
                    """, arguments: [groundID, organiser.id, startsAt, players, capacity, minimum, cleanNote, now])
                return db.lastInsertedRowID
            }
        }
    }

    /// Books a seat, or a place on the waitlist when the game is full. In one `BEGIN
    /// IMMEDIATE` transaction: concurrent bookers wait for each other and each sees the seats
    /// the previous ones took. Returns "going" or "waitlisted".
    @discardableResult
    public func book(gameID: Int64, user: GamesUser, now: Double) throws -> String {
        try immediate { db in
            let game = try GamesStore.gameRow(db, gameID)
            if (game["status"] as String) == "cancelled" { throw GamesError.gameCancelled }
            if (game["startsAt"] as Double) <= now { throw GamesError.gameStarted }
            if (game["organiserId"] as Int64) == user.id { throw GamesError.organiserCannotBook }
            if let existing = try String.fetchOne(db, sql: "SELECT status FROM booking WHERE gameId = ? AND userId = ?", arguments: [gameID, user.id]),
               existing == "going" || existing == "waitlisted" {
                return existing
            }
            let going = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM booking WHERE gameId = ? AND status = 'going'", arguments: [gameID]) ?? 0
            let players: Int = game["players"], capacity: Int = game["capacity"]
            let status = players + going < capacity ? "going" : "waitlisted"
            try db.execute(sql: """
                INSERT INTO booking (gameId, userId, status, updatedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT(gameId, userId) DO UPDATE SET status = excluded.status, updatedAt = excluded.updatedAt
                """, arguments: [gameID, user.id, status, now])
            return status
        }
    }

    /// Cancels the user's booking; when it held a seat, the first waitlisted player (in the
    /// order they asked) gets it in the same transaction. Returns the promoted user's name.
    @discardableResult
    public func cancelBooking(gameID: Int64, user: GamesUser, now: Double) throws -> String? {
        try immediate { db in
            _ = try GamesStore.gameRow(db, gameID)
            guard let status = try String.fetchOne(db, sql: "SELECT status FROM booking WHERE gameId = ? AND userId = ?", arguments: [gameID, user.id]),
                  status != "cancelled" else { throw GamesError.notBooked }
            try db.execute(sql: "UPDATE booking SET status = 'cancelled', updatedAt = ? WHERE gameId = ? AND userId = ?", arguments: [now, gameID, user.id])
            guard status == "going" else { return nil }
            guard let next = try Row.fetchOne(db, sql: """
                SELECT booking.id, user.name FROM booking JOIN user ON user.id = booking.userId
                WHERE gameId = ? AND status = 'waitlisted' ORDER BY updatedAt, booking.id LIMIT 1
                """, arguments: [gameID]) else { return nil }
            try db.execute(sql: "UPDATE booking SET status = 'going' WHERE id = ?", arguments: [next["id"] as Int64])
            return next["name"]
        }
    }

    /// The organiser cancels the whole game, with a reason every player sees.
    public func cancelGame(gameID: Int64, user: GamesUser, reason: String) throws {
        try immediate { db in
            let game = try GamesStore.gameRow(db, gameID)
            guard (game["organiserId"] as Int64) == user.id else { throw GamesError.notOrganiser }
            if (game["status"] as String) == "cancelled" { throw GamesError.gameCancelled }
            try db.execute(sql: "UPDATE game SET status = 'cancelled', cancelReason = ? WHERE id = ?", arguments: [String(reason.prefix(500)), gameID])
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: the write lock is taken before anything is
    /// read, so two bookers never both see the last free seat.
    private func immediate<T>(_ body: @escaping (Database) throws -> T) throws -> T {
        try guarded {
            try pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    static func gameRow(_ db: Database, _ id: Int64) throws -> Row {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM game WHERE id = ?", arguments: [id]) else { throw GamesError.unknownGame(id) }
        return row
    }

    // MARK: Reading games

    private static let gameSelect = """
        SELECT game.*, ground.name AS groundName, ground.suburb, ground.postcode, ground.latitude, ground.longitude, ground.approximate,
               organiser.name AS organiserName,
               (SELECT COUNT(*) FROM booking b WHERE b.gameId = game.id AND b.status = 'going') AS going,
               (SELECT COUNT(*) FROM booking b WHERE b.gameId = game.id AND b.status = 'waitlisted') AS waitlisted,
               CASE WHEN game.organiserId = :me THEN 'organiser'
                    ELSE (SELECT b.status FROM booking b WHERE b.gameId = game.id AND b.userId = :me AND b.status != 'cancelled') END AS myStatus
        FROM game JOIN ground ON ground.id = game.groundId JOIN user organiser ON organiser.id = game.organiserId
        """

    static func game(_ row: Row) -> Game {
        Game(id: row["id"],
             ground: Ground(id: row["groundId"], name: row["groundName"], suburb: row["suburb"], postcode: row["postcode"],
                            latitude: row["latitude"], longitude: row["longitude"], approximate: row["approximate"]),
             organiser: row["organiserName"], startsAt: row["startsAt"], players: row["players"], capacity: row["capacity"],
             minimum: row["minimum"], note: row["note"], cancelled: (row["status"] as String) == "cancelled",
             cancelReason: row["cancelReason"], going: row["going"], waitlisted: row["waitlisted"], myStatus: row["myStatus"])
    }

    public func game(id: Int64, for user: GamesUser?) throws -> Game {
        try guarded {
            try pool.read { db in
                guard let row = try Row.fetchOne(db, sql: GamesStore.gameSelect + " WHERE game.id = :id",
                                                 arguments: ["me": user?.id ?? -1, "id": id]) else { throw GamesError.unknownGame(id) }
                return GamesStore.game(row)
            }
        }
    }

    /// Games at the given grounds that have not started (cancelled ones included, marked).
    public func games(atGrounds ids: [String], after now: Double, for user: GamesUser?) throws -> [Game] {
        guard !ids.isEmpty else { return [] }
        return try guarded {
            try pool.read { db in
                var arguments: [String: (any DatabaseValueConvertible)?] = ["me": user?.id ?? -1, "now": now]
                var names: [String] = []
                for (i, id) in ids.enumerated() { arguments["g\(i)"] = id; names.append(":g\(i)") }
                return try Row.fetchAll(db, sql: GamesStore.gameSelect + " WHERE game.groundId IN (\(names.joined(separator: ","))) AND game.startsAt > :now ORDER BY game.startsAt, game.id",
                                        arguments: StatementArguments(arguments)).map(GamesStore.game)
            }
        }
    }

    /// The user's games (organised or booked, waitlisted included) from `since`, earliest first.
    public func upcoming(for user: GamesUser, since: Double) throws -> [Game] {
        try guarded {
            try pool.read { db in
                try Row.fetchAll(db, sql: GamesStore.gameSelect + """
                     WHERE game.startsAt >= :since AND (game.organiserId = :me OR EXISTS
                       (SELECT 1 FROM booking b WHERE b.gameId = game.id AND b.userId = :me AND b.status != 'cancelled'))
                     ORDER BY game.startsAt, game.id
                    """, arguments: ["me": user.id, "since": since]).map(GamesStore.game)
            }
        }
    }
}

extension GamesStore {
    /// The user's games that start on the local day of `now` (cancelled ones included, marked).
    public func today(for user: GamesUser, now: Double) throws -> [Game] {
        let day = LocalTime.dayRange(containing: now)
        return try upcoming(for: user, since: day.lowerBound).filter { day.contains($0.startsAt) }
    }
}
