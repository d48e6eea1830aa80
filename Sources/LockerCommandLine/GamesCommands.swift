// The commands `locker-games` runs (`locker account|login|logout|games …`), declared once here
// with their options and help, so that `locker` itself knows them: `locker help games create`,
// the man pages and the shell completions come from this one tree. Their work is in
// `locker-games` (which links the games store and server); `locker` hands them over to it.
import ArgumentParser
import FoundationEssentials
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

public struct AccountCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "account", abstract: localizer.t("Games accounts."),
        subcommands: [AccountCreateCommand.self, AccountPasswordCommand.self, AccountDeleteCommand.self, AccountAdminCommand.self])
}

public struct AccountPasswordCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "password",
        abstract: localizer.t("Change your password: the current one, then the new one, each on its own line of standard input. Your other sessions are logged out."))
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the current and the new password from standard input, one per line."))) public var passwordStdin = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct AccountDeleteCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "delete",
        abstract: localizer.t("Delete your account: your future bookings and games are cancelled and your name is removed."))
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password from standard input."))) public var passwordStdin = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct AccountAdminCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "admin",
        abstract: localizer.t("Make an account an administrator (or, with --revoke, a player again), on the store itself."))
    @Argument(help: ArgumentHelp(localizer.t("The account's username."), valueName: "name")) public var name: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Make the account a player again."))) public var revoke = false
    @Option(name: .long, help: ArgumentHelp(localizer.t("The store: a SQLite file or postgres://… (the server's --db). Default: the local games file."), valueName: "store"))
    public var db: String?

    @OptionGroup public var shared: GamesFileOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct AccountCreateCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "create", abstract: localizer.t("Create a games account."))
    @Argument(help: ArgumentHelp(localizer.t("3 to 32 letters, digits, dot, underscore or hyphen."), valueName: "name")) public var name: String
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password (8 characters or more) from standard input."))) public var passwordStdin = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct LoginCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "login", abstract: localizer.t("Log in to the games database (the session is kept in the data folder)."))
    @Argument(help: ArgumentHelp(localizer.t("Your username."), valueName: "name")) public var name: String
    @Flag(name: .customLong("password-stdin"), help: ArgumentHelp(localizer.t("Read the password from standard input."))) public var passwordStdin = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct LogoutCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "logout", abstract: localizer.t("Log out of the games database."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Log out every session of your account, on every machine."))) public var everywhere = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "games",
        abstract: localizer.t("Pickup cricket games in the City of Casey: grounds, games, bookings."),
        subcommands: [GamesGroundsCommand.self, GamesCreateCommand.self, GamesListCommand.self, GamesShowCommand.self,
                      GamesBookCommand.self, GamesCancelCommand.self, GamesEditCommand.self, GamesRosterCommand.self,
                      GamesCancelGameCommand.self, GamesRemoveCommand.self, GamesUpcomingCommand.self, GamesTodayCommand.self, GamesICSCommand.self,
                      GamesWhoAmICommand.self, GamesServerCommand.self, ServeCommand.self, BackupCommand.self, RestoreCommand.self,
                      BridgeCommand.self])
}

/// `--postcode P` or `--near LAT,LON`.
public struct PlaceOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp(localizer.t("A Casey postcode (4 digits)."), valueName: "postcode")) public var postcode: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("A position as latitude,longitude."), valueName: "lat,lon")) public var near: String?

    public func place() -> Place {
        if let near {
            guard let place = Place(near), case .position = place else {
                usageError(localizer.t("“{value}” is not a position: write latitude,longitude, e.g. -38.03,145.34.", ["value": TerminalText.inert(near)]))
            }
            return place
        }
        guard let postcode else { usageError(localizer.t("Give --postcode P or --near LAT,LON.")) }
        guard let place = Place(postcode), case .postcode = place else {
            usageError(GamesError.badPostcode(postcode).message(localizer))
        }
        return place
    }
}

public struct GamesGroundsCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "grounds", abstract: localizer.t("The 5 grounds nearest to a postcode or a position, with their distance."),
        subcommands: [GamesGroundsNearCommand.self, GamesGroundsImportCommand.self], defaultSubcommand: GamesGroundsNearCommand.self)
}

