import ArgumentParser
import LockerKit

/// ArgumentParser's usage errors in the user's language. The parser writes them in English, in
/// a few fixed forms (its `UsageGenerator`); each form known here is read back and said again
/// through the localizer. A form not known here (a newer parser's) is shown as the parser wrote it.
enum ParserErrorText {
    /// The parser's whole message (`Root.fullMessage(for:)`, without "Error: "): its first line
    /// and any value list below it, its usage line and its pointer to the help.
    static func translate(_ message: String, _ l: Localizer) -> String {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { return message }
        // A list of the values an option takes, one per line below the first.
        let bullets = lines.indices.dropFirst().filter { lines[$0].hasPrefix("  - ") }
        if let sentence = sentence(lines[0], values: bullets.map { String(lines[$0].dropFirst(4)) }, l) {
            lines[0] = sentence
            lines.removeAll { $0.hasPrefix("  - ") }
        }
        return lines.map { line in
            if line.hasPrefix("Usage: ") { return l.t("Usage:") + " " + line.dropFirst(7) }
            if line.hasPrefix("Help:  ") { return l.t("Help:") + "  " + line.dropFirst(7) }
            if let match = line.wholeMatch(of: #/  See '(.+)' for more information\./#) {
                return "  " + l.t("See '{command}' for more information.", ["command": String(match.1)])
            }
            return line
        }.joined(separator: "\n")
    }

    /// The first line said again, or nil when its form is not known.
    private static func sentence(_ line: String, values: [String], _ l: Localizer) -> String? {
        if let m = line.wholeMatch(of: #/Unknown option '(.+)'\. Did you mean '(.+)'\?/#) {
            return l.t("Unknown option '{option}'. Did you mean '{suggestion}'?", ["option": String(m.1), "suggestion": String(m.2)])
        }
        if let m = line.wholeMatch(of: #/Unknown option '(.+)'/#) {
            return l.t("Unknown option '{option}'.", ["option": String(m.1)])
        }
        if let m = line.wholeMatch(of: #/Invalid option: (.+)/#) {
            return l.t("Unknown option '{option}'.", ["option": String(m.1)])
        }
        if let m = line.wholeMatch(of: #/Missing value for '(.+)'/#) {
            return l.t("'{option}' needs a value.", ["option": String(m.1)])
        }
        if let m = line.wholeMatch(of: #/Missing expected argument '(.+)'/#) {
            return l.t("'{argument}' is missing.", ["argument": String(m.1)])
        }
        if let m = line.wholeMatch(of: #/Missing one of: (.+)/#) {
            return l.t("One of these is missing: {arguments}.", ["arguments": String(m.1)])
        }
        if line == "Missing required subcommand." {
            return l.t("A command is missing.")
        }
        if let m = line.wholeMatch(of: #/Unexpected argument '(.+)'/#) {
            return l.t("Unexpected argument '{argument}'.", ["argument": String(m.1)])
        }
        if let m = line.wholeMatch(of: #/(\d+) unexpected arguments: (.+)/#), let count = Int(m.1) {
            return l.n("{count} unexpected argument: {arguments}.", "{count} unexpected arguments: {arguments}.", count: count,
                       ["arguments": String(m.2)])
        }
        if let m = line.wholeMatch(of: #/The option '(.+)' does not take any value, but '(.*)' was specified\./#) {
            return l.t("'{option}' takes no value, but '{value}' was given.", ["option": String(m.1), "value": String(m.2)])
        }
        if let m = line.wholeMatch(of: #/The value '(.*)' is invalid for '([^']+)'(.*)/#) ?? line.wholeMatch(of: #/The value '(.*)' is invalid()\.(.*)/#) {
            let value = String(m.1), option = String(m.2), rest = String(m.3)
            var text = option.isEmpty ? l.t("The value '{value}' is not valid.", ["value": value])
                                      : l.t("The value '{value}' is not valid for '{option}'.", ["value": value, "option": option])
            if rest.hasPrefix(": ") {
                text += " " + rest.dropFirst(2)
            } else if rest.hasPrefix(". Please provide one of") {
                let listed = rest.matches(of: #/'([^']*)'/#).map { String($0.1) }
                text += " " + l.t("Give one of: {values}.", ["values": (listed + values).joined(separator: ", ")])
            } else if !rest.isEmpty {
                return nil
            }
            return text
        }
        return nil
    }

    /// For `help NAME …`: the first name that is no command (ArgumentParser's help prints the
    /// root's help for it) and the command it was looked for in ("locker dive"), or nil when
    /// every name is one.
    static func unknownHelpTopic<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) -> (name: String, parent: String)? {
        guard let start = arguments.firstIndex(of: "help") else { return nil }
        var current: ParsableCommand.Type = root
        var path = [root._commandName]
        for name in arguments[(start + 1)...].prefix(while: { !$0.hasPrefix("-") }) {
            guard let next = current.configuration.subcommands.first(where: { $0._commandName == name || $0.configuration.aliases.contains(name) })
            else { return (name, path.joined(separator: " ")) }
            current = next
            path.append(name)
        }
        return nil
    }
}
