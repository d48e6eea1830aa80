import FoundationEssentials

/// A game as the Games tab shows it (what `locker games … --json` prints).
public struct GameListing: Equatable, Sendable, Decodable {
    public var id: Int64
    public var ground: String
    public var groundName: String
    public var suburb: String
    public var startsAt: String
    public var capacity: Int
    public var players: Int
    public var going: Int
    public var waitlisted: Int
    public var status: String
    public var myStatus: String?
    public var organiser: String
    public var note: String?
    public var cancelReason: String?
    public var map: String

    public init(id: Int64, ground: String, groundName: String, suburb: String, startsAt: String, capacity: Int, players: Int,
                going: Int, waitlisted: Int, status: String, myStatus: String?, organiser: String, note: String?,
                cancelReason: String?, map: String) {
        self.id = id; self.ground = ground; self.groundName = groundName; self.suburb = suburb; self.startsAt = startsAt
        self.capacity = capacity; self.players = players; self.going = going; self.waitlisted = waitlisted; self.status = status
        self.myStatus = myStatus; self.organiser = organiser; self.note = note; self.cancelReason = cancelReason; self.map = map
    }

    /// Seconds since 1970 of the start.
    public var start: Double { FastTime.parse(string: startsAt) ?? 0 }
    /// Seats used: the organiser's players plus going bookings.
    public var seatsUsed: Int { players + going }
}

/// A ground near the searched place.
public struct GroundListing: Equatable, Sendable, Decodable {
    public var id: String
    public var name: String
    public var suburb: String
    public var postcode: String
    public var approximate: Bool
    public var distanceMeters: Double

    public init(id: String, name: String, suburb: String, postcode: String, approximate: Bool, distanceMeters: Double) {
        self.id = id; self.name = name; self.suburb = suburb; self.postcode = postcode
        self.approximate = approximate; self.distanceMeters = distanceMeters
    }
}

/// What the Games tab needs from the games database. The real one runs `locker-games` (which
/// holds the database, see ARCHITECTURE §7j); tests use a fake.
public protocol GamesClient: AnyObject {
    /// The logged-in user's name, or nil.
    func currentUser() throws -> String?
    func signUp(name: String, password: String) throws
    func login(name: String, password: String) throws
    func logout() throws
    func upcoming() throws -> [GameListing]
    /// `place` is a postcode ("3977") or a position ("-38.03,145.34").
    func grounds(place: String) throws -> [GroundListing]
    func games(place: String) throws -> [GameListing]
    func book(_ id: Int64) throws
    func cancel(_ id: Int64) throws
    /// The organiser calls the game off; players see the reason.
    func cancelGame(_ id: Int64, reason: String) throws
    func create(ground: String, localTime: String, players: Int, capacity: Int, minimum: Int?, note: String?) throws -> GameListing
    func exportCalendar(_ id: Int64, to path: String) throws
}

/// A refusal from the games database: one translated sentence, ready to show.
public struct GamesClientError: Error, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Runs `locker-games` for each request and reads its JSON.
public final class ProcessGamesClient: GamesClient {
    let program: String
    let paths: [String]
    let language: () -> Language

    /// `program` is the locker-games executable; the data folder, the games database and the
    /// interface language (read at each request) are passed on as root options.
    public init(program: String, dataDirectory: String, gamesDatabase: String, language: @escaping () -> Language) {
        self.program = program
        paths = ["--data-dir", dataDirectory, "--games-db", gamesDatabase]
        self.language = language
    }

    private var rootArguments: [String] { paths + ["--lang", language().rawValue] }

    @discardableResult
    private func run(_ arguments: [String], input: String? = nil) throws -> String {
        let result: ExternalCommand.Result
        do {
            result = try ExternalCommand.run(program, rootArguments + arguments, input: input)
        } catch {
            throw GamesClientError("locker-games could not be started (\(program)).")
        }
        guard result.status == 0 else {
            var message = result.stderr.split(separator: "\n").first.map(String.init) ?? "locker-games failed (\(result.status))"
            if message.hasPrefix("locker: ") { message.removeFirst(8) }
            throw GamesClientError(message)
        }
        return result.stdout
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(text.utf8)) } catch {
            throw GamesClientError("locker-games printed something unexpected.")
        }
    }

    private struct Who: Decodable { var name: String }

    public func currentUser() throws -> String? {
        let result = try ExternalCommand.run(program, rootArguments + ["games", "whoami", "--json"])
        guard result.status == 0 else { return nil }
        return try? decode(Who.self, result.stdout).name
    }

    public func signUp(name: String, password: String) throws {
        try run(["account", "create", name, "--password-stdin"], input: password + "\n")
    }

    public func login(name: String, password: String) throws {
        try run(["login", name, "--password-stdin"], input: password + "\n")
    }

    public func logout() throws { try run(["logout"]) }

    public func upcoming() throws -> [GameListing] { try decode([GameListing].self, try run(["games", "upcoming", "--json"])) }

    private func placeArguments(_ place: String) -> [String] {
        place.contains(",") ? ["--near", place] : ["--postcode", place]
    }

    public func grounds(place: String) throws -> [GroundListing] {
        try decode([GroundListing].self, try run(["games", "grounds"] + placeArguments(place) + ["--json"]))
    }

    public func games(place: String) throws -> [GameListing] {
        try decode([GameListing].self, try run(["games", "list"] + placeArguments(place) + ["--json"]))
    }

    public func book(_ id: Int64) throws { try run(["games", "book", String(id)]) }

    public func cancel(_ id: Int64) throws { try run(["games", "cancel", String(id)]) }

    public func cancelGame(_ id: Int64, reason: String) throws { try run(["games", "cancel-game", String(id), "--reason", reason]) }

    public func create(ground: String, localTime: String, players: Int, capacity: Int, minimum: Int?, note: String?) throws -> GameListing {
        var arguments = ["games", "create", "--ground", ground, "--at", localTime, "--players", String(players), "--capacity", String(capacity), "--json"]
        if let minimum { arguments += ["--min", String(minimum)] }
        if let note, !note.isEmpty { arguments += ["--note", note] }
        return try decode(GameListing.self, try run(arguments))
    }

    public func exportCalendar(_ id: Int64, to path: String) throws { try run(["games", "ics", String(id), "--out", path]) }
}
