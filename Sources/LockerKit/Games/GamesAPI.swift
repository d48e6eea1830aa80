/// The games API as Swift: one interface with three implementations — the service over a store
/// (what the server runs, and what the commands use on a local SQLite file), the HTTP client of a
/// games server, and the tab's bridge to `locker-games`. Every call throws `GamesError`.
///
/// `token` is the bearer token of the logged-in account (nil where a call works anonymously).
/// A call that changes something answers with the changed game, so nobody needs a second request
/// to learn what happened.
public protocol GamesAPI: Sendable {
    func signUp(_ credentials: Credentials) async throws -> SessionToken
    func login(_ credentials: Credentials) async throws -> SessionToken
    func logout(token: String) async throws
    /// Revokes every session of the token's account, this one included.
    func logoutEverywhere(token: String) async throws
    /// Changes the password after checking the current one; every other session is revoked.
    func changePassword(_ change: PasswordChange, token: String) async throws
    /// Deletes the account after checking its password: its sessions go, its future bookings
    /// are cancelled (the waitlist moves up), its future games are cancelled, and its name is
    /// removed from past games and freed.
    func deleteAccount(password: String, token: String) async throws
    func account(token: String) async throws -> AccountInfo

    /// The 5 grounds nearest to the place.
    func grounds(near place: Place) async throws -> [GroundListing]
    /// Games still to come at the 5 grounds nearest to the place.
    func games(near place: Place, token: String?) async throws -> [GameListing]
    /// The account's games (organised or booked, waitlisted included) from now, earliest first.
    func upcoming(token: String) async throws -> [GameListing]
    func game(_ id: Int64, token: String?) async throws -> GameListing
    /// Who is going and who waits; the organiser only.
    func roster(_ id: Int64, token: String) async throws -> GameRoster

    /// A retried call with the same `idempotencyKey` answers the first call's game again.
    func create(_ game: NewGame, idempotencyKey: String?, token: String) async throws -> GameListing
    func edit(_ id: Int64, _ changes: GameChanges, token: String) async throws -> GameListing
    func cancelGame(_ id: Int64, reason: String, token: String) async throws -> GameListing
    /// A seat, or a place on the waitlist when the game is full (`myStatus` tells which). A
    /// retried call with the same `idempotencyKey` never books twice.
    func book(_ id: Int64, idempotencyKey: String?, token: String) async throws -> GameListing
    /// Gives up a seat (the first player waiting moves up) or leaves the waitlist.
    func cancelBooking(_ id: Int64, token: String) async throws -> GameListing
    /// Removes a game and its bookings altogether (spam): administrators only.
    func removeGame(_ id: Int64, token: String) async throws

    /// The changes after `sequence`, as they happen, until the task is cancelled.
    func changes(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error>
    /// The changes and, for a store across a network, whether it can be reached: `reachable`
    /// once the feed is open (again), `unreachable` as soon as it cannot be (once per outage).
    func feed(after sequence: Int64?) -> AsyncThrowingStream<GamesFeedEvent, Error>
}

/// What the live feed tells: a change, or that the store can be reached again or no longer.
/// `server` is the server's address, nil for the local games file.
public enum GamesFeedEvent: Codable, Equatable, Sendable {
    case change(GamesChange)
    case reachable(server: String?)
    case unreachable(server: String?)

    /// On the helper's pipe a change is `{"change":{"event":{…}}}`.
    enum ChangeCodingKeys: String, CodingKey { case _0 = "event" }
}

extension GamesAPI {
    /// A store on this machine is always reachable: its changes, after one `reachable`.
    public func feed(after sequence: Int64?) -> AsyncThrowingStream<GamesFeedEvent, Error> {
        let changes = self.changes(after: sequence)
        return AsyncThrowingStream { continuation in
            let task = Task {
                continuation.yield(.reachable(server: nil))
                do {
                    for try await change in changes { continuation.yield(.change(change)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Limits every implementation checks the same way.
public enum GamesLimits {
    public static let usernameLength = 3...32
    public static let passwordLength = 8...200
    public static let noteLength = 500
    public static let reasonLength = 500
    public static let capacity = 2...50
    /// The largest request body the server reads.
    public static let bodyBytes = 16 * 1024
    /// How long a token lasts.
    public static let tokenSeconds = 30 * 86_400.0
    /// How far ahead a game can be planned.
    public static let planningSeconds = 731 * 86_400.0
    /// The most grounds one import may bring, and the most a store holds.
    public static let groundsPerImport = 5_000
    public static let grounds = 20_000
    /// A note or reason in bytes (UTF-8) as well as in characters: combining marks stack.
    public static let noteBytes = 2_000
    /// Games one account may create in an hour.
    public static let gamesPerHour = 10
    /// Failed log-ins are counted three ways, each with its own free failures and longest
    /// wait: per name and address together (what slows a guesser), per address (one address
    /// guessing many names), and per name from every address (a ceiling far above what an owner
    /// meets, against guessing from many addresses). An owner at another address than the
    /// guesser's is never slowed by the first two. An owner who names a device that logged in
    /// to this name before (OWASP's device cookie) is counted per device instead of per name,
    /// so guesses from everywhere else never hold them back.
    public static let pairThrottle = LoginThrottle(free: 3, cap: 15 * 60)
    public static let addressThrottle = LoginThrottle(free: 10, cap: 15 * 60)
    public static let nameThrottle = LoginThrottle(free: 100, cap: 60)
    public static let deviceThrottle = LoginThrottle(free: 5, cap: 15 * 60)
    /// A device not used to log in for this long is forgotten.
    public static let deviceSeconds = 180.0 * 86_400
    /// Failures older than this are forgotten.
    public static let failureMemorySeconds = 3_600.0
    /// A ground's id in bytes.
    public static let groundIDBytes = 100
    /// A password in bytes (UTF-8) as well as in characters: the hash function takes at most 512.
    public static let passwordBytes = 400

    /// 3–32 ASCII letters, digits, `.`, `_` or `-`, not starting with `-` or `.`.
    public static func isValidUsername(_ name: String) -> Bool {
        usernameLength.contains(name.count) && name.first.map { $0 != "-" && $0 != "." } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
    }

    /// 8–200 characters, at most `passwordBytes` bytes, none of them a control character.
    public static func isValidPassword(_ password: String) -> Bool {
        passwordLength.contains(password.count) && password.utf8.count <= passwordBytes && !hasForbiddenCharacters(password)
    }

    /// Whether `text` holds a character no field of the games API takes: a control character
    /// (C0 such as NUL, newline and tab; DEL; C1) or a bidirectional control, which can make a
    /// name or a note read differently from what it is.
    public static func hasForbiddenCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            let value = scalar.value
            return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x061C || value == 0x200E || value == 0x200F
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
    }
}

/// Waits after failed log-ins: `free` failures cost nothing, then each further attempt waits
/// twice as long as the one before (1 s, 2 s, 4 s…), at most `cap` seconds.
public struct LoginThrottle: Sendable {
    public let free: Int
    public let cap: Double

    /// The wait after `failures` failures in a row.
    public func delay(failures: Int) -> Double {
        failures < free ? 0 : min(cap, Double(1 << min(failures - free, 20)))
    }
}
