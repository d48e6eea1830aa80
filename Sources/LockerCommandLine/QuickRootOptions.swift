// The command lines that only start the full-screen app (`locker`, `locker --tab quiz --lang
// fr`), read without ArgumentParser. ArgumentParser learns a command's options by reflecting
// over every one of them, and the Swift runtime's first answer to each "does this type conform
// to that protocol" scans all 5,000 conformance records of the binary: 15 million instructions,
// about 2 ms, before the first frame could be drawn (callgrind, docs/PERFORMANCE.md).

/// A command line made of nothing but root long options from a known list, each given at most
/// once: the options it gives, by long name. Anything else (a subcommand, `--help`, an option
/// not in the lists, an option twice, a value that is empty or starts with `-`) is left to
/// ArgumentParser, which runs it or explains the mistake with its usual message.
public struct QuickRootOptions: Equatable {
    /// The values of the options given, by long name (without `--`).
    public private(set) var values: [String: String] = [:]
    /// The flags given, by long name.
    public private(set) var flags: Set<String> = []

    /// Reads `arguments` (without the program name) against the option names `valued` (each
    /// takes a value: `--name value` or `--name=value`) and `flags` (`--name`); nil when the
    /// line holds anything else.
    public init?(_ arguments: [String], valued: Set<String>, flags known: Set<String>) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                let name = String(body[..<equals])
                guard valued.contains(name) else { return nil }
                guard take(name, value: String(body[body.index(after: equals)...])) else { return nil }
            } else if known.contains(String(body)) {
                guard flags.insert(String(body)).inserted else { return nil }
            } else if valued.contains(String(body)), index < arguments.count {
                guard take(String(body), value: arguments[index]) else { return nil }
                index += 1
            } else {
                return nil
            }
        }
    }

    /// Whether `name` is given for the first time with a value ArgumentParser would read as one.
    private mutating func take(_ name: String, value: String) -> Bool {
        guard !value.isEmpty, !value.hasPrefix("-"), values[name] == nil else { return false }
        values[name] = value
        return true
    }
}

extension QuickRootOptions {
    /// `locker`'s root options read this way: all but `--debug-fault` (a hidden test option),
    /// `--help` and `--version`, which ArgumentParser prints. A test compares them with the root
    /// options ArgumentParser lists (`locker --experimental-dump-help`).
    public static let lockerValued: Set<String> = ["tab", "theme", "lang", "data-dir", "games-db", "games-server", "games-ca"]
    public static let lockerFlags: Set<String> = ["ascii", "about", "games-server-insecure"]

    /// `locker`'s command line, when it holds only the root options above.
    public static func locker(_ arguments: [String]) -> QuickRootOptions? {
        QuickRootOptions(arguments, valued: lockerValued, flags: lockerFlags)
    }
}
