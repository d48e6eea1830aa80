import FoundationEssentials

/// The stable code of a games API refusal (the `code` member of its problem document).
public enum ProblemCode: String, Codable, Sendable, CaseIterable {
    case notLoggedIn = "not_logged_in"
    case wrongCredentials = "wrong_credentials"
    case lockedOut = "locked_out"
    case forbidden
    case notFound = "not_found"
    /// The path exists, but not with this method (the `Allow` header lists those it has).
    case methodNotAllowed = "method_not_allowed"
    case validation
    /// The request could not be read as HTTP at all.
    case badRequest = "bad_request"
    case conflict
    case unsupportedVersion = "unsupported_version"
    case tooLarge = "too_large"
    case rateLimited = "rate_limited"
    case unavailable
    case `internal`

    /// The HTTP status that carries it.
    public var httpStatus: Int {
        switch self {
        case .notLoggedIn, .wrongCredentials: return 401
        case .lockedOut: return 423
        case .forbidden: return 403
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .validation: return 422
        case .conflict: return 409
        case .unsupportedVersion, .badRequest: return 400
        case .tooLarge: return 413
        case .rateLimited: return 429
        case .unavailable: return 503
        case .internal: return 500
        }
    }
}

/// An `application/problem+json` document (RFC 9457) with Locker's extension members: `code`
/// always, `field` for `validation`, `reason` for `conflict` and `not_found`, `lockedUntil` for
/// `locked_out`, `retryAfter` for `rate_limited`.
public struct Problem: Codable, Equatable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var code: ProblemCode
    public var detail: String?
    public var field: String?
    public var reason: String?
    public var lockedUntil: String?
    public var retryAfter: Int?

    public init(code: ProblemCode, title: String, detail: String? = nil, field: String? = nil, reason: String? = nil,
                lockedUntil: String? = nil, retryAfter: Int? = nil) {
        type = "https://locker.invalid/problems/" + code.rawValue
        self.title = title; status = code.httpStatus; self.code = code; self.detail = detail
        self.field = field; self.reason = reason; self.lockedUntil = lockedUntil; self.retryAfter = retryAfter
    }
}

/// Why a games request was refused, on either side of the wire: the store and the server throw
/// it, the server sends it as a `Problem`, the client reads it back into the same case, and the
/// tab and the commands show `message(_:)` in the user's language.
public enum GamesError: Error, Equatable, Sendable {
    case database(String)
    /// The data folder (sessions, the local games file) cannot be created or written.
    case dataFolderUnwritable(String)
    case newerSchema
    case badUsername
    case badPassword
    case usernameTaken
    /// The same message for an unknown user and a wrong password.
    case wrongCredentials
    /// Failed log-ins make this attempt wait until `until`; `by` is the count that held it.
    case locked(until: Double, by: LoginCount = .pair)
    /// No account has this name (said on the store itself, never to a stranger).
    case noSuchAccount(String)
    case notLoggedIn
    case unknownGround(String)
    case unknownGame(Int64)
    case inThePast
    case tooFarAhead
    case badTime
    /// An import would change grounds already in the store (their ids), and was not told to.
    case groundsWouldChange([String])
    /// An import brings more grounds than one import or the store may hold.
    case tooManyGrounds(limit: Int)
    /// The password is one of the most used ones (the bundled list).
    case commonPassword
    /// The sign-up form's two passwords differ (checked before anything is sent).
    case passwordsDiffer
    /// The account made too many games lately; it may make another in this many seconds.
    case tooManyGames(retryAfter: Int)
    /// Only an administrator may do this.
    case adminOnly
    /// The local games file belongs to another Unix user.
    case sharedLocalStore(path: String)
    /// The time falls in the hour skipped when the ground's clocks go forward.
    case timeInGap
    case badPlayers
    case badCapacity
    case badMinimum
    case noteTooLong
    case reasonMissing
    case gameCancelled
    case gameStarted
    case notOrganiser
    case organiserCannotBook
    case notBooked
    case badPostcode(String)
    case noSuchPostcode(String)
    /// A field the server does not accept (malformed body, wrong type, unknown field).
    case invalid(field: String)
    /// A text field holds a control or bidirectional-control character.
    case forbiddenCharacters(field: String)
    case tooLarge
    /// The request could not be read as HTTP (a damaged head).
    case malformedRequest
    case rateLimited(seconds: Int)
    /// The account (or, signed out, the address) already follows the live feed on as many
    /// streams as it may.
    case tooManyStreams
    case unsupportedVersion
    /// The server could not be reached or did not answer in time, and why.
    case unreachable(Unreachable)
    /// The games server cannot reach its PostgreSQL store (said by the server, within seconds).
    case storeUnreachable
    /// The games server says it cannot serve requests just now (503 for another reason).
    case serverUnavailable
    /// The games server turned the request away unread: it holds as many connections as it
    /// may (from this address, or in all). `retryAfter` seconds; `tries` made by the client.
    case serverBusy(retryAfter: Int, tries: Int = 1)
    /// The server answered something this client does not understand.
    case badResponse
    case serverFailed
    /// `--games-server` is not an http:// or https:// address.
    case badServerAddress(String)
    /// Plain http:// to another machine, without `--games-server-insecure`.
    case insecureServer(String)
    /// The server's certificate is signed by no authority this machine trusts (its host).
    case untrustedCertificate(String)
    /// The server's certificate is valid but for another name (its host).
    case certificateForAnotherName(String)
    /// A `--games-ca` / `SSL_CERT_FILE` file holds no PEM certificate.
    case badCertificateFile(String)

