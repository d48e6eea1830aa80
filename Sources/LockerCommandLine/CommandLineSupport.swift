// What every Locker command-line program shares: the environment, the bundled files, the early
// language, one-line translated failures, JSON output and the root options subcommands read.
import ArgumentParser
import FoundationEssentials
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

public let environment = ProcessInfo.processInfo.environment
public let resources = Resources.locate(environment: environment)

/// The language for this run: `--lang` when it names a shipped language, else the environment.
/// (The saved setting is applied later by the shell, which knows the data directory.)
public func earlyLanguage() -> Language {
    let arguments = CommandLine.arguments
    for (index, argument) in arguments.enumerated() {
        // Lower-cased as `checkedLanguage` reads it: `--lang FR` is French here too.
        if argument == "--lang", index + 1 < arguments.count, let l = Language(rawValue: arguments[index + 1].lowercased()) {
            return l
        }
        if argument.hasPrefix("--lang="), let l = Language(rawValue: String(argument.dropFirst(7)).lowercased()) { return l }
    }
    return Language.fromEnvironment(environment)
}

public let localizer = Localizer(directory: resources?.localizationDirectory, language: earlyLanguage())

/// Process-wide settings both programs make before anything else. SIGXFSZ is ignored so that a
/// write past the file size limit (`ulimit -f`) fails with EFBIG, which a save reports, instead
/// of killing the process with a half-written temp file.
public func prepareProcess() {
    signal(SIGXFSZ, SIG_IGN)
}

/// Prints one translated sentence to standard error and exits with `status`.
public func fail(_ message: String, status: Int32) -> Never {
    warn(message)
    exit(status)
}

/// Prints one translated sentence to standard error, after "locker: ". What it quotes (a file
/// name, a search, an option someone typed) cannot reach the terminal as control characters:
/// they show as replacement marks, as in the app.
public func warn(_ message: String) {
    fputs("locker: " + TerminalText.inertKeepingLines(message) + "\n", stderr)
}

/// The exit status of every usage error (EX_USAGE of sysexits.h): an unknown command or
/// option, a missing value, or a value an option cannot take. README's "Exit status" lists them.
public let usageStatus: Int32 = 64

/// A usage error: one translated sentence and exit status 64, like every other usage error.
public func usageError(_ message: String) -> Never {
    fail(message, status: usageStatus)
}

/// The usage error of a path option given an empty value.
func emptyPathMessage(_ option: String) -> String {
    localizer.t("{option} was given an empty path; give a path, or leave the option out to use the usual one.", ["option": option])
}

public func validValues<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> String where T.RawValue == String {
    T.allCases.map(\.rawValue).joined(separator: ", ")
}

/// A `--lang` value as a language; anything else is a usage error.
public func checkedLanguage(_ value: String) -> Language {
    guard let language = Language(rawValue: value.lowercased()) else {
        usageError(localizer.t("Unknown language \"{value}\". Valid languages: {values}.", ["value": value, "values": validValues(Language.self)]))
    }
    return language
}

/// The bundled data folder, or a clear error when Locker's files cannot be found.
public func bundledData() -> URL {
    guard let resources else {
        fail(localizer.t("Locker's bundled data was not found. Set LOCKER_RESOURCES to the folder that holds Data and Localization."), status: 1)
    }
    return resources.dataDirectory
}

/// Writes a value as pretty JSON (sorted keys) on standard output. Text stays exact, and
/// stays inert in a terminal: besides the C0 controls JSON itself escapes, DEL, the C1 controls
/// (U+009B starts an escape sequence on many terminals), bidirectional controls and line and
/// paragraph separators are written as `\uXXXX`.
public func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { fail("JSON encoding failed", status: 1) }
    print(inertJSON(String(decoding: data, as: UTF8.self)))
}

/// JSON text with the characters that act in a terminal escaped (they can only be inside
/// strings: JSON's own syntax is plain ASCII).
public func inertJSON(_ json: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
        switch scalar.value {
        case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069:
            let hex = String(scalar.value, radix: 16)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        default:
            result.append(scalar)
        }
    }
    return String(result)
}

/// The options both programs take before (or after) any command, declared once. `locker` and
/// `locker-games` put them on their root command and every subcommand that reads them declares
/// `@OptionGroup var shared: SharedOptions`: ArgumentParser hands it the root's parsed value.
/// The options every command reads: the language and the data folder.
public struct SharedOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp(localizer.t("Interface language: {values} (default from LC_ALL, LC_MESSAGES, LANG).", ["values": validValues(Language.self)]), valueName: "lang"),
            completion: .list(Language.allCases.map(\.rawValue)))
    public var lang: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(localizer.t("Folder for settings, grades, quiz history and workouts."), valueName: "dir"), completion: .directory)
    public var dataDir: String?

    /// An empty `--data-dir` (a variable that was not set, `--data-dir "$DIR"`) is a usage error:
    /// read as no option, it would write into the usual data folder instead.
    public func validate() throws {
        if let lang { _ = checkedLanguage(lang) }
        if dataDir?.isEmpty == true { usageError(emptyPathMessage("--data-dir")) }
    }

    /// The data folder these options and the environment name.
    public var paths: DataPaths { DataPaths.resolve(dataDir: dataDir, gamesDB: nil, environment: environment) }
}

