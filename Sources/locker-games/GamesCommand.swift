// `locker account|login|logout` and `locker games …`: the games database from scripts.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerGames
import LockerKit
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The games database and session of this run (`--games-db`, `LOCKER_GAMES_DB`, data dir).
enum GamesContext {
    static var paths: DataPaths { DataPaths.resolve(dataDir: RootOptions.dataDir, gamesDB: RootOptions.gamesDB, environment: environment) }

    static var now: Double { Date().timeIntervalSince1970 }

    /// Opens the database (creating and seeding it with the bundled grounds) or exits 1.
    static func store() -> GamesStore {
        let paths = self.paths
        guard paths.prepare() else {
            fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1)
        }
        do {
            let store = try GamesStore(path: paths.gamesDatabase.path)
            if try store.groundCount() == 0 {
                try store.upsert(try GroundsFile.read(bundledData().appendingPathComponent("games/grounds.csv")))
            }
            return store
        } catch let error as GamesError {
            fail(error.message(localizer), status: 1)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    static var session: GamesSessionFile { GamesSessionFile(directory: paths.directory) }

    /// The logged-in user, or exit 1 saying how to log in.
    static func user(_ store: GamesStore) -> GamesUser {
        guard let token = session.read(), let user = run({ try store.user(forToken: token) }) else {
            fail(GamesError.notLoggedIn.message(localizer), status: 1)
        }
        return user
    }

    static func currentUser(_ store: GamesStore) -> GamesUser? {
        guard let token = session.read() else { return nil }
        return run { try store.user(forToken: token) }
    }

    /// Runs a store call; a GamesError is one translated line and exit 1.
    static func run<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch let error as GamesError {
            fail(error.message(localizer), status: 1)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    /// The password from standard input (one line; the newline is dropped).
    /// The password from standard input; without `--password-stdin` (`flagGiven`), a message
    /// saying how to give it and exit status 2.
    static func passwordFromStdin(flagGiven: Bool) -> String {
        guard flagGiven else { fail(localizer.t("Give the password on standard input with --password-stdin."), status: 2) }
        guard let line = readLine(strippingNewline: true) else {
            fail(localizer.t("Give the password on standard input, e.g. printf '%s' \"$PASSWORD\" | locker login NAME --password-stdin"), status: 2)
        }
        return line
    }
}

struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: localizer.t("Games accounts."), subcommands: [AccountCreateCommand.self])
}

struct AccountCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: localizer.t("Create a games account."))
    @Argument(help: ArgumentHelp(localizer.t("3 to 32 letters, digits, dot, underscore or hyphen."), valueName: "name")) var name: String
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password (8 characters or more) from standard input."))) var passwordStdin = false

    func run() throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let store = GamesContext.store()
        let user = GamesContext.run { try store.createAccount(name: name, password: password, now: GamesContext.now) }
        print(localizer.t("Account {name} created. Log in with: locker login {name} --password-stdin", ["name": user.name]))
    }
}

struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: localizer.t("Log in to the games database (the session is kept in the data folder)."))
    @Argument(help: ArgumentHelp(localizer.t("Your username."), valueName: "name")) var name: String
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password from standard input."))) var passwordStdin = false

    func run() throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let store = GamesContext.store()
        let (user, token) = GamesContext.run { try store.login(name: name, password: password, now: GamesContext.now) }
        do {
            try GamesContext.session.write(token)
        } catch {
            fail(localizer.t("The session could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
        }
        print(localizer.t("Logged in as {name}.", ["name": user.name]))
    }
}

struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: localizer.t("Log out of the games database."))

    func run() throws {
        if let token = GamesContext.session.read() {
            let store = GamesContext.store()
            GamesContext.run { try store.logout(token: token) }
        }
        GamesContext.session.remove()
        print(localizer.t("Logged out."))
    }
}

struct GamesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "games",
        abstract: localizer.t("Pickup cricket games in the City of Casey: grounds, games, bookings."),
        subcommands: [GamesGroundsCommand.self, GamesCreateCommand.self, GamesListCommand.self, GamesBookCommand.self,
                      GamesCancelCommand.self, GamesCancelGameCommand.self, GamesUpcomingCommand.self, GamesTodayCommand.self,
                      GamesICSCommand.self, GamesWhoAmICommand.self])
}

