// `locker account|login|logout` and `locker games …`: the games from scripts, through the same
// `GamesAPI` as the tab — a games server when one is configured, else the local SQLite file.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerGames
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

/// The games target of this run and the helpers every command shares.
enum GamesContext {
    static var paths: DataPaths { DataPaths.resolve(dataDir: RootOptions.dataDir, gamesDB: RootOptions.gamesDB, environment: environment) }

    static var now: Double { Date().timeIntervalSince1970 }

    /// Opens the server client or the local file (created and seeded when new), or exits 1.
    static func connection() async -> GamesConnection {
        await run { try await openConnection(bundled: bundledData()) }
    }

    /// The games target of this run's options (also the tab helper's, which answers failures
    /// instead of exiting).
    static func openConnection(bundled: URL) async throws -> GamesConnection {
        let server = GamesConnection.serverAddress(flag: GamesOptions.server, environment: environment, paths: paths)
        return try await GamesConnection.open(paths: paths, server: server, insecure: GamesOptions.insecure, trust: GamesOptions.trust,
                                             bundled: bundled)
    }

    /// The connection and the logged-in account's token, or exit 1 saying how to log in.
    static func signedIn() async -> (GamesConnection, String) {
        let connection = await connection()
        return (connection, token(connection))
    }

    /// A start typed on the command line, checked for its form (the server reads it on the
    /// ground's clock), or exit 2.
    static func startTime(_ text: String) -> String {
        guard WallTime.parse(text) != nil || Instant.parse(text) != nil else {
            fail(localizer.t("“{value}” is not a date and time: write 2026-12-05T10:00 (the time at the ground).", ["value": TerminalText.inert(text)]), status: 2)
        }
        return text
    }

    /// The session token, or exit 1 saying how to log in.
    static func token(_ connection: GamesConnection) -> String {
        guard let token = connection.session.read() else { fail(GamesError.notLoggedIn.message(localizer), status: 1) }
        return token
    }

    /// Runs a games call; a `GamesError` is one translated line and exit 1.
    static func run<T>(_ body: () async throws -> T) async -> T {
        do {
            return try await body()
        } catch let error as GamesError {
            fail(error.message(localizer), status: 1)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    /// The password from standard input; without `--password-stdin` (`flagGiven`), a message
    /// saying how to give it and exit status 2. Passwords never go on the command line, where
    /// every user of the machine could read them in the process list.
    static func passwordFromStdin(flagGiven: Bool) -> String {
        guard flagGiven else { fail(localizer.t("Give the password on standard input with --password-stdin."), status: 2) }
        guard let line = readLine(strippingNewline: true) else {
            fail(localizer.t("Give the password on standard input, e.g. printf '%s' \"$PASSWORD\" | locker login NAME --password-stdin"), status: 2)
        }
        return line
    }

    /// A fresh idempotency key for one creation or booking.
    static func newKey() -> String { UUID().uuidString.lowercased() }
}

/// `--games-server URL`, `--games-server-insecure` and `--games-ca FILE`, parsed on the root command.
enum GamesOptions {
    nonisolated(unsafe) static var server: String?
    nonisolated(unsafe) static var insecure = false
    nonisolated(unsafe) static var certificateAuthority: String?

    /// The certificate authorities trusted besides the system's: `--games-ca`, else the one
    /// saved with the server; then `SSL_CERT_FILE` and `SSL_CERT_DIR`.
    static var trust: GamesTrust {
        let saved = (try? DataFileError.decode(Settings.self, from: GamesContext.paths.settingsFile))?.gamesCertificate
        return GamesTrust.from(option: certificateAuthority ?? saved, environment: environment)
    }
}

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: localizer.t("Games accounts."),
        subcommands: [AccountCreateCommand.self, AccountPasswordCommand.self, AccountDeleteCommand.self, AccountAdminCommand.self])
}

