// `locker account|login|logout|games …` run in the separate `locker-games` program (it holds
// the games database, whose GRDB brings full Foundation): `locker` execs it with the same
// arguments before parsing anything, and lists the commands in its own help.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

enum GamesForwarding {
    static let commands: Set<String> = ["account", "login", "logout", "games"]
    /// Root options that take a value (their value is not a command name).
    static let optionsWithValue: Set<String> = ["--tab", "--lang", "--theme", "--data-dir", "--games-db", "--games-server", "--games-ca"]

    /// The first word that is not an option or an option's value.
    static func command(in arguments: [String]) -> String? {
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if optionsWithValue.contains(argument) { skipNext = true; continue }
            if argument.hasPrefix("-") { continue }
            return argument
        }
        return nil
    }

    /// Replaces this process by `locker-games` when the command is a games command.
    static func execIfGamesCommand() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = command(in: arguments), commands.contains(command) else { return }
        guard let directory = Resources.executableURL()?.deletingLastPathComponent() else {
            fail(localizer.t("locker-games was not found next to locker; reinstall Locker."), status: 1)
        }
        let program = directory.appendingPathComponent("locker-games").path
        guard access(program, X_OK) == 0 else {
            fail(localizer.t("locker-games was not found next to locker; reinstall Locker."), status: 1)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(program, argv)
        fail(localizer.t("locker-games could not be started: {reason}", ["reason": String(cString: strerror(errno))]), status: 1)
    }
}

/// Help entries for the forwarded commands (they never run here: `locker` execs `locker-games`).
struct AccountForward: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "account", abstract: localizer.t("Games accounts."))
    @Argument(parsing: .captureForPassthrough) var rest: [String] = []
}

struct LoginForward: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: localizer.t("Log in to the games database (the session is kept in the data folder)."))
    @Argument(parsing: .captureForPassthrough) var rest: [String] = []
}

struct LogoutForward: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: localizer.t("Log out of the games database."))
    @Argument(parsing: .captureForPassthrough) var rest: [String] = []
}

struct GamesForward: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "games", abstract: localizer.t("Pickup cricket games in the City of Casey: grounds, games, bookings."))
    @Argument(parsing: .captureForPassthrough) var rest: [String] = []
}