/// `--postcode P` or `--near LAT,LON`.
struct PlaceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(localizer.t("A Casey postcode (4 digits)."), valueName: "postcode")) var postcode: String?
    @Option(name: .long, help: ArgumentHelp(localizer.t("A position as latitude,longitude."), valueName: "lat,lon")) var near: String?

    /// The search point: the postcode's suburb centres (several suburbs: their mean) or the position.
    func point() -> (latitude: Double, longitude: Double) {
        if let near {
            let parts = near.split(separator: ",").map { Double($0.filter { !$0.isWhitespace }) }
            guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
                fail(localizer.t("“{value}” is not a position: write latitude,longitude, e.g. -38.03,145.34.", ["value": near]), status: 2)
            }
            return (lat, lon)
        }
        guard let postcode else { fail(localizer.t("Give --postcode P or --near LAT,LON."), status: 2) }
        guard postcode.count == 4, postcode.allSatisfy(\.isASCII), postcode.allSatisfy(\.isNumber) else {
            fail(GamesError.badPostcode(postcode).message(localizer), status: 2)
        }
        let suburbs = GamesContext.run { try SuburbsFile.read(bundledData().appendingPathComponent("games/suburbs.csv")) }.filter { $0.postcode == postcode }
        guard !suburbs.isEmpty else { fail(GamesError.noSuchPostcode(postcode).message(localizer), status: 1) }
        return (suburbs.map(\.latitude).reduce(0, +) / Double(suburbs.count), suburbs.map(\.longitude).reduce(0, +) / Double(suburbs.count))
    }
}

struct GameJSON: Encodable {
    var id: Int64
    var ground: String
    var groundName: String
    var suburb: String
    var startsAt: String
    var capacity: Int
    var players: Int
    var going: Int
    var waitlisted: Int
    var status: String
    var myStatus: String?
    var organiser: String
    var note: String?
    var cancelReason: String?
    var map: String

    init(_ g: Game) {
        id = g.id; ground = g.ground.id; groundName = g.ground.name; suburb = g.ground.suburb
        startsAt = Date(timeIntervalSince1970: g.startsAt).formatted(.iso8601)
        capacity = g.capacity; players = g.players; going = g.going; waitlisted = g.waitlisted
        status = g.status; myStatus = g.myStatus; organiser = g.organiser; note = g.note; cancelReason = g.cancelReason; map = g.mapLink
    }

    private enum Keys: String, CodingKey { case id, ground, groundName, suburb, startsAt, capacity, players, going, waitlisted, status, myStatus, organiser, note, cancelReason, map }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id); try c.encode(ground, forKey: .ground); try c.encode(groundName, forKey: .groundName)
        try c.encode(suburb, forKey: .suburb); try c.encode(startsAt, forKey: .startsAt); try c.encode(capacity, forKey: .capacity)
        try c.encode(players, forKey: .players); try c.encode(going, forKey: .going); try c.encode(waitlisted, forKey: .waitlisted)
        try c.encode(status, forKey: .status); try c.encode(myStatus, forKey: .myStatus); try c.encode(organiser, forKey: .organiser)
        try c.encode(note, forKey: .note); try c.encode(cancelReason, forKey: .cancelReason); try c.encode(map, forKey: .map)
    }
}

/// One game as a line of text; names and notes other people typed are made inert.
func gameLine(_ g: Game) -> String {
    var line = "#\(g.id)  \(WorkoutText.dateTime(g.startsAt))  \(TerminalText.inert(g.ground.name)) (\(TerminalText.inert(g.ground.suburb)))  "
        + localizer.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)])
    if g.waitlisted > 0 { line += " · " + localizer.t("{count} waiting", ["count": String(g.waitlisted)]) }
    line += " · " + GameStatusText.status(g.status, localizer)
    if let mine = g.myStatus { line += " · " + GameStatusText.mine(mine, localizer) }
    if let note = g.note { line += "\n      " + TerminalText.inert(note) }
    if let reason = g.cancelReason { line += "\n      " + localizer.t("Cancelled: {reason}", ["reason": TerminalText.inert(reason)]) }
    return line
}

struct GamesGroundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grounds", abstract: localizer.t("The 5 grounds nearest to a postcode or a position, with their distance."),
        subcommands: [GamesGroundsNearCommand.self, GamesGroundsImportCommand.self], defaultSubcommand: GamesGroundsNearCommand.self)
}