struct AccountPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "password",
        abstract: localizer.t("Change your password: the current one, then the new one, each on its own line of standard input. Your other sessions are logged out."))
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the current and the new password from standard input, one per line."))) var passwordStdin = false

    func run() async throws {
        let current = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let new = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let (connection, token) = await GamesContext.signedIn()
        await GamesContext.run { try await connection.api.changePassword(PasswordChange(current: current, new: new), token: token) }
        print(localizer.t("Password changed; your other sessions are logged out."))
    }
}

struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete",
        abstract: localizer.t("Delete your account: your future bookings and games are cancelled and your name is removed."))
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password from standard input."))) var passwordStdin = false

    func run() async throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let (connection, token) = await GamesContext.signedIn()
        await GamesContext.run { try await connection.api.deleteAccount(password: password, token: token) }
        connection.session.remove()
        print(localizer.t("Your account is deleted."))
    }
}

struct AccountAdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "admin",
        abstract: localizer.t("Make an account an administrator (or, with --revoke, a player again), on the store itself."))
    @Argument(help: ArgumentHelp(localizer.t("The account's username."), valueName: "name")) var name: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Make the account a player again."))) var revoke = false
    @Option(name: .long, help: ArgumentHelp(localizer.t("The store: a SQLite file or postgres://… (the server's --db). Default: the local games file."), valueName: "store"))
    var db: String?

    func run() async throws {
        // Roles are the store owner's to give: on the store itself, never through the API.
        let database = await GamesContext.run { try await ServeCommand.openStore(db ?? GamesContext.paths.gamesDatabase.path) }
        let service = await GamesContext.run { try await GamesConnection.localService(database: database, bundled: bundledData()) }
        await GamesContext.run { try await service.setAdministrator(name, !revoke) }
        await database.close()
        print(revoke ? localizer.t("{name} is a player again.", ["name": TerminalText.inert(name)])
                     : localizer.t("{name} is an administrator.", ["name": TerminalText.inert(name)]))
    }
}

struct AccountCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: localizer.t("Create a games account."))
    @Argument(help: ArgumentHelp(localizer.t("3 to 32 letters, digits, dot, underscore or hyphen."), valueName: "name")) var name: String
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password (8 characters or more) from standard input."))) var passwordStdin = false

    func run() async throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let connection = await GamesContext.connection()
        let session = await GamesContext.run { try await connection.api.signUp(Credentials(name: name, password: password)) }
        print(localizer.t("Account {name} created. Log in with: locker login {name} --password-stdin", ["name": TerminalText.inert(session.name)]))
    }
}

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: localizer.t("Log in to the games database (the session is kept in the data folder)."))
    @Argument(help: ArgumentHelp(localizer.t("Your username."), valueName: "name")) var name: String
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password from standard input."))) var passwordStdin = false

    func run() async throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let connection = await GamesContext.connection()
        let session = await GamesContext.run { try await connection.api.login(Credentials(name: name, password: password)) }
        do {
            try connection.session.write(session.token)
        } catch {
            fail(localizer.t("The session could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
        }
        print(localizer.t("Logged in as {name}.", ["name": TerminalText.inert(session.name)]))
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: localizer.t("Log out of the games database."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Log out every session of your account, on every machine."))) var everywhere = false

    func run() async throws {
        let connection = await GamesContext.connection()
        let unended = connection.session.unended()
        if everywhere {
            // The current session, or one an earlier log-out could not end on the server.
            guard let token = connection.session.read() ?? unended else { fail(GamesError.notLoggedIn.message(localizer), status: 1) }
            await GamesContext.run { try await connection.api.logoutEverywhere(token: token) }
            connection.session.remove()
            connection.session.removeUnended()
            print(localizer.t("Logged out everywhere."))
            return
        }
        for token in [connection.session.read(), unended].compactMap({ $0 }) {
            // The session is forgotten here whatever happens; when the server could not end
            // it, the token is kept aside for `logout --everywhere`, and the exit status is 1.
            do {
                try await connection.api.logout(token: token)
            } catch GamesError.notLoggedIn {
                // Already ended on the server (expired, or logged out everywhere).
            } catch let error as GamesError {
                connection.session.setAsideUnended(token)
                fail(localizer.t("Forgotten on this machine, but the games server could not end the session: {reason} It stays valid there until it expires; run `locker logout --everywhere` when the server answers to end it.",
                                 ["reason": error.message(localizer)]), status: 1)
            }
        }
        connection.session.remove()
        connection.session.removeUnended()
        print(localizer.t("Logged out."))
    }
}

struct GamesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "games",
        abstract: localizer.t("Pickup cricket games in the City of Casey: grounds, games, bookings."),
        subcommands: [GamesGroundsCommand.self, GamesCreateCommand.self, GamesListCommand.self, GamesShowCommand.self,
                      GamesBookCommand.self, GamesCancelCommand.self, GamesEditCommand.self, GamesRosterCommand.self,
                      GamesCancelGameCommand.self, GamesRemoveCommand.self, GamesUpcomingCommand.self, GamesTodayCommand.self, GamesICSCommand.self,
                      GamesWhoAmICommand.self, GamesServerCommand.self, ServeCommand.self, BridgeCommand.self])
}

