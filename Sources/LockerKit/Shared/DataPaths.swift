import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where Locker keeps the user's files (docs/ARCHITECTURE.md §4, Storage; docs/DATA-FORMATS.md §1).
///
/// Data directory: `--data-dir`, else `LOCKER_DATA_DIR`, else `$XDG_DATA_HOME/locker`, else
/// `~/.local/share/locker`. The games database is `--games-db`, else `LOCKER_GAMES_DB`, else
/// `games.sqlite` in the data directory.
public struct DataPaths: Equatable, Sendable {
    public let directory: URL
    public let gamesDatabase: URL

    public init(directory: URL, gamesDatabase: URL? = nil) {
        self.directory = directory
        self.gamesDatabase = gamesDatabase ?? directory.appendingPathComponent("games.sqlite")
    }

    public static func resolve(dataDir: String?, gamesDB: String?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> DataPaths {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? DataPaths.passwordDatabaseHome()
        func expand(_ path: String) -> URL {
            let expanded = path.hasPrefix("~/") ? home + path.dropFirst(1) : path
            return URL(fileURLWithPath: expanded).standardizedFileURL
        }
        let directory: URL
        if let dataDir, !dataDir.isEmpty {
            directory = expand(dataDir)
        } else if let env = environment["LOCKER_DATA_DIR"], !env.isEmpty {
            directory = expand(env)
        } else if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            directory = URL(fileURLWithPath: xdg).appendingPathComponent("locker")
        } else {
            directory = URL(fileURLWithPath: home).appendingPathComponent(".local/share/locker")
        }
        let db = (gamesDB.flatMap { $0.isEmpty ? nil : $0 } ?? environment["LOCKER_GAMES_DB"].flatMap { $0.isEmpty ? nil : $0 })
            .map(expand)
        return DataPaths(directory: directory, gamesDatabase: db)
    }

    /// The home directory from the password database, for when HOME is unset (FoundationEssentials
    /// asks it, with HOME unset).
    static func passwordDatabaseHome() -> String {
        let path = FileManager.default.homeDirectoryForCurrentUser.path
        return path.isEmpty ? "/" : path
    }

    public var settingsFile: URL { directory.appendingPathComponent("settings.json") }
    public var gradesFile: URL { directory.appendingPathComponent("grades.json") }
    public var quizHistoryFile: URL { directory.appendingPathComponent("quiz-history.json") }
    public var quizLeitnerFile: URL { directory.appendingPathComponent("quiz-leitner.json") }
    public var officialRulesFile: URL { directory.appendingPathComponent("official-rules.json") }
    public var workoutsDirectory: URL { directory.appendingPathComponent("workouts", isDirectory: true) }

    /// Creates the directory if needed and checks that files can be written in it.
    public func prepare() -> Bool {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return false
        }
        return access(directory.path, W_OK) == 0
    }
}
