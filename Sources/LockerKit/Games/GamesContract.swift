import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// The games API's records: what the server sends and accepts, what the typed client returns and
// what the Games tab shows. One copy of each, shared by the server, the client, the command line
// and the tab; `docs/games-api.yaml` (OpenAPI 3.1) describes the same shapes for other clients.

/// The version of the games API this Locker speaks: every path starts with `/v1`.
public enum GamesAPIVersion {
    public static let current = 1
    public static let pathPrefix = "/v1"
    /// The header a client sends its version in; a server that does not speak it answers
    /// `unsupported_version`.
    public static let header = "Locker-API-Version"
}

/// Where a game stands.
public enum GameStatus: String, Codable, Sendable, CaseIterable {
    case open
    case full
    case needsPlayers = "needs-players"
    case cancelled

    /// The status a game's figures give: cancelled above all, then full when every seat is
    /// used, then short of its minimum, else open.
    public init(cancelled: Bool, seatsUsed: Int, capacity: Int, minimum: Int?) {
        if cancelled { self = .cancelled }
        else if seatsUsed >= capacity { self = .full }
        else if let minimum, seatsUsed < minimum { self = .needsPlayers }
        else { self = .open }
    }
}

/// The asking player's part in a game.
public enum PlayerPart: String, Codable, Sendable, CaseIterable {
    case organiser, going, waitlisted
}

/// A game as the API returns it.
public struct GameListing: Equatable, Sendable, Codable {
    public var id: Int64
    public var ground: String
    public var groundName: String
    public var suburb: String
    public var postcode: String
    public var latitude: Double
    public var longitude: Double
    /// True when the ground's position is only its suburb's centre (nil from a server that does
    /// not say).
    public var approximate: Bool?
    /// The start as an RFC 3339 instant in UTC ("2026-12-05T23:00:00Z").
    public var startsAt: String
    /// The ground's time zone (IANA, "Australia/Melbourne"): games happen at the ground.
    public var timeZone: String
    /// The start on the ground's clock, with its offset then ("2026-12-06T10:00:00+11:00").
    public var localStart: String
    public var capacity: Int
    /// Players the organiser already has (the organiser included).
    public var players: Int
    public var minimum: Int?
    public var going: Int
    public var waitlisted: Int
    public var status: GameStatus
    /// The asking player's part; nil when they have none (or nobody is logged in).
    public var myStatus: PlayerPart?
    public var organiser: String
    public var note: String?
    public var cancelReason: String?
    /// The asking player's place in the waitlist (1: next to get a seat); nil when not waiting.
    public var waitlistPosition: Int?
    /// An OpenStreetMap link to the ground.
    public var map: String

    public init(id: Int64, ground: String, groundName: String, suburb: String, postcode: String = "", latitude: Double = 0,
                longitude: Double = 0, startsAt: String, timeZone: String = "UTC", localStart: String = "", capacity: Int, players: Int,
                minimum: Int? = nil, going: Int, waitlisted: Int, status: GameStatus, myStatus: PlayerPart?, organiser: String,
                note: String?, cancelReason: String?, waitlistPosition: Int? = nil, map: String, approximate: Bool? = nil) {
        self.id = id; self.ground = ground; self.groundName = groundName; self.suburb = suburb; self.startsAt = startsAt
        self.timeZone = timeZone; self.localStart = localStart
        self.postcode = postcode; self.latitude = latitude; self.longitude = longitude
        self.capacity = capacity; self.players = players; self.minimum = minimum; self.going = going; self.waitlisted = waitlisted
        self.status = status; self.myStatus = myStatus; self.organiser = organiser; self.note = note
        self.cancelReason = cancelReason; self.waitlistPosition = waitlistPosition; self.map = map
        self.approximate = approximate
    }

    /// Seconds since 1970 of the start.
    public var start: Double { Instant.parse(startsAt) ?? 0 }
    /// Seats used: the organiser's players plus going bookings.
    public var seatsUsed: Int { players + going }