struct GamesGroundsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: localizer.t("Add or update grounds from the council's playgrounds export (CSV or GeoJSON)."))
    @Argument(help: ArgumentHelp(localizer.t("A CSV or GeoJSON file with record id, playground name, suburb name, postcode, latitude and longitude."), valueName: "file"))
    var file: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { fail(localizer.t("Cannot read {file}.", ["file": file]), status: 1) }
        let grounds: [Ground]
        do {
            grounds = try GroundsImport.read(data, fileName: URL(fileURLWithPath: file).lastPathComponent, localizer)
        } catch let problem as GroundsImport.Problem {
            fail(localizer.t("{place}: {problem}. Nothing was imported.", ["place": problem.place, "problem": problem.message]), status: 1)
        }
        let store = GamesContext.store()
        GamesContext.run { try store.upsert(grounds) }
        print(localizer.n("Imported {count} ground.", "Imported {count} grounds.", count: grounds.count))
    }
}

struct GamesGroundsNearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "near", abstract: localizer.t("The 5 grounds nearest to a postcode or a position, with their distance."))
    @OptionGroup var place: PlaceOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    struct Row: Encodable { var id: String; var name: String; var suburb: String; var postcode: String; var latitude: Double; var longitude: Double; var approximate: Bool; var distanceMeters: Double }

    func run() throws {
        let point = place.point()
        let store = GamesContext.store()
        let nearest = GamesContext.run { try store.nearestGrounds(latitude: point.latitude, longitude: point.longitude) }
        if json {
            printJSON(nearest.map { Row(id: $0.ground.id, name: $0.ground.name, suburb: $0.ground.suburb, postcode: $0.ground.postcode,
                                         latitude: $0.ground.latitude, longitude: $0.ground.longitude, approximate: $0.ground.approximate,
                                         distanceMeters: $0.meters) })
            return
        }
        for n in nearest {
            let mark = n.ground.approximate ? "  " + localizer.t("(position approximate)") : ""
            print("\(WorkoutText.distance(n.meters, localizer).padded(toWidth: 9, alignment: .right))  \(n.ground.id)  \(TerminalText.inert(n.ground.name)), \(n.ground.suburb) \(n.ground.postcode)\(mark)")
        }
    }
}

struct GamesCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: localizer.t("Create a game at a ground."))
    @Option(name: .long, help: ArgumentHelp(localizer.t("Ground id (see locker games grounds)."), valueName: "id")) var ground: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("Local date and time, e.g. 2026-12-05T10:00."), valueName: "time")) var at: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("Players you already have, yourself included."), valueName: "n")) var players: Int
    @Option(name: .long, help: ArgumentHelp(localizer.t("Most players (2–50, default 22)."), valueName: "n")) var capacity: Int = 22
    @Option(name: .long, help: ArgumentHelp(localizer.t("Players needed for the game to be on."), valueName: "n")) var min: Int?
    @Option(name: .long, help: ArgumentHelp(localizer.t("A note for the players."), valueName: "text")) var note: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() throws {
        guard let startsAt = LocalTime.parse(at) else {
            fail(localizer.t("“{value}” is not a date and time: write 2026-12-05T10:00 (local time).", ["value": at]), status: 2)
        }
        let store = GamesContext.store()
        let user = GamesContext.user(store)
        let id = GamesContext.run {
            try store.createGame(organiser: user, groundID: ground, startsAt: startsAt, players: players, capacity: capacity,
                                 minimum: min, note: note, now: GamesContext.now)
        }
        let game = GamesContext.run { try store.game(id: id, for: user) }
        if json { printJSON(GameJSON(game)); return }
        print(localizer.t("Game {id} created.", ["id": String(id)]))
        print(gameLine(game))
    }
}

struct GamesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: localizer.t("Games still to come at the 5 grounds nearest to a postcode or a position."))
    @OptionGroup var place: PlaceOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() throws {
        let point = place.point()
        let store = GamesContext.store()
        let user = GamesContext.currentUser(store)
        let grounds = GamesContext.run { try store.nearestGrounds(latitude: point.latitude, longitude: point.longitude) }
        let list = GamesContext.run { try store.games(atGrounds: grounds.map(\.ground.id), after: GamesContext.now, for: user) }
        if json { printJSON(list.map(GameJSON.init)); return }
        if list.isEmpty { print(localizer.t("No games planned at these grounds yet.")) }
        for game in list { print(gameLine(game)) }
    }
}

struct GamesBookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "book", abstract: localizer.t("Book a place in a game (the waitlist when it is full)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() throws {
        let store = GamesContext.store()
        let user = GamesContext.user(store)
        let status = GamesContext.run { try store.book(gameID: game, user: user, now: GamesContext.now) }
        if json { printJSON(GameJSON(GamesContext.run { try store.game(id: game, for: user) })); return }
        print(status == "going" ? localizer.t("You are going to game {id}.", ["id": String(game)])
                                : localizer.t("Game {id} is full: you are on the waitlist.", ["id": String(game)]))
    }
}