/// `--postcode P` or `--near LAT,LON`.
struct PlaceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(localizer.t("A Casey postcode (4 digits)."), valueName: "postcode")) var postcode: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("A position as latitude,longitude."), valueName: "lat,lon")) var near: String?

    func place() -> Place {
        if let near {
            guard let place = Place(near), case .position = place else {
                fail(localizer.t("“{value}” is not a position: write latitude,longitude, e.g. -38.03,145.34.", ["value": TerminalText.inert(near)]), status: 2)
            }
            return place
        }
        guard let postcode else { fail(localizer.t("Give --postcode P or --near LAT,LON."), status: 2) }
        guard let place = Place(postcode), case .postcode = place else {
            fail(GamesError.badPostcode(postcode).message(localizer), status: 2)
        }
        return place
    }
}

/// One game as a line of text; names and notes other people typed are made inert.
func gameLine(_ g: GameListing) -> String {
    var line = "#\(g.id)  \(GameTimeText.when(g, localizer))  \(TerminalText.inert(g.groundName)) (\(TerminalText.inert(g.suburb)))  "
        + localizer.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)])
    if g.waitlisted > 0 { line += " · " + localizer.t("{count} waiting", ["count": String(g.waitlisted)]) }
    line += " · " + GameStatusText.status(g.status, localizer)
    if let mine = g.myStatus { line += " · " + GameStatusText.mine(mine, localizer) }
    if let note = g.note { line += "\n      " + TerminalText.inert(note) }
    if let reason = g.cancelReason { line += "\n      " + localizer.t("Cancelled: {reason}", ["reason": GameStatusText.reason(reason, localizer)]) }
    return line
}

struct GamesGroundsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grounds", abstract: localizer.t("The 5 grounds nearest to a postcode or a position, with their distance."),
        subcommands: [GamesGroundsNearCommand.self, GamesGroundsImportCommand.self], defaultSubcommand: GamesGroundsNearCommand.self)
}

struct GamesGroundsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: localizer.t("Add or update grounds from the council's playgrounds export (CSV or GeoJSON)."))
    @Argument(help: ArgumentHelp(localizer.t("A CSV or GeoJSON file with record id, playground name, suburb name, postcode, latitude and longitude."), valueName: "file"))
    var file: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The store to import into: a SQLite file or postgres://… (the server's --db). Default: the local games file."), valueName: "store"))
    var db: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Change grounds already in the store when the file gives other details for them."))) var replace = false

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { fail(localizer.t("Cannot read {file}.", ["file": file]), status: 1) }
        let grounds: [Ground]
        do {
            grounds = try GroundsImport.read(data, fileName: URL(fileURLWithPath: file).lastPathComponent, localizer)
        } catch let problem as GroundsImport.Problem {
            fail(localizer.t("{place}: {problem}. Nothing was imported.", ["place": problem.place, "problem": problem.message]), status: 1)
        }
        // Grounds are the club's to change: on the store itself, never through the API.
        let database = await GamesContext.run { try await ServeCommand.openStore(db ?? GamesContext.paths.gamesDatabase.path) }
        let service = await GamesContext.run { try await GamesConnection.localService(database: database, bundled: bundledData()) }
        await GamesContext.run { try await service.importGrounds(grounds, replacing: replace) }
        await database.close()
        print(localizer.n("Imported {count} ground.", "Imported {count} grounds.", count: grounds.count))
    }
}