    /// The same game with its status worked out again from its figures.
    public func withStatusRecomputed() -> GameListing {
        var game = self
        game.status = GameStatus(cancelled: status == .cancelled, seatsUsed: seatsUsed, capacity: capacity, minimum: minimum)
        return game
    }
}

/// A ground (park, reserve, oval) where games are played.
public struct Ground: Equatable, Sendable, Codable {
    /// Where games are played when a ground names no zone (the bundled grounds are in Casey).
    public static let defaultZone = "Australia/Melbourne"

    public var id: String
    public var name: String
    public var suburb: String
    public var postcode: String
    public var latitude: Double
    public var longitude: Double
    /// True when the position is only the suburb's centre or otherwise not surveyed.
    public var approximate: Bool
    /// The ground's time zone (IANA): game times there are read and shown on its clock.
    public var timeZone: String

    public init(id: String, name: String, suburb: String, postcode: String, latitude: Double, longitude: Double, approximate: Bool,
                timeZone: String = Ground.defaultZone) {
        self.id = id; self.name = name; self.suburb = suburb; self.postcode = postcode
        self.latitude = latitude; self.longitude = longitude; self.approximate = approximate; self.timeZone = timeZone
    }
}

/// A ground near the searched place: the ground and how far it is. On the wire its fields sit
/// side by side with `distanceMeters`; in code they are read through it (`listing.name`).
@dynamicMemberLookup
public struct GroundListing: Equatable, Sendable, Codable {
    public var ground: Ground
    public var distanceMeters: Double
    /// The ground's offset from UTC, in seconds, when the list was read (nil from a server that
    /// does not say): what the ground's clock shows now, to flag a time in the past as it is typed.
    public var utcOffsetSeconds: Int?