    // MARK: The wire

    /// The problem document the server sends for this error.
    public var problem: Problem {
        let english = message(.english)
        switch self {
        case .database(let reason): return Problem(code: .unavailable, title: english, detail: reason, reason: "database")
        case .dataFolderUnwritable(let path): return Problem(code: .unavailable, title: english, detail: path, reason: "data_folder")
        case .newerSchema: return Problem(code: .unavailable, title: english, reason: "newer_schema")
        case .unreachable(let why): return Problem(code: .unavailable, title: english, detail: why.wire, reason: "unreachable")
        case .serverUnavailable: return Problem(code: .unavailable, title: english, retryAfter: 30)
        case .serverBusy(let seconds, _): return Problem(code: .unavailable, title: english, reason: "busy", retryAfter: seconds)
        case .storeUnreachable: return Problem(code: .unavailable, title: english, reason: "store", retryAfter: 5)
        case .serverFailed, .badResponse, .badServerAddress, .insecureServer: return Problem(code: .internal, title: english)
        case .untrustedCertificate(let host): return Problem(code: .unavailable, title: english, detail: host, reason: "untrusted_certificate")
        case .certificateForAnotherName(let host): return Problem(code: .unavailable, title: english, detail: host, reason: "certificate_name")
        case .badCertificateFile(let file): return Problem(code: .unavailable, title: english, detail: file, reason: "certificate_file")
        case .badUsername: return Problem(code: .validation, title: english, field: "name")
        case .badPassword: return Problem(code: .validation, title: english, field: "password")
        case .inThePast: return Problem(code: .validation, title: english, field: "startsAt", reason: "past")
        case .tooFarAhead: return Problem(code: .validation, title: english, field: "startsAt", reason: "too_far")
        case .badTime: return Problem(code: .validation, title: english, field: "startsAt")
        case .timeInGap: return Problem(code: .validation, title: english, field: "startsAt", reason: "gap")
        case .commonPassword: return Problem(code: .validation, title: english, field: "password", reason: "common")
        case .passwordsDiffer: return Problem(code: .validation, title: english, field: "confirmation")
        case .tooManyGames(let seconds): return Problem(code: .rateLimited, title: english, reason: "games", retryAfter: seconds)
        case .adminOnly: return Problem(code: .forbidden, title: english, reason: "admin")
        case .groundsWouldChange(let ids): return Problem(code: .conflict, title: english, detail: ids.joined(separator: ","), reason: "grounds_exist")
        case .tooManyGrounds: return Problem(code: .validation, title: english, field: "grounds")
        case .sharedLocalStore(let path): return Problem(code: .unavailable, title: english, detail: path, reason: "shared_file")
        case .badPlayers: return Problem(code: .validation, title: english, field: "players")
        case .badCapacity: return Problem(code: .validation, title: english, field: "capacity")
        case .badMinimum: return Problem(code: .validation, title: english, field: "minimum")
        case .noteTooLong: return Problem(code: .validation, title: english, field: "note")
        case .reasonMissing: return Problem(code: .validation, title: english, field: "reason")
        case .badPostcode(let text): return Problem(code: .validation, title: english, detail: text, field: "postcode")
        case .invalid(let field): return Problem(code: .validation, title: english, field: field)
        case .forbiddenCharacters(let field): return Problem(code: .validation, title: english, field: field, reason: "characters")
        case .usernameTaken: return Problem(code: .conflict, title: english, reason: "username_taken")
        case .gameCancelled: return Problem(code: .conflict, title: english, reason: "game_cancelled")
        case .gameStarted: return Problem(code: .conflict, title: english, reason: "game_started")
        case .organiserCannotBook: return Problem(code: .conflict, title: english, reason: "organiser")
        case .notBooked: return Problem(code: .conflict, title: english, reason: "not_booked")
        case .notOrganiser: return Problem(code: .forbidden, title: english, reason: "not_organiser")
        case .wrongCredentials: return Problem(code: .wrongCredentials, title: english)
        case .locked(let until, let count): return Problem(code: .lockedOut, title: english, reason: count.rawValue, lockedUntil: Instant.string(until))
        case .noSuchAccount(let name): return Problem(code: .notFound, title: english, detail: name, reason: "account")
        case .notLoggedIn: return Problem(code: .notLoggedIn, title: english)
        case .unknownGround(let id): return Problem(code: .notFound, title: english, detail: id, reason: "ground")
        case .unknownGame(let id): return Problem(code: .notFound, title: english, detail: String(id), reason: "game")
        case .noSuchPostcode(let code): return Problem(code: .notFound, title: english, detail: code, reason: "postcode")
        case .tooLarge: return Problem(code: .tooLarge, title: english)
        case .malformedRequest: return Problem(code: .badRequest, title: english)
        case .rateLimited(let seconds): return Problem(code: .rateLimited, title: english, retryAfter: seconds)
        case .tooManyStreams: return Problem(code: .rateLimited, title: english, reason: "streams", retryAfter: 60)
        case .unsupportedVersion: return Problem(code: .unsupportedVersion, title: english)
        }
    }