public struct GamesGroundsImportCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "import", abstract: localizer.t("Add or update grounds from the council's playgrounds export (CSV or GeoJSON)."))
    @Argument(help: ArgumentHelp(localizer.t("A CSV or GeoJSON file with record id, playground name, suburb name, postcode, latitude and longitude."), valueName: "file"))
    public var file: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The store to import into: a SQLite file or postgres://… (the server's --db). Default: the local games file."), valueName: "store"))
    public var db: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Change grounds already in the store when the file gives other details for them."))) public var replace = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesGroundsNearCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "near", abstract: localizer.t("The 5 grounds nearest to a postcode or a position, with their distance."))
    @OptionGroup public var place: PlaceOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesCreateCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "create", abstract: localizer.t("Create a game at a ground."))
    @Option(name: .long, help: ArgumentHelp(localizer.t("Ground id (see locker games grounds)."), valueName: "id")) public var ground: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Local date and time, e.g. 2026-12-05T10:00."), valueName: "time")) public var at: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Players you already have, yourself included."), valueName: "n")) public var players: Int
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Most players (2–50)."), valueName: "n")) public var capacity: Int = 22
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Players needed for the game to be on."), valueName: "n")) public var min: Int?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("A note for the players."), valueName: "text")) public var note: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func validate() throws {
        checkCapacity(capacity)
        if let problem = NewGame.numbersProblem(players: players, capacity: capacity, minimum: min) { usageError(problem.message(localizer)) }
    }

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesEditCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "edit", abstract: localizer.t("Change the time, capacity or note of a game you organise (booked players see it)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Local date and time, e.g. 2026-12-05T10:00."), valueName: "time")) public var at: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Most players (2–50); players beyond it go to the head of the waitlist."), valueName: "n")) public var capacity: Int?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("A note for the players (empty removes it)."), valueName: "text")) public var note: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func validate() throws { if let capacity { checkCapacity(capacity) } }

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesRosterCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "roster", abstract: localizer.t("Who is going and who is waitlisted, for a game you organise."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesListCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "list", abstract: localizer.t("Games still to come at the 5 grounds nearest to a postcode or a position."))
    @OptionGroup public var place: PlaceOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesShowCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "show", abstract: localizer.t("One game, with its note and map link."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesBookCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "book", abstract: localizer.t("Book a place in a game (the waitlist when it is full)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesCancelCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "cancel", abstract: localizer.t("Cancel your booking or leave the waitlist (the first player waiting gets your place)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesRemoveCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "remove", abstract: localizer.t("Remove a game and its bookings altogether (administrators only, for spam)."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesCancelGameCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "cancel-game", abstract: localizer.t("Cancel a game you organise, with a reason the players see."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Why the game is off."), valueName: "text")) public var reason: String

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesUpcomingCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "upcoming", abstract: localizer.t("Your games still to come (organised or booked), earliest first."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesTodayCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: localizer.t("Your games today, for a shell start-up file: prints nothing when there are none (or when you are not logged in)."))

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesICSCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "ics", abstract: localizer.t("Write a game as an iCalendar (.ics) file for your calendar."))
    @Argument(help: ArgumentHelp(localizer.t("The game's number."), valueName: "game")) public var game: Int64
    @Option(name: .long, help: ArgumentHelp(localizer.t("The .ics file to write."), valueName: "file")) public var out: String

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesWhoAmICommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "whoami", abstract: localizer.t("The logged-in games user (exit 1 when nobody is logged in)."))
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) public var json = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct GamesServerCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "server", abstract: localizer.t("Show, save or forget the games server the tab and these commands use."))
    @Argument(help: ArgumentHelp(localizer.t("The server's address, e.g. https://games.example.org:8787."), valueName: "url")) public var url: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Forget the saved server: use the local games file."))) public var local = false

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct ServeCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: localizer.t("Run the Locker games server (HTTP JSON API v1) on a SQLite file or a PostgreSQL database."),
        discussion: localizer.t("The options from --listen to --log-format can also be set in the configuration file, as NAME = VALUE with the option's name (listen = 0.0.0.0:8787); an option on the command line wins over the file."))

    /// `Default: VALUE.` after an option's help: the defaults live in `ServerSettings`, which the
    /// configuration file and the command line both change.
    static func help(_ text: String, default value: String? = nil, valueName: String) -> ArgumentHelp {
        ArgumentHelp(value.map { text + " " + localizer.t("Default: {value}.", ["value": $0]) } ?? text, valueName: valueName)
    }

    @Option(name: .long, help: ArgumentHelp(localizer.t("A configuration file of settings (NAME = VALUE per line), e.g. /etc/locker-games/server.conf."), valueName: "file"))
    public var config: String?
    @Option(name: .long, help: help(localizer.t("Address and port to listen on; 0.0.0.0:8787 listens on every interface."), default: "127.0.0.1:8787", valueName: "host:port"))
    public var listen: String?
    @Option(name: .long, help: ArgumentHelp(localizer.t("The store: a SQLite file, or postgres://USER@HOST:PORT/DATABASE (password in PGPASSWORD). Default: the local games file."), valueName: "store"))
    public var db: String?
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp(localizer.t("PEM certificate chain: serve HTTPS."), valueName: "file"))
    public var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp(localizer.t("PEM private key of the certificate."), valueName: "file"))
    public var tlsKey: String?
    @Option(name: .customLong("account-rate"), help: help(localizer.t("Sign-ups and log-ins one address may make per minute."), default: "30", valueName: "n"))
    public var accountRate: String?
    @Option(name: .customLong("max-connections"), help: help(localizer.t("Connections held at once; lowered to what the descriptor limit (ulimit -n) allows."), default: "512", valueName: "n"))
    public var maxConnections: String?
    @Option(name: .customLong("max-connections-per-address"), help: help(localizer.t("Connections one address may hold at once (at most a quarter of --max-connections)."), default: "32", valueName: "n"))
    public var maxConnectionsPerAddress: String?
    @Option(name: .customLong("idle-timeout"), help: help(localizer.t("Seconds before a connection with no request in progress is closed."), default: "30", valueName: "seconds"))
    public var idleTimeout: String?
    @Option(name: .customLong("request-timeout"), help: help(localizer.t("Seconds a client has to send a whole request."), default: "10", valueName: "seconds"))
    public var requestTimeout: String?
    @Option(name: .customLong("event-streams"), help: help(localizer.t("Live event streams one account (or one signed-out address) may hold at once."), default: "4", valueName: "n"))
    public var eventStreams: String?
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(localizer.t("A reverse proxy (address or network, e.g. 10.0.0.0/8) whose X-Forwarded-For names the client; repeat for several. No other peer may set it."), valueName: "address"))
    public var trustedProxies: [String] = []
    @Option(name: .customLong("metrics-allow"), help: help(localizer.t("An address or network (e.g. 10.0.0.0/8) that may read /metrics; repeat for several."), default: "127.0.0.1, ::1", valueName: "address"))
    public var metricsAllow: [String] = []
    @Option(name: .customLong("log-format"), help: help(localizer.t("The log on standard error: text, or json (one object per line)."), default: "text", valueName: "format"))
    public var logFormat: String?

    /// The settings given on the command line, by name (`ServerSettings.names`).
    public var commandLineSettings: [(name: String, values: [String])] {
        let single: [(String, String?)] = [("listen", listen), ("db", db), ("tls-cert", tlsCert), ("tls-key", tlsKey),
                                           ("account-rate", accountRate), ("max-connections", maxConnections),
                                           ("max-connections-per-address", maxConnectionsPerAddress), ("idle-timeout", idleTimeout),
                                           ("request-timeout", requestTimeout), ("event-streams", eventStreams), ("log-format", logFormat)]
        let lists: [(String, [String])] = [("trusted-proxy", trustedProxies), ("metrics-allow", metricsAllow)]
        return single.compactMap { name, value in value.map { (name, [$0]) } } + lists.filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
    }

    @OptionGroup public var shared: GamesFileOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct BackupCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: localizer.t("Back up a games store to a file, while its server runs."),
        discussion: localizer.t("A SQLite store is copied with SQLite's online backup, a PostgreSQL store read as one consistent snapshot; either way the backup is a file that locker-games restore reads."))
    @Argument(help: ArgumentHelp(localizer.t("The backup file to write (replaced only once the new backup is whole)."), valueName: "file")) public var file: String
    @OptionGroup public var store: StoreOptions

    @OptionGroup public var shared: GamesFileOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