    public init(id: String, name: String, suburb: String, postcode: String, latitude: Double = 0, longitude: Double = 0,
                approximate: Bool, distanceMeters: Double, timeZone: String = "UTC", utcOffsetSeconds: Int? = nil) {
        ground = Ground(id: id, name: name, suburb: suburb, postcode: postcode, latitude: latitude, longitude: longitude,
                        approximate: approximate, timeZone: timeZone)
        self.distanceMeters = distanceMeters
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public subscript<Value>(dynamicMember field: KeyPath<Ground, Value>) -> Value { ground[keyPath: field] }

    private enum CodingKeys: String, CodingKey { case distanceMeters, utcOffsetSeconds }

    public init(from decoder: Decoder) throws {
        ground = try Ground(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        distanceMeters = try container.decode(Double.self, forKey: .distanceMeters)
        utcOffsetSeconds = try container.decodeIfPresent(Int.self, forKey: .utcOffsetSeconds)
    }

    public func encode(to encoder: Encoder) throws {
        try ground.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(distanceMeters, forKey: .distanceMeters)
        try container.encodeIfPresent(utcOffsetSeconds, forKey: .utcOffsetSeconds)
    }
}

/// Who is going and who waits, for the game's organiser (waitlist in the order it moves up).
public struct GameRoster: Equatable, Sendable, Codable {
    public struct Entry: Equatable, Sendable, Codable {
        public var name: String
        /// When they booked, RFC 3339 UTC.
        public var since: String
        public init(name: String, since: String) { self.name = name; self.since = since }
    }
    public var game: Int64
    public var going: [Entry]
    public var waitlisted: [Entry]
    public init(game: Int64, going: [Entry], waitlisted: [Entry]) { self.game = game; self.going = going; self.waitlisted = waitlisted }
}

/// A password change: the current password and the new one.
public struct PasswordChange: Equatable, Sendable, Codable {
    public var current: String
    public var new: String
    public init(current: String, new: String) { self.current = current; self.new = new }
}

/// The password that confirms an account's deletion.
public struct AccountDeletion: Equatable, Sendable, Codable {
    public var password: String
    public init(password: String) { self.password = password }
}

/// A username and password (sign-up and log-in bodies).
public struct Credentials: Equatable, Sendable, Codable {
    public var name: String
    public var password: String
    /// At a log-in: the device token an earlier log-in or sign-up of this name gave this client.
    public var device: String?
    public init(name: String, password: String, device: String? = nil) { self.name = name; self.password = password; self.device = device }
}

/// A bearer token for the account `name`, valid until `expiresAt` (RFC 3339 UTC). The server
/// keeps only its hash.
public struct SessionToken: Equatable, Sendable, Codable {
    public var token: String
    public var name: String
    public var expiresAt: String
    /// This device's token for the name (32 hex digits), to give back at the next log-in: a
    /// log-in naming it is not held by the name-wide count of failed log-ins. Older servers
    /// send none.
    public var device: String?
    public init(token: String, name: String, expiresAt: String, device: String? = nil) {
        self.token = token; self.name = name; self.expiresAt = expiresAt; self.device = device
    }
}

/// The logged-in account.
public struct AccountInfo: Equatable, Sendable, Codable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// A game to create. `startsAt` is a time on the ground's clock ("2026-12-05T10:00", read in
/// the ground's time zone) or an RFC 3339 instant with its offset ("2026-12-05T10:00:00+11:00").
public struct NewGame: Equatable, Sendable, Codable {
    public var ground: String
    public var startsAt: String
    public var players: Int
    public var capacity: Int
    public var minimum: Int?
    public var note: String?
    public init(ground: String, startsAt: String, players: Int, capacity: Int = 22, minimum: Int? = nil, note: String? = nil) {
        self.ground = ground; self.startsAt = startsAt; self.players = players; self.capacity = capacity
        self.minimum = minimum; self.note = note
    }

    enum CodingKeys: String, CodingKey { case ground, startsAt, players, capacity, minimum, note }

    /// What is wrong with the game's numbers (capacity, players already there, minimum), nil
    /// when nothing: the store refuses the game with it, and the command line says it before
    /// sending anything (a usage error).
    public static func numbersProblem(players: Int, capacity: Int, minimum: Int?) -> GamesError? {
        guard GamesLimits.capacity.contains(capacity) else { return .badCapacity }
        guard players >= 1, players <= capacity else { return .badPlayers }
        if let minimum, !(2...capacity).contains(minimum) { return .badMinimum }
        return nil
    }

    /// `capacity` may be left out: 22, a cricket match of two elevens.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ground = try c.decode(String.self, forKey: .ground)
        startsAt = try c.decode(String.self, forKey: .startsAt)
        players = try c.decode(Int.self, forKey: .players)
        capacity = try c.decodeIfPresent(Int.self, forKey: .capacity) ?? 22
        minimum = try c.decodeIfPresent(Int.self, forKey: .minimum)
        note = try c.decodeIfPresent(String.self, forKey: .note)
    }
}

/// What an organiser changes in a game; absent fields stay. An empty note removes the note.
public struct GameChanges: Equatable, Sendable, Codable {
    public var startsAt: String?
    public var capacity: Int?
    public var note: String?
    public init(startsAt: String? = nil, capacity: Int? = nil, note: String? = nil) {
        self.startsAt = startsAt; self.capacity = capacity; self.note = note
    }
    public var isEmpty: Bool { startsAt == nil && capacity == nil && note == nil }
}

/// The organiser calls a game off; the players see the reason.
public struct GameCancellation: Equatable, Sendable, Codable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
}

/// Where to look: a Casey postcode ("3977") or a position.
public enum Place: Equatable, Sendable {
    case postcode(String)
    case position(latitude: Double, longitude: Double)