    /// The error a problem document stands for; one this client does not know (a newer
    /// server's) falls back to its code's general meaning.
    public init(problem p: Problem) {
        if p.code == .validation, p.reason == "characters" {
            self = .forbiddenCharacters(field: p.field ?? "")
            return
        }
        switch (p.code, p.field ?? p.reason ?? "") {
        case (.validation, "name"): self = .badUsername
        case (.validation, "password"): self = p.reason == "common" ? .commonPassword : .badPassword
        case (.validation, "startsAt"):
            switch p.reason {
            case "past": self = .inThePast
            case "too_far": self = .tooFarAhead
            case "gap": self = .timeInGap
            default: self = .badTime
            }
        case (.validation, "players"): self = .badPlayers
        case (.validation, "capacity"): self = .badCapacity
        case (.validation, "minimum"): self = .badMinimum
        case (.validation, "note"): self = .noteTooLong
        case (.validation, "reason"): self = .reasonMissing
        case (.validation, "postcode"): self = .badPostcode(p.detail ?? "")
        case (.validation, let field): self = .invalid(field: field)
        case (.conflict, "username_taken"): self = .usernameTaken
        case (.conflict, "game_cancelled"): self = .gameCancelled
        case (.conflict, "game_started"): self = .gameStarted
        case (.conflict, "organiser"): self = .organiserCannotBook
        case (.conflict, "not_booked"): self = .notBooked
        case (.conflict, _): self = .invalid(field: p.reason ?? "")
        case (.forbidden, "admin"): self = .adminOnly
        case (.forbidden, _): self = .notOrganiser
        case (.wrongCredentials, _): self = .wrongCredentials
        case (.lockedOut, _): self = .locked(until: p.lockedUntil.flatMap(Instant.parse) ?? 0,
                                             by: p.reason.flatMap(LoginCount.init(rawValue:)) ?? .pair)
        case (.notLoggedIn, _): self = .notLoggedIn
        case (.methodNotAllowed, _): self = .invalid(field: "method")
        case (.notFound, "ground"): self = .unknownGround(p.detail ?? "")
        case (.notFound, "postcode"): self = .noSuchPostcode(p.detail ?? "")
        case (.notFound, "account"): self = .noSuchAccount(p.detail ?? "")
        case (.notFound, _): self = .unknownGame(Int64(p.detail ?? "") ?? 0)
        case (.tooLarge, _): self = .tooLarge
        case (.badRequest, _): self = .malformedRequest
        case (.rateLimited, "games"): self = .tooManyGames(retryAfter: p.retryAfter ?? 60)
        case (.rateLimited, "streams"): self = .tooManyStreams
        case (.rateLimited, _): self = .rateLimited(seconds: p.retryAfter ?? 60)
        case (.unsupportedVersion, _): self = .unsupportedVersion
        case (.unavailable, "store"): self = .storeUnreachable
        case (.unavailable, "busy"): self = .serverBusy(retryAfter: p.retryAfter ?? 1)
        case (.unavailable, "database"): self = .database(p.detail ?? "")
        case (.unavailable, "data_folder"): self = .dataFolderUnwritable(p.detail ?? "")
        case (.unavailable, "newer_schema"): self = .newerSchema
        case (.unavailable, "unreachable"): self = .unreachable(Unreachable(wire: p.detail ?? ""))
        case (.unavailable, "shared_file"): self = .sharedLocalStore(path: p.detail ?? "")
        case (.unavailable, "untrusted_certificate"): self = .untrustedCertificate(p.detail ?? "")
        case (.unavailable, "certificate_name"): self = .certificateForAnotherName(p.detail ?? "")
        case (.unavailable, "certificate_file"): self = .badCertificateFile(p.detail ?? "")
        case (.unavailable, _): self = .serverUnavailable
        case (.internal, _): self = .serverFailed
        }
    }