/// The store a backup is taken of or restored into: `--db`, or the `db` of a server's
/// configuration file.
public struct StoreOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp(localizer.t("The store: a SQLite file, or postgres://USER@HOST:PORT/DATABASE (password in PGPASSWORD). Default: the local games file."), valueName: "store"))
    public var db: String?
    @Option(name: .long, help: ArgumentHelp(localizer.t("A configuration file of the server, to take its store (db) from."), valueName: "file"))
    public var config: String?
}

public struct RestoreCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: localizer.t("Restore a games store from a backup file."))
    @Argument(help: ArgumentHelp(localizer.t("A file written by locker-games backup."), valueName: "file")) public var file: String
    @OptionGroup public var store: StoreOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Replace everything the store holds, when it is not empty."))) public var replace = false

    @OptionGroup public var shared: GamesFileOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

public struct BridgeCommand: GamesCommandDefinition {
    public init() {}

    public static let configuration = CommandConfiguration(commandName: "bridge", abstract: "The Games tab's helper (JSON lines).",
                                                    shouldDisplay: false)

    @OptionGroup public var shared: GamesOptions

    public func run() async throws { try await runInLockerGames { try await $0.execute(self) } }
}

/// A `--capacity` outside `GamesLimits.capacity` is a usage error, said before anything is sent.
func checkCapacity(_ capacity: Int) {
    guard !GamesLimits.capacity.contains(capacity) else { return }
    usageError(localizer.t("--capacity {value}: a game takes {lowest} to {highest} players.",
                           ["value": String(capacity), "lowest": String(GamesLimits.capacity.lowerBound), "highest": String(GamesLimits.capacity.upperBound)]))
}