    /// Reads "3977" or "-38.03,145.34" (spaces around the values are ignored, not inside them);
    /// nil when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { part -> Substring in
                let start = part.drop { $0.isWhitespace }
                return start.dropLast(start.reversed().prefix { $0.isWhitespace }.count)
            }
        let code = parts.count == 1 ? String(parts[0]) : ""
        if parts.count == 2, Place.isDecimal(parts[0]), Place.isDecimal(parts[1]), let lat = Double(parts[0]), let lon = Double(parts[1]),
           (-90...90).contains(lat), (-180...180).contains(lon) {
            self = .position(latitude: lat, longitude: lon)
        } else if code.utf8.count == 4, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            self = .postcode(code)
        } else {
            return nil
        }
    }

    /// Plain decimal degrees: an optional sign, 1–4 digits (`090` too), an optional fraction. No hexadecimal
    /// (`0x10`), exponent, `inf` or `nan`, which `Double` would also read.
    static func isDecimal(_ text: Substring) -> Bool {
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : text
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return (1...4).contains(parts[0].count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 15 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// "3977" or "-38.03,145.34", as a search is shown and sent.
    public var text: String {
        switch self {
        case .postcode(let code): return code
        case .position(let lat, let lon): return "\(lat),\(lon)"
        }
    }
}

/// What changed in the games store (the live feed: `GET /v1/events`).
public struct GamesChange: Equatable, Sendable, Codable {
    public enum Kind: String, Codable, Sendable {
        case created, edited, booked, unbooked, cancelled
        /// Not a change of one game: the client fell too far behind to be told every change it
        /// missed (`catchUpLimit`), and reads its lists again instead. `sequence`
        /// is where the feed stands; `game` is 0 and `ground` empty.
        case reload
    }
    /// Increases with every change; a client resumes after the last one it saw.
    public var sequence: Int64
    public var kind: Kind
    public var game: Int64
    public var ground: String
    public init(sequence: Int64, kind: Kind, game: Int64, ground: String) {
        self.sequence = sequence; self.kind = kind; self.game = game; self.ground = ground
    }

    /// The most missed changes a resuming client is sent one by one; further behind, it gets
    /// one `reload` instead.
    public static let catchUpLimit = 1000

    public static func reload(at sequence: Int64) -> GamesChange {
        GamesChange(sequence: sequence, kind: .reload, game: 0, ground: "")
    }
}

/// RFC 3339 instants, strictly: a date that exists, a time, and `Z` or an offset.
public enum Instant {
    /// "2026-12-05T23:00:00Z" for seconds since 1970.
    public static func string(_ seconds: Double) -> String {
        WallTime(clockSeconds: seconds).text + "Z"
    }

    /// Seconds since 1970, or nil when the text is not an instant (no offset, 31 April, 25:00…).
    public static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 35, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74,
              let last = bytes.last, last == 0x5A || last == 0x7A || bytes.count >= 25 else { return nil }
        guard let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)),
              let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)),
              let day = Int(String(decoding: bytes[8..<10], as: UTF8.self)), (1...12).contains(month),
              day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        // A time on the clock: 00:00:00 to 23:59:59 (the workout files' reader, which this
        // shares, takes 24:00 and leap seconds; an instant here does not).
        guard bytes[13] == 0x3A, bytes[16] == 0x3A,
              let hour = Int(String(decoding: bytes[11..<13], as: UTF8.self)),
              let minute = Int(String(decoding: bytes[14..<16], as: UTF8.self)),
              let second = Int(String(decoding: bytes[17..<19], as: UTF8.self)),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        // A fraction of a second has 1 to 9 digits (nanoseconds at most).
        if bytes.count > 19, bytes[19] == 0x2E {
            let digits = bytes[20...].prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            guard (1...9).contains(digits) else { return nil }
        }
        // An offset exists only within ±14:00 (Kiribati's +14:00 is the largest in use).
        if last != 0x5A && last != 0x7A {
            let offset = bytes.suffix(6)
            guard offset.first == 0x2B || offset.first == 0x2D, Array(offset)[3] == 0x3A,
                  let hours = Int(String(decoding: offset.dropFirst().prefix(2), as: UTF8.self)),
                  let minutes = Int(String(decoding: offset.suffix(2), as: UTF8.self)),
                  minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
        }
        guard let seconds = FastTime.parse(string: text) else { return nil }
        return seconds
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