struct GamesGroundsNearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "near", abstract: localizer.t("The 5 grounds nearest to a postcode or a position, with their distance."))
    @OptionGroup var place: PlaceOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let place = place.place()
        let connection = await GamesContext.connection()
        let nearest = await GamesContext.run { try await connection.api.grounds(near: place) }
        if json { printJSON(nearest); return }
        for n in nearest {
            let mark = n.approximate ? "  " + localizer.t("(position approximate)") : ""
            let distance = MeasureText.distance(n.distanceMeters, localizer)
            print("\(String(repeating: " ", count: max(0, 9 - distance.count)) + distance)  \(TerminalText.inert(n.id))  \(TerminalText.inert(n.name)), \(TerminalText.inert(n.suburb)) \(n.postcode)\(mark)")
        }
    }
}

struct GamesCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: localizer.t("Create a game at a ground."))
    @Option(name: .long, help: ArgumentHelp(localizer.t("Ground id (see locker games grounds)."), valueName: "id")) var ground: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Local date and time, e.g. 2026-12-05T10:00."), valueName: "time")) var at: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Players you already have, yourself included."), valueName: "n")) var players: Int
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Most players (2–50, default 22)."), valueName: "n")) var capacity: Int = 22
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Players needed for the game to be on."), valueName: "n")) var min: Int?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("A note for the players."), valueName: "text")) var note: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let startsAt = GamesContext.startTime(at)
        let (connection, token) = await GamesContext.signedIn()
        let game = await GamesContext.run {
            try await connection.api.create(NewGame(ground: ground, startsAt: startsAt, players: players, capacity: capacity, minimum: min, note: note),
                                            idempotencyKey: GamesContext.newKey(), token: token)
        }
        if json { printJSON(game); return }
        print(localizer.t("Game {id} created.", ["id": String(game.id)]))
        print(gameLine(game))
    }
}

struct GamesEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: localizer.t("Change the time, capacity or note of a game you organise (booked players see it)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Local date and time, e.g. 2026-12-05T10:00."), valueName: "time")) var at: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Most players (2–50); players beyond it go to the head of the waitlist."), valueName: "n")) var capacity: Int?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("A note for the players (empty removes it)."), valueName: "text")) var note: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let changes = GameChanges(startsAt: at.map(GamesContext.startTime), capacity: capacity, note: note)
        guard !changes.isEmpty else { fail(localizer.t("Give --at, --capacity or --note."), status: 2) }
        let (connection, token) = await GamesContext.signedIn()
        let edited = await GamesContext.run { try await connection.api.edit(game, changes, token: token) }
        if json { printJSON(edited); return }
        print(localizer.t("Game {id} changed.", ["id": String(game)]))
        print(gameLine(edited))
    }
}

struct GamesRosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "roster", abstract: localizer.t("Who is going and who is waitlisted, for a game you organise."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        let roster = await GamesContext.run { try await connection.api.roster(game, token: token) }
        if json { printJSON(roster); return }
        print(localizer.t("Going ({count}):", ["count": String(roster.going.count)]))
        for entry in roster.going { print("  " + GameStatusText.person(entry.name, localizer) + "  " + MeasureText.dateTime(Instant.parse(entry.since))) }
        print(localizer.t("Waitlist ({count}):", ["count": String(roster.waitlisted.count)]))
        for (index, entry) in roster.waitlisted.enumerated() { print("  \(index + 1). " + GameStatusText.person(entry.name, localizer)) }
    }
}