/// A command that `locker-games` runs. `locker` parses it like its own commands (so its help,
/// man page and completions are right) and then hands the whole command line to `locker-games`.
public protocol GamesCommandDefinition: AsyncParsableCommand {}

/// The work of every games command: one requirement per command, so a command added above
/// without a body in `locker-games` (the one program that links the games store and server, and
/// the one that conforms) is a compile error there, not a surprise at run time.
public protocol GamesCommandBodies: Sendable {
    func execute(_ command: AccountPasswordCommand) async throws
    func execute(_ command: AccountDeleteCommand) async throws
    func execute(_ command: AccountAdminCommand) async throws
    func execute(_ command: AccountCreateCommand) async throws
    func execute(_ command: LoginCommand) async throws
    func execute(_ command: LogoutCommand) async throws
    func execute(_ command: GamesGroundsImportCommand) async throws
    func execute(_ command: GamesGroundsNearCommand) async throws
    func execute(_ command: GamesCreateCommand) async throws
    func execute(_ command: GamesEditCommand) async throws
    func execute(_ command: GamesRosterCommand) async throws
    func execute(_ command: GamesListCommand) async throws
    func execute(_ command: GamesShowCommand) async throws
    func execute(_ command: GamesBookCommand) async throws
    func execute(_ command: GamesCancelCommand) async throws
    func execute(_ command: GamesRemoveCommand) async throws
    func execute(_ command: GamesCancelGameCommand) async throws
    func execute(_ command: GamesUpcomingCommand) async throws
    func execute(_ command: GamesTodayCommand) async throws
    func execute(_ command: GamesICSCommand) async throws
    func execute(_ command: GamesWhoAmICommand) async throws
    func execute(_ command: GamesServerCommand) async throws
    func execute(_ command: ServeCommand) async throws
    func execute(_ command: BackupCommand) async throws
    func execute(_ command: RestoreCommand) async throws
    func execute(_ command: BridgeCommand) async throws
}

/// The bodies of this program's games commands: `locker-games` sets them before it parses its
/// arguments; in `locker` they stay nil and a games command hands its command line over.
nonisolated(unsafe) public var gamesCommandBodies: (any GamesCommandBodies)?

/// Runs the command's body, or hands the command line over to `locker-games` in a program that
/// has none.
func runInLockerGames(_ run: (any GamesCommandBodies) async throws -> Void) async throws {
    guard let bodies = gamesCommandBodies else { GamesForwarding.exec() }
    try await run(bodies)
}

/// `locker account|login|logout|games …` run in the separate `locker-games` program: it holds
/// the games store, whose GRDB and NIO bring full Foundation, out of the full-screen app's
/// start-up.
public enum GamesForwarding {
    /// Replaces this process by `locker-games` with the same arguments. Its first argument stays
    /// `locker`, so its messages name the command the user typed.
    public static func exec(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        guard let directory = Resources.executableURL()?.deletingLastPathComponent() else {
            fail(localizer.t("locker-games was not found next to locker; reinstall Locker."), status: 1)
        }
        let program = directory.appendingPathComponent("locker-games").path
        guard access(program, X_OK) == 0 else {
            fail(localizer.t("locker-games was not found next to locker; reinstall Locker."), status: 1)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = (["locker"] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(program, argv)
        fail(localizer.t("locker-games could not be started: {reason}", ["reason": String(cString: strerror(errno))]), status: 1)
    }
}
