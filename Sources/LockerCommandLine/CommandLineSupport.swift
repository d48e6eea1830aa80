// What every Locker command-line program shares: the environment, the bundled files, the early
// language, one-line translated failures, JSON output and the root options subcommands read.
import ArgumentParser
import FoundationEssentials
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

public let environment = ProcessInfo.processInfo.environment
public let resources = Resources.locate()

/// The language for this run: `--lang` when it names a shipped language, else the environment.
/// (The saved setting is applied later by the shell, which knows the data directory.)
public func earlyLanguage() -> Language {
    let arguments = CommandLine.arguments
    for (index, argument) in arguments.enumerated() {
        if argument == "--lang", index + 1 < arguments.count, let l = Language(rawValue: arguments[index + 1]) {
            return l
        }
        if argument.hasPrefix("--lang="), let l = Language(rawValue: String(argument.dropFirst(7))) { return l }
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
    fputs("locker: " + message + "\n", stderr)
    exit(status)
}

public func validValues<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> String where T.RawValue == String {
    T.allCases.map(\.rawValue).joined(separator: ", ")
}

/// A `--lang` value as a language; anything else is one translated line and exit status 2.
public func checkedLanguage(_ value: String) -> Language {
    guard let language = Language(rawValue: value.lowercased()) else {
        fail(localizer.t("Unknown language \"{value}\". Valid languages: {values}.", ["value": value, "values": validValues(Language.self)]), status: 2)
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

/// Root options that subcommands need (ArgumentParser parses them on the root command).
public enum RootOptions {
    public nonisolated(unsafe) static var dataDir: String?
    public nonisolated(unsafe) static var gamesDB: String?
    public static var paths: DataPaths { DataPaths.resolve(dataDir: dataDir, gamesDB: nil, environment: environment) }
}

/// Documents `--lang` in a subcommand's help; the value itself is parsed by the root command.
public struct LanguageHelp: ParsableArguments {
    public init() {}
    @Flag(name: .customLong("lang L"), help: ArgumentHelp(localizer.t("Interface language: {values} (default from LC_ALL, LC_MESSAGES, LANG).", ["values": validValues(Language.self)])))
    public var documented = false
}

