// `locker-games`: runs `locker account|login|logout|games …`. `locker` execs this program for
// those commands, so the games database (GRDB, which brings full Foundation) stays out of the
// full-screen app's start-up. It takes the same root options as `locker`.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerKit

struct LockerGamesTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locker",
        abstract: localizer.t("Pickup cricket games in the City of Casey: grounds, games, bookings."),
        version: "locker \(LockerVersion.current)",
        subcommands: [AccountCommand.self, LoginCommand.self, LogoutCommand.self, GamesCommand.self, ServeCommand.self])

    @Option(name: .long, help: ArgumentHelp(localizer.t("Interface language: {values} (default from LC_ALL, LC_MESSAGES, LANG).", ["values": validValues(Language.self)]), valueName: "lang"))
    var lang: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(localizer.t("Folder for settings, grades, quiz history and workouts."), valueName: "dir"))
    var dataDir: String?

    @Option(name: .customLong("games-db"), help: ArgumentHelp(localizer.t("Games database file (shared by several users of one host)."), valueName: "file"))
    var gamesDB: String?

    @Option(name: .customLong("games-server"), help: ArgumentHelp(localizer.t("A Locker games server (https://host:port) for the Games tab and commands; also LOCKER_GAMES_SERVER or `locker games server URL`."), valueName: "url"))
    var gamesServer: String?

    @Flag(name: .customLong("games-server-insecure"), help: ArgumentHelp(localizer.t("Allow plain http:// to a games server on another machine.")))
    var gamesServerInsecure = false

    @Option(name: .customLong("games-ca"), help: ArgumentHelp(localizer.t("A PEM file of the certificate authority (or certificate) of your club's games server, trusted besides the system's; also SSL_CERT_FILE and SSL_CERT_DIR."), valueName: "file"))
    var gamesCA: String?

    func validate() throws {
        if let lang { _ = checkedLanguage(lang) }
        RootOptions.dataDir = dataDir
        RootOptions.gamesDB = gamesDB
        GamesOptions.server = gamesServer
        GamesOptions.insecure = gamesServerInsecure
        GamesOptions.certificateAuthority = gamesCA
    }
}

prepareProcess()
// Inside an async function `main()` means the asynchronous entry point; in top-level code it
// would resolve to the synchronous one, which refuses an async root command.
enum Entry {
    static func start() async { await LockerGamesTool.main() }
}
await Entry.start()
