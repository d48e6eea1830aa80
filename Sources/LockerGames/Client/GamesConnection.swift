import LockerKit
import FoundationEssentials
import Logging

/// Which games store the commands and the tab use: a games server (`--games-server`, then
/// `LOCKER_GAMES_SERVER`, then the saved setting) or, with none, the local SQLite file through
/// the same `GamesAPI`. Each target has its own session file in the data folder.
public struct GamesConnection: Sendable {
    public let api: GamesAPI
    public let session: GamesSessionFile
    /// 12 hex digits that tell this store from every other: of the server's address, or of this
    /// machine's name and the local file's path. Game 1 of one store is not game 1 of another
    /// (calendar files' UIDs carry it).
    public let storeTag: String

    /// The server address in force, if any.
    public static func serverAddress(flag: String?, environment: [String: String], paths: DataPaths) -> String? {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment["LOCKER_GAMES_SERVER"], !value.isEmpty { return value }
        return (try? DataFileError.decode(Settings.self, from: paths.settingsFile))?.gamesServer
    }

    /// Opens the target: checks the server address, or opens (creating, migrating and seeding
    /// with the bundled grounds) the local file.
    public static func open(paths: DataPaths, server: String?, insecure: Bool, trust: GamesTrust = GamesTrust(),
                            bundled: URL) async throws -> GamesConnection {
        // The session files live in the data folder, whichever the target.
        guard paths.prepare() else { throw GamesError.dataFolderUnwritable(paths.directory.path) }
        if let server {
            let client = try GamesHTTPClient(url: server, allowInsecure: insecure, trust: trust)
            let tag = tag(of: client.baseURL)
            return GamesConnection(api: client, session: GamesSessionFile(directory: paths.directory, name: "games-session-\(tag)"), storeTag: tag)
        }
        let service = try await localService(database: SQLiteGamesDatabase(path: paths.gamesDatabase.path), bundled: bundled)
        return GamesConnection(api: service, session: GamesSessionFile(directory: paths.directory),
                               storeTag: tag(of: "file:" + ProcessInfo.processInfo.hostName + ":" + paths.gamesDatabase.standardizedFileURL.path))
    }

    /// The first 12 hex digits of the SHA-256 of `text`.
    static func tag(of text: String) -> String { String(SHA256.hex(SHA256.hash(Array(text.utf8))).prefix(12)) }

    /// A service over a store with the bundled suburbs (for postcodes); an empty store gets the
    /// bundled grounds.
    public static func localService(database: GamesDatabase, bundled: URL) async throws -> GamesService {
        let suburbs: [Suburb]
        let common: Set<String>
        do {
            suburbs = try SuburbsFile.read(bundled.appendingPathComponent("games/suburbs.csv"))
            common = try CommonPasswordsFile.read(bundled.appendingPathComponent("games/common-passwords.txt"))
        } catch {
            throw GamesError.database("the bundled games data cannot be read")
        }
        let service = GamesService(database: database, suburbs: suburbs, commonPasswords: common)
        try await service.seedGroundsIfEmpty { try GroundsFile.read(bundled.appendingPathComponent("games/grounds.csv")) }
        return service
    }
}

/// The session file of one games target (0600): the bearer token of the logged-in account.
public struct GamesSessionFile: Sendable {
    public let url: URL

    public init(directory: URL, name: String = "games-session") {
        url = directory.appendingPathComponent(name)
    }

    public func read() -> String? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let token = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        return token.count == 32 && token.allSatisfy(\.isHexDigit) ? token : nil
    }

    public func write(_ token: String) throws {
        try AtomicFile.write(Data((token + "\n").utf8), to: url, permissions: 0o600)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Where the device tokens this target gave wait (0600): a line "name token" for each name
    /// that logged in here. A log-out keeps them: they only let the name's owner through when
    /// strangers' guesses hold the name (`GamesLimits.deviceThrottle`).
    var devicesURL: URL { url.appendingPathExtension("devices") }

    /// The device token this target gave `name` here, if any.
    public func device(for name: String) -> String? {
        devices()[name.lowercased()]
    }

    /// Keeps the device token a log-in or sign-up of `name` answered (nothing when it gave none).
    public func rememberDevice(_ device: String?, for name: String) {
        guard let device, device.utf8.count == 32, device.allSatisfy(\.isHexDigit) else { return }
        var known = devices()
        guard known[name.lowercased()] != device else { return }
        known[name.lowercased()] = device
        let text = known.keys.sorted().map { "\($0) \(known[$0]!)\n" }.joined()
        try? AtomicFile.write(Data(text.utf8), to: devicesURL, permissions: 0o600)
    }

    private func devices() -> [String: String] {
        guard let data = FileManager.default.contents(atPath: devicesURL.path) else { return [:] }
        var known: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { known[String(parts[0])] = String(parts[1]) }
        }
        return known
    }

    /// Where a token waits that was forgotten here but could not be ended on the server, for
    /// `logout --everywhere` to end later.
    var unendedURL: URL { url.appendingPathExtension("unended") }

    /// Forgets the session here, keeping its token aside (0600) to be ended on the server later.
    public func setAsideUnended(_ token: String) {
        try? AtomicFile.write(Data((token + "\n").utf8), to: unendedURL, permissions: 0o600)
        remove()
    }

    /// The token set aside by `setAsideUnended`, if any.
    public func unended() -> String? {
        GamesSessionFile(url: unendedURL).read()
    }

    public func removeUnended() {
        try? FileManager.default.removeItem(at: unendedURL)
    }

    init(url: URL) { self.url = url }
}
