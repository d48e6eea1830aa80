import FoundationEssentials

/// The interface languages Locker ships, in the order `L` cycles through them.
public enum Language: String, CaseIterable, Codable, Sendable {
    case en, fr, es, it

    /// The next language in the cycle en → fr → es → it → en.
    public var next: Language {
        let all = Language.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The language's own name, for menus and status lines.
    public var nativeName: String {
        switch self {
        case .en: return "English"
        case .fr: return "Français"
        case .es: return "Español"
        case .it: return "Italiano"
        }
    }

    /// Parses "fr", "fr_FR.UTF-8", "es-MX" … Returns nil for anything Locker does not ship.
    public init?(localeIdentifier: String) {
        let code = localeIdentifier.lowercased().drop { $0 == " " }.prefix { $0.isLetter }
        guard let language = Language(rawValue: String(code)) else { return nil }
        self = language
    }

    /// The language the environment asks for: the first set of LC_ALL, LC_MESSAGES, LANG
    /// (as POSIX orders them); English when none names a shipped language.
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            // The first variable that is set decides, even when it is C or POSIX.
            return Language(localeIdentifier: value) ?? .en
        }
        return .en
    }
}