    // MARK: Words

    /// One sentence in the interface language.
    public func message(_ l: Localizer) -> String {
        switch self {
        case .database(let reason):
            let said = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return l.t("The games database cannot be used: {reason}.", ["reason": TerminalText.inert(said)])
        case .dataFolderUnwritable(let path): return l.t("The data folder {path} cannot be written.", ["path": path])
        case .newerSchema: return l.t("The games database was written by a newer Locker; update Locker to use it. Nothing was changed.")
        case .badUsername: return l.t("A username has 3 to 32 characters: letters, digits, dot, underscore or hyphen.")
        case .badPassword: return l.t("A password has 8 to 200 characters and no control characters.")
        case .usernameTaken: return l.t("That username is taken.")
        case .wrongCredentials: return l.t("Wrong username or password.")
        case .locked(let until, let count):
            // Says which count held the attempt, so it never blames an address it did not count.
            let seconds = max(1, Int(min(1e9, max(0, until - Date().timeIntervalSince1970)).rounded(.up)))
            switch count {
            case .pair:
                return l.n("Too many failed log-ins from here for this name: try again in {count} second.",
                           "Too many failed log-ins from here for this name: try again in {count} seconds.", count: seconds)
            case .address:
                return l.n("Too many failed log-ins from this address: try again in {count} second.",
                           "Too many failed log-ins from this address: try again in {count} seconds.", count: seconds)
            case .name:
                return l.n("Too many failed log-ins for this name from many places: try again in {count} second, or log in from a device you used before.",
                           "Too many failed log-ins for this name from many places: try again in {count} seconds, or log in from a device you used before.", count: seconds)
            case .device:
                return l.n("Too many failed log-ins for this name on this device: try again in {count} second.",
                           "Too many failed log-ins for this name on this device: try again in {count} seconds.", count: seconds)
            }
        case .noSuchAccount(let name): return l.t("There is no account “{name}”.", ["name": TerminalText.inert(name)])
        case .notLoggedIn: return l.t("You are not logged in. Log in with: locker login NAME --password-stdin")
        case .unknownGround(let id): return l.t("There is no ground “{id}”.", ["id": TerminalText.inert(id)])
        case .unknownGame(let id): return l.t("There is no game {id}.", ["id": String(id)])
        case .inThePast: return l.t("A game cannot start in the past.")
        case .tooFarAhead: return l.t("A game can be planned at most two years ahead.")
        case .badTime: return l.t("That start time does not exist; write a date and time like 2026-12-05T10:00.")
        case .timeInGap: return l.t("That time does not exist at the ground: the clocks go forward an hour then. Choose another time.")
        case .commonPassword: return l.t("That password is one of the most used ones and is guessed first: choose another.")
        case .passwordsDiffer: return l.t("The two passwords differ; type them again.")
        case .tooManyGames(let seconds): return l.n("You made many games lately: you can make another in {count} second.",
                                                    "You made many games lately: you can make another in {count} seconds.", count: seconds)
        case .adminOnly: return l.t("Only an administrator of the games server can do this.")
        case .groundsWouldChange(let ids):
            return l.t("These grounds are already there with other details: {ids}. Nothing was imported; add --replace to change them.",
                       ["ids": TerminalText.inert(ids.prefix(10).joined(separator: ", ")) + (ids.count > 10 ? " …" : "")])
        case .tooManyGrounds(let limit): return l.t("Too many grounds: at most {limit}. Nothing was imported.", ["limit": String(limit)])
        case .sharedLocalStore(let path):
            return l.t("The games file {path} belongs to another user. To play with other people, run a games server (see the README) and use --games-server.",
                       ["path": TerminalText.inert(path)])
        case .badPlayers: return l.t("Players already there must be at least 1 (you count) and not more than the capacity.")
        case .badCapacity: return l.t("The capacity must be between 2 and 50 players.")
        case .badMinimum: return l.t("The minimum must be between 2 and the capacity.")
        case .noteTooLong: return l.t("A note has at most 500 characters.")
        case .reasonMissing: return l.t("Say why the game is off: the players will see it.")
        case .gameCancelled: return l.t("This game was cancelled.")
        case .gameStarted: return l.t("This game has already started.")
        case .notOrganiser: return l.t("Only the organiser can change or cancel the game.")
        case .organiserCannotBook: return l.t("You organise this game; your place is already counted.")
        case .notBooked: return l.t("You have no booking for this game.")
        case .badPostcode(let text): return l.t("“{postcode}” is not a postcode: write 4 digits, like 3977.", ["postcode": TerminalText.inert(text)])
        case .noSuchPostcode(let text): return l.t("No Casey suburb has the postcode {postcode}.", ["postcode": TerminalText.inert(text)])
        case .invalid(let field): return l.t("The games server refused the request: “{field}” is not valid.", ["field": GamesError.label(of: field, l)])
        case .forbiddenCharacters(let field):
            return l.t("“{field}” holds a control character or a text-direction mark, which the games server does not take.",
                       ["field": GamesError.label(of: field, l)])
        case .tooLarge: return l.t("The request is too large for the games server.")
        case .malformedRequest: return l.t("The games server could not read the request.")
        case .rateLimited(let seconds): return l.n("Too many requests from this address: try again in {count} second.",
                                                   "Too many requests from this address: try again in {count} seconds.", count: seconds)
        case .tooManyStreams:
            return l.t("This account already follows the games server's live changes from several places: close Locker on another machine, or try again in a minute.")
        case .unsupportedVersion: return l.t("The games server speaks another version of the games API: upgrade Locker.")
        case .unreachable(let why): return l.t("The games server did not answer: {reason}.", ["reason": why.phrase(l)])
        case .storeUnreachable: return l.t("The games server cannot reach PostgreSQL, where it keeps the games: try again in a moment.")
        case .serverUnavailable: return l.t("The games server cannot answer just now: try again later.")
        case .serverBusy(_, let tries):
            return l.n("The games server is full and turned this request away; nothing was changed. Try again in a minute.",
                       "The games server is full and turned this request away {count} times; nothing was changed. Try again in a minute.", count: tries)
        case .badResponse: return l.t("The games server sent an answer this Locker does not understand: upgrade Locker.")
        case .serverFailed: return l.t("The games server failed on this request; nothing was changed. Try again later.")
        case .badServerAddress(let text):
            return l.t("“{address}” is not a games server address: write https://host:port.", ["address": TerminalText.inert(text)])
        case .untrustedCertificate(let host):
            return l.t("The certificate of the games server {host} is not signed by an authority this machine trusts, so nothing was sent. If your club uses its own certificate, get it from the club and add --games-ca FILE (or set SSL_CERT_FILE).",
                       ["host": TerminalText.inert(host)])
        case .certificateForAnotherName(let host):
            return l.t("The games server {host} showed a certificate made out to another name, so nothing was sent. Check the address with your club.",
                       ["host": TerminalText.inert(host)])
        case .badCertificateFile(let file):
            return l.t("{file} holds no certificate in PEM form (-----BEGIN CERTIFICATE-----).", ["file": TerminalText.inert(file)])
        case .insecureServer(let host):
            return l.t("Refusing plain http:// to {host}: passwords would cross the network unencrypted. Use https://, or add --games-server-insecure.",
                       ["host": TerminalText.inert(host)])
        }
    }