struct GamesCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: localizer.t("Cancel your booking (the first player waiting gets your place)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64

    func run() throws {
        let store = GamesContext.store()
        let user = GamesContext.user(store)
        let promoted = GamesContext.run { try store.cancelBooking(gameID: game, user: user, now: GamesContext.now) }
        print(localizer.t("Your booking for game {id} is cancelled.", ["id": String(game)]))
        if let promoted { print(localizer.t("{name} moves up from the waitlist.", ["name": TerminalText.inert(promoted)])) }
    }
}

struct GamesCancelGameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel-game", abstract: localizer.t("Cancel a game you organise, with a reason the players see."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Option(name: .long, help: ArgumentHelp(localizer.t("Why the game is off."), valueName: "text")) var reason: String

    func run() throws {
        let store = GamesContext.store()
        let user = GamesContext.user(store)
        GamesContext.run { try store.cancelGame(gameID: game, user: user, reason: reason) }
        print(localizer.t("Game {id} is cancelled.", ["id": String(game)]))
    }
}

struct GamesUpcomingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "upcoming", abstract: localizer.t("Your games still to come (organised or booked), earliest first."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() throws {
        let store = GamesContext.store()
        let user = GamesContext.user(store)
        let list = GamesContext.run { try store.upcoming(for: user, since: GamesContext.now) }
        if json { printJSON(list.map(GameJSON.init)); return }
        if list.isEmpty { print(localizer.t("No games to come.")) }
        for game in list { print(gameLine(game) + "\n      " + game.mapLink) }
    }
}

struct GamesTodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: localizer.t("Your games today, for a shell start-up file: prints nothing when there are none (or when you are not logged in)."))

    func run() throws {
        let paths = GamesContext.paths
        guard GamesContext.session.read() != nil, FileManager.default.fileExists(atPath: paths.gamesDatabase.path) else { return }
        let store = GamesContext.store()
        guard let user = GamesContext.currentUser(store) else { return }
        let now = GamesContext.now
        for game in GamesContext.run({ try store.today(for: user, now: now) }) {
            let minutes = Int(((game.startsAt - now) / 60).rounded(.up))
            let when: String
            if game.cancelled { when = localizer.t("cancelled", context: "game status") }
            else if minutes <= 0 { when = localizer.t("started") }
            else if minutes <= 60 { when = "⚠ " + localizer.n("in {count} minute", "in {count} minutes", count: minutes) }
            else { when = localizer.t("at {time}", ["time": String(WorkoutText.dateTime(game.startsAt).suffix(5))]) }
            print(localizer.t("Cricket today {when}: {ground}, {suburb} ({going}/{capacity})",
                              ["when": when, "ground": TerminalText.inert(game.ground.name), "suburb": TerminalText.inert(game.ground.suburb),
                               "going": String(game.seatsUsed), "capacity": String(game.capacity)]))
        }
    }
}

struct GamesICSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ics", abstract: localizer.t("Write a game as an iCalendar (.ics) file for your calendar."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) var game: Int64
    @Option(name: .long, help: ArgumentHelp(localizer.t("The .ics file to write."), valueName: "file")) var out: String

    func run() throws {
        let store = GamesContext.store()
        let user = GamesContext.currentUser(store)
        let found = GamesContext.run { try store.game(id: game, for: user) }
        do {
            try AtomicFile.write(Data(GameCalendar.ics(found, now: GamesContext.now).utf8), to: URL(fileURLWithPath: out))
        } catch {
            fail(localizer.t("{file} could not be written: {reason}", ["file": out, "reason": "\(error)"]), status: 1)
        }
        print(localizer.t("Wrote {file}.", ["file": out]))
    }
}

struct GamesWhoAmICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: localizer.t("The logged-in games user (exit 1 when nobody is logged in)."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    struct Output: Encodable { var name: String }

    func run() throws {
        // Asked at every start of the app: without a session or a database, answer without
        // creating anything.
        guard GamesContext.session.read() != nil, FileManager.default.fileExists(atPath: GamesContext.paths.gamesDatabase.path) else {
            fail(GamesError.notLoggedIn.message(localizer), status: 1)
        }
        let store = GamesContext.store()
        let user = GamesContext.user(store)
        if json { printJSON(Output(name: user.name)) } else { print(user.name) }
    }
}