struct GamesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: localizer.t("Games still to come at the 5 grounds nearest to a postcode or a position."))
    @OptionGroup var place: PlaceOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let place = place.place()
        let connection = await GamesContext.connection()
        let list = await GamesContext.run { try await connection.api.games(near: place, token: connection.session.read()) }
        if json { printJSON(list); return }
        if list.isEmpty { print(localizer.t("No games planned at these grounds yet.")) }
        for game in list { print(gameLine(game)) }
    }
}

struct GamesShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: localizer.t("One game, with its note and map link."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let connection = await GamesContext.connection()
        let found = await GamesContext.run { try await connection.api.game(game, token: connection.session.read()) }
        if json { printJSON(found); return }
        print(gameLine(found))
        print("      " + localizer.t("Starts {time}.", ["time": GameTimeText.full(found)]))
        print("      " + localizer.t("Organised by {name}.", ["name": GameStatusText.person(found.organiser, localizer)]))
        print("      " + found.map)
    }
}

struct GamesBookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "book", abstract: localizer.t("Book a place in a game (the waitlist when it is full)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        let booked = await GamesContext.run { try await connection.api.book(game, idempotencyKey: GamesContext.newKey(), token: token) }
        if json { printJSON(booked); return }
        print(booked.myStatus == .waitlisted ? localizer.t("Game {id} is full: you are on the waitlist.", ["id": String(game)])
                                             : localizer.t("You are going to game {id}.", ["id": String(game)]))
    }
}

struct GamesCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: localizer.t("Cancel your booking or leave the waitlist (the first player waiting gets your place)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        _ = await GamesContext.run { try await connection.api.cancelBooking(game, token: token) }
        print(localizer.t("Your booking for game {id} is cancelled.", ["id": String(game)]))
    }
}

struct GamesRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: localizer.t("Remove a game and its bookings altogether (administrators only, for spam)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        await GamesContext.run { try await connection.api.removeGame(game, token: token) }
        print(localizer.t("Game {id} is removed.", ["id": String(game)]))
    }
}

struct GamesCancelGameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel-game", abstract: localizer.t("Cancel a game you organise, with a reason the players see."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Why the game is off."), valueName: "text")) var reason: String

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        _ = await GamesContext.run { try await connection.api.cancelGame(game, reason: reason, token: token) }
        print(localizer.t("Game {id} is cancelled.", ["id": String(game)]))
    }
}

struct GamesUpcomingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "upcoming", abstract: localizer.t("Your games still to come (organised or booked), earliest first."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        let list = await GamesContext.run { try await connection.api.upcoming(token: token) }.filter { $0.start > GamesContext.now }
        if json { printJSON(list); return }
        if list.isEmpty { print(localizer.t("No games to come.")) }
        for game in list { print(gameLine(game) + "\n      " + game.map) }
    }
}

struct GamesTodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: localizer.t("Your games today, for a shell start-up file: prints nothing when there are none (or when you are not logged in)."))

    func run() async throws {
        let paths = GamesContext.paths
        let server = GamesConnection.serverAddress(flag: GamesOptions.server, environment: environment, paths: paths)
        guard server != nil || FileManager.default.fileExists(atPath: paths.gamesDatabase.path) else { return }
        // A shell start-up file must never hang or fail: no answer within 2 s is no answer.
        let deadline = Task.detached {
            try await Task.sleep(nanoseconds: 2_000_000_000)
            Glibc.exit(0)
        }
        guard let connection = try? await GamesContext.openConnection(bundled: bundledData()), let token = connection.session.read(),
              let games = try? await connection.api.upcoming(token: token) else { return }
        deadline.cancel()
        let now = GamesContext.now
        let day = LocalTime.dayRange(containing: now)
        for game in games where day.contains(game.start) {
            let minutes = Int(((game.start - now) / 60).rounded(.up))
            let when: String
            if game.status == .cancelled { when = localizer.t("cancelled", context: "game status") }
            else if minutes <= 0 { when = localizer.t("started") }
            else if minutes <= 60 { when = "⚠ " + localizer.n("in {count} minute", "in {count} minutes", count: minutes) }
            else { when = localizer.t("at {time}", ["time": GameTimeText.clock(game)]) }
            print(localizer.t("Cricket today {when}: {ground}, {suburb} ({going}/{capacity})",
                              ["when": when, "ground": TerminalText.inert(game.groundName), "suburb": TerminalText.inert(game.suburb),
                               "going": String(game.seatsUsed), "capacity": String(game.capacity)]))
        }
    }
}

