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
    /// Failed log-ins without any wait; each one after doubles the wait (1 s, 2 s, 4 s…).
    public static let freeFailures = 3
    /// The longest wait for one name (short: anyone can make it wait) and for one address.
    public static let nameDelayCap = 60.0
    public static let sourceDelayCap = 15 * 60.0
    /// Failures older than this are forgotten.
    public static let failureMemorySeconds = 3_600.0

    /// The wait after `failures` failed log-ins in a row, capped at `cap` seconds.
    public static func loginDelay(failures: Int, cap: Double) -> Double {
        failures < freeFailures ? 0 : min(cap, Double(1 << min(failures - freeFailures, 20)))
    }

    /// 3–32 ASCII letters, digits, `.`, `_` or `-`, not starting with `-` or `.`.
    public static func isValidUsername(_ name: String) -> Bool {
        usernameLength.contains(name.count) && name.first.map { $0 != "-" && $0 != "." } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
    }

    /// 8–200 characters, none of them a control character (NUL, newline…).
    public static func isValidPassword(_ password: String) -> Bool {
        passwordLength.contains(password.count) && !password.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