    /// A field of the games API as its form calls it ("note" → "Note"); a field no form shows
    /// is named as the server named it.
    public static func label(of field: String, _ l: Localizer) -> String {
        switch field {
        case "ground": return l.t("Ground")
        case "startsAt": return l.t("Starts")
        case "players": return l.t("Players there")
        case "capacity": return l.t("Capacity")
        case "minimum": return l.t("Minimum")
        case "note": return l.t("Note")
        case "name": return l.t("Username")
        case "password": return l.t("Password")
        default: return TerminalText.inert(field)
        }
    }

    /// Whether the games server (or its store) is away rather than refusing: a later try may
    /// succeed without anything changing on this side.
    public var meansServerAway: Bool {
        switch self {
        case .unreachable, .storeUnreachable, .serverUnavailable, .serverBusy: return true
        default: return false
        }
    }
}

/// The count of failed log-ins that holds an attempt back (`GamesLimits`): this name from this
/// address, this address for every name, this name from everywhere, or this name on a device
/// it logged in from before (which is not held by the name-wide count).
public enum LoginCount: String, Sendable, Equatable {
    case pair, address, name, device
}

/// Why the games server could not be reached, worded in the interface language when shown (the
/// helper program says it to `locker` as `wire`, so the words are never the helper's English).
public enum Unreachable: Equatable, Sendable {
    /// The connection was refused: nothing listens at the address.
    case refused(address: String)
    /// The server's name is not known.
    case unknownName(host: String)
    case noConnectionInTime
    case noAnswerInTime
    /// No answer from the helper program within its time limit.
    case noAnswerWithin(seconds: Int)
    case closedByServer
    /// The secure connection could not be set up: the server does not speak HTTPS there.
    case notHTTPS(host: String)
    /// An HTTP status that came without an explanation.
    case status(Int)
    case helperStopped
    case helperNotStarted(program: String)
    /// Anything else, as the system said it.
    case other(String)