struct GamesICSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ics", abstract: localizer.t("Write a game as an iCalendar (.ics) file for your calendar."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Option(name: .long, help: ArgumentHelp(localizer.t("The .ics file to write."), valueName: "file")) var out: String

    func run() async throws {
        let connection = await GamesContext.connection()
        let found = await GamesContext.run { try await connection.api.game(game, token: connection.session.read()) }
        do {
            try AtomicFile.write(Data(GameCalendar.ics(found, store: connection.storeTag, now: GamesContext.now).utf8), to: URL(fileURLWithPath: out))
        } catch {
            fail(localizer.t("{file} could not be written: {reason}", ["file": out, "reason": StorageError.explain(error, localizer)]), status: 1)
        }
        print(localizer.t("Wrote {file}.", ["file": out]))
    }
}

struct GamesWhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: localizer.t("The logged-in games user (exit 1 when nobody is logged in)."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() async throws {
        let (connection, token) = await GamesContext.signedIn()
        let account = await GamesContext.run { try await connection.api.account(token: token) }
        if json { printJSON(account) } else { print(account.name) }
    }
}

struct GamesServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "server", abstract: localizer.t("Show, save or forget the games server the tab and these commands use."))
    @Argument(help: ArgumentHelp(localizer.t("The server's address, e.g. https://games.example.org:8787."), valueName: "url")) var url: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Forget the saved server: use the local games file."))) var local = false

    func run() async throws {
        let paths = GamesContext.paths
        let repository = JSONRepository<Settings>(url: paths.settingsFile)
        if url != nil || local {
            if let url { _ = await GamesContext.run { try GamesHTTPClient(url: url, allowInsecure: GamesOptions.insecure, trust: GamesOptions.trust) } }
            guard paths.prepare() else { fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1) }
            var settings = Settings()
            if FileManager.default.fileExists(atPath: paths.settingsFile.path) {
                guard let value = try? DataFileError.decode(Settings.self, from: paths.settingsFile) else {
                    fail(localizer.t("The settings file {file} cannot be read; fix or remove it first.", ["file": paths.settingsFile.path]), status: 1)
                }
                settings = value
            }
            settings.gamesServer = local ? nil : url
            if local {
                settings.gamesCertificate = nil
            } else if let file = GamesOptions.certificateAuthority {
                // A copy beside the settings, so a downloads folder tidied later breaks nothing.
                let copy = paths.directory.appendingPathComponent("games-ca.pem")
                do {
                    try AtomicFile.write(try Data(contentsOf: URL(fileURLWithPath: file)), to: copy, permissions: 0o644)
                } catch {
                    fail(localizer.t("The certificate could not be copied into the data folder: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
                }
                settings.gamesCertificate = copy.path
            }
            do { try repository.save(settings) } catch {
                fail(localizer.t("The settings could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
            }
        }
        if let server = GamesConnection.serverAddress(flag: GamesOptions.server, environment: environment, paths: paths) {
            print(localizer.t("Games server: {url}", ["url": TerminalText.inert(server)]))
            if let saved = (try? DataFileError.decode(Settings.self, from: paths.settingsFile))?.gamesCertificate {
                print(localizer.t("Its certificate authority, trusted besides the system's: {file}", ["file": TerminalText.inert(saved)]))
            }
        } else {
            print(localizer.t("No games server: the local games file {path}.", ["path": paths.gamesDatabase.path]))
        }
    }
}
