import FoundationEssentials

/// The tabs of the shell, in the order of their number keys 1…6.
public enum Tab: String, CaseIterable, Codable, Sendable {
    case rules, penalties, quiz, grades, workout, games

    public var number: Int { Tab.allCases.firstIndex(of: self)! + 1 }
}

/// The colour schemes; `mono` uses attributes only.
public enum ThemeChoice: String, CaseIterable, Codable, Sendable {
    case dark, light, mono

    public var next: ThemeChoice {
        let all = ThemeChoice.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// What Locker remembers between runs (settings.json). Every field is optional so that a file
/// written by an older or newer Locker still loads; values that are not understood are ignored.
public struct Settings: Codable, Equatable, Sendable {
    public var language: Language?
    public var theme: ThemeChoice?
    public var lastTab: Tab?
    /// The runner's maximum heart rate for the workout zones (else each workout's own maximum).
    public var maxHeartRate: Int?
    /// The games server the Games tab and commands use (else the local games file).
    public var gamesServer: String?
    /// A copy (in the data folder) of the certificate authority the saved games server's
    /// certificate is signed by, when it is the club's own (`locker --games-ca FILE games server URL`).
    public var gamesCertificate: String?

    public init(language: Language? = nil, theme: ThemeChoice? = nil, lastTab: Tab? = nil, maxHeartRate: Int? = nil, gamesServer: String? = nil) {
        self.language = language
        self.theme = theme
        self.lastTab = lastTab
        self.maxHeartRate = maxHeartRate
        self.gamesServer = gamesServer
    }

    enum CodingKeys: String, CodingKey { case language, theme, lastTab, maxHeartRate, gamesServer, gamesCertificate }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A value of the right type that Locker does not know (a language it no longer ships)
        // is dropped; a value of the wrong type makes the file unreadable.
        language = try container.decodeIfPresent(String.self, forKey: .language).flatMap(Language.init(rawValue:))
        theme = try container.decodeIfPresent(String.self, forKey: .theme).flatMap(ThemeChoice.init(rawValue:))
        lastTab = try container.decodeIfPresent(String.self, forKey: .lastTab).flatMap(Tab.init(rawValue:))
        maxHeartRate = try container.decodeIfPresent(Int.self, forKey: .maxHeartRate).flatMap { (100...250).contains($0) ? $0 : nil }
        gamesServer = try container.decodeIfPresent(String.self, forKey: .gamesServer).flatMap { $0.isEmpty ? nil : $0 }
        gamesCertificate = try container.decodeIfPresent(String.self, forKey: .gamesCertificate).flatMap { $0.isEmpty ? nil : $0 }
    }
}