    /// The reason as it crosses the pipe between the helper and `locker` ("refused http://…").
    public var wire: String {
        switch self {
        case .refused(let address): return "refused " + address
        case .unknownName(let host): return "unknown-name " + host
        case .noConnectionInTime: return "no-connection"
        case .noAnswerInTime: return "no-answer"
        case .noAnswerWithin(let seconds): return "no-answer-within \(seconds)"
        case .closedByServer: return "closed"
        case .notHTTPS(let host): return "not-https " + host
        case .status(let code): return "status \(code)"
        case .helperStopped: return "helper-stopped"
        case .helperNotStarted(let program): return "helper-not-started " + program
        case .other(let text): return "other " + text
        }
    }

    public init(wire: String) {
        let parts = wire.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let value = parts.count > 1 ? String(parts[1]) : ""
        switch parts.first ?? "" {
        case "refused": self = .refused(address: value)
        case "unknown-name": self = .unknownName(host: value)
        case "no-connection": self = .noConnectionInTime
        case "no-answer": self = .noAnswerInTime
        case "no-answer-within": self = .noAnswerWithin(seconds: Int(value) ?? 0)
        case "closed": self = .closedByServer
        case "not-https": self = .notHTTPS(host: value)
        case "status": self = .status(Int(value) ?? 0)
        case "helper-stopped": self = .helperStopped
        case "helper-not-started": self = .helperNotStarted(program: value)
        case "other": self = .other(value)
        default: self = .other(wire)
        }
    }

    /// The reason as the end of "The games server did not answer: …".
    public func phrase(_ l: Localizer) -> String {
        switch self {
        case .refused(let address): return l.t("nothing listens at {address}", ["address": TerminalText.inert(address)])
        case .unknownName(let host): return l.t("the name {host} is not known", ["host": TerminalText.inert(host)])
        case .noConnectionInTime: return l.t("no connection within the time limit")
        case .noAnswerInTime: return l.t("no answer within the time limit")
        case .noAnswerWithin(let seconds):
            return l.n("no answer within {count} second", "no answer within {count} seconds", count: seconds)
        case .closedByServer: return l.t("the server closed the connection")
        case .notHTTPS(let host):
            return l.t("{host} did not set up a secure connection; if the club's server uses http://, write the address with http://",
                       ["host": TerminalText.inert(host)])
        case .status(let code): return l.t("it answered with HTTP status {code}", ["code": String(code)])
        case .helperStopped: return l.t("Locker's helper program stopped")
        case .helperNotStarted(let program): return l.t("Locker's helper program could not be started ({program})", ["program": TerminalText.inert(program)])
        // What the system said, kept short: never a page of library internals.
        case .other(let text): return TerminalText.inert(text.count > 160 ? String(text.prefix(159)) + "…" : text)
        }
    }
}
