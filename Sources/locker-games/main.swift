// `locker-games`: runs `locker account|login|logout|games …`. `locker` execs this program for
// those commands, so the games database (GRDB, which brings full Foundation) stays out of the
// full-screen app's start-up. It takes the same root options as `locker`.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerKit

struct LockerGamesTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: invokedName,
        abstract: localizer.t("Pickup cricket games in the City of Casey: grounds, games, bookings."),
        version: "\(invokedName) \(LockerVersion.current)",
        subcommands: [AccountCommand.self, LoginCommand.self, LogoutCommand.self, GamesCommand.self, ServeCommand.self,
                      BackupCommand.self, RestoreCommand.self])

    /// `locker` when `locker` started this program for one of its commands (it passes its own
    /// name as the first argument), else `locker-games`: help then names what the user typed.
    static let invokedName = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } == "locker" ? "locker" : "locker-games"

    @OptionGroup var shared: GamesOptions
}

prepareProcess()
gamesCommandBodies = LockerGamesCommandBodies()
// Inside an async function `main(_:)` means the asynchronous entry point; in top-level code it
// would resolve to the synchronous one, which refuses an async root command.
enum Entry {
    static func start() async { await CommandLineEntry.main(LockerGamesTool.self, arguments: Array(CommandLine.arguments.dropFirst())) }
}
await Entry.start()