/// The options of a command that opens the local games file itself (the server, backups,
/// `account admin`): the shared ones and `--games-db`.
public struct GamesFileOptions: ParsableArguments {
    public init() {}

    @OptionGroup public var common: SharedOptions

    @Option(name: .customLong("games-db"), help: ArgumentHelp(localizer.t("Your local games database file (default: games.sqlite in the data folder). It must be yours alone: a club shares games through a games server."), valueName: "file"), completion: .file())
    public var gamesDB: String?

    /// An empty `--games-db` is a usage error, as an empty `--data-dir` is.
    public func validate() throws {
        if gamesDB?.isEmpty == true { usageError(emptyPathMessage("--games-db")) }
    }

    public var lang: String? { common.lang }
    /// The data folder and games file these options and the environment name.
    public var paths: DataPaths { DataPaths.resolve(dataDir: common.dataDir, gamesDB: gamesDB, environment: environment) }
}

/// The options of a command that reaches the games, on a server or in the local file: the
/// shared ones, `--games-db` and the server's address and trust.
public struct GamesOptions: ParsableArguments {
    public init() {}

    @OptionGroup public var file: GamesFileOptions

    @Option(name: .customLong("games-server"), help: ArgumentHelp(localizer.t("A Locker games server (https://host:port) for the Games tab and commands; also LOCKER_GAMES_SERVER or `locker games server URL`."), valueName: "url"))
    public var gamesServer: String?

    @Flag(name: .customLong("games-server-insecure"), help: ArgumentHelp(localizer.t("Allow plain http:// to a games server on another machine.")))
    public var gamesServerInsecure = false

    @Option(name: .customLong("games-ca"), help: ArgumentHelp(localizer.t("A PEM file of the certificate authority (or certificate) of your club's games server, trusted besides the system's; also SSL_CERT_FILE and SSL_CERT_DIR."), valueName: "file"), completion: .file(extensions: ["pem", "crt"]))
    public var gamesCA: String?

    /// A `--games-server` that is not an http(s) address is a usage error, like any bad value.
    public func validate() throws {
        if let gamesServer, !gamesServer.isEmpty, GamesServerAddress(gamesServer) == nil {
            usageError(GamesError.badServerAddress(gamesServer).message(localizer))
        }
    }

    public var lang: String? { file.lang }
    public var gamesDB: String? { file.gamesDB }
    public var paths: DataPaths { file.paths }
}

/// Parses the command line of `Root` and runs the command it names, with one form for every
/// usage error: `locker: <sentence>`, the usage line, and exit status 64. Help and version
/// print as ArgumentParser writes them and exit 0; a command's own failure keeps its status.
public enum CommandLineEntry {
    public static func parse<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) -> ParsableCommand {
        do {
            let command = try Root.parseAsRoot(arguments)
            if type(of: command)._commandName == "help", let topic = ParserErrorText.unknownHelpTopic(root, arguments) {
                warn(localizer.t("There is no command '{command}'.", ["command": topic.name]) + "\n  "
                      + localizer.t("See '{command}' for more information.", ["command": "\(topic.parent) --help"]))
                exit(usageStatus)
            }
            return command
        } catch {
            if Root.exitCode(for: error) == .success { Root.exit(withError: error) }
            reportUsageError(root, error)
        }
    }

    /// Runs a parsed synchronous command; an error it throws ends the process as ArgumentParser would.
    public static func run<Root: ParsableCommand>(_ parsed: ParsableCommand, of root: Root.Type) -> Never {
        var command = parsed
        do {
            try command.run()
            exit(0)
        } catch {
            end(Root.self, error)
        }
    }

    /// Ends the process for an error a command threw. A bare exit status (the full-screen app's,
    /// at `q`) leaves at once: ArgumentParser would first lay out the help of every command to
    /// find that there is nothing to print (about 3 ms).
    private static func end<Root: ParsableCommand>(_ root: Root.Type, _ error: Error) -> Never {
        if let code = error as? ExitCode { exit(code.rawValue) }
        Root.exit(withError: error)
    }

    /// Runs a command that may be asynchronous.
    public static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        let command = parse(root, arguments)
        guard var asynchronous = command as? AsyncParsableCommand else { run(command, of: root) }
        do {
            try await asynchronous.run()
            exit(0)
        } catch {
            end(Root.self, error)
        }
    }

    private static func reportUsageError<Root: ParsableCommand>(_ root: Root.Type, _ error: Error) -> Never {
        var message = Root.fullMessage(for: error)
        if message.hasPrefix("Error: ") { message.removeFirst(7) }
        warn(ParserErrorText.translate(message, localizer))
        exit(usageStatus)
    }
}

/// `value` as one line of JSON (keys sorted), for feeds read line by line.
public func printJSONLine<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { fail("JSON encoding failed", status: 1) }
    print(inertJSON(String(decoding: data, as: UTF8.self)))
}
