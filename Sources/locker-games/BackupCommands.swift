// `locker-games backup` and `locker-games restore`: a games store to a file and back.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerGames
import LockerKit

extension BackupCommand {
    func execute() async throws {
        let store = BackupStores.store(store, shared: shared)
        // A mistyped file would be created empty and backed up over the last good backup.
        if !store.contains("://"), !FileManager.default.fileExists(atPath: store) {
            fail(localizer.t("The games store {file} does not exist: give --db the store's file, or --config the server's configuration.",
                             ["file": store]), status: 1)
        }
        let database = await GamesContext.run { try await ServeCommand.openStore(store) }
        let summary = await BackupStores.run { try await GamesBackup.backup(database, to: file) }
        await database.close()
        print(localizer.t("Backed up {summary} to {file}.", ["summary": BackupStores.describe(summary), "file": file]))
    }
}

extension RestoreCommand {
    func execute() async throws {
        let store = BackupStores.store(store, shared: shared)
        // The backup is read and checked before the store is opened: a file that is not a
        // backup leaves no new store behind.
        let backup = await BackupStores.run { try GamesBackup.read(file) }
        let database = await GamesContext.run { try await ServeCommand.openStore(store) }
        let summary = await BackupStores.run { try await GamesBackup.restore(backup, into: database, replace: replace) }
        await database.close()
        print(localizer.t("Restored {summary} from {file}.", ["summary": BackupStores.describe(summary), "file": file]))
    }
}

/// What the two commands share: where the store is, and their failures as one translated line.
enum BackupStores {
    /// `--db`, else the configuration file's `db`, else the local games file.
    static func store(_ options: StoreOptions, shared: GamesFileOptions) -> String {
        if let db = options.db { return db }
        if let config = options.config {
            do {
                var settings = ServerSettings()
                try ServerConfigurationFile(path: config).apply(to: &settings)
                if let db = settings.db { return db }
            } catch {
                fail(error.message(localizer), status: ServeCommand.configurationStatus)
            }
        }
        let path = shared.paths.gamesDatabase.path
        _ = shared.paths.prepare()
        return path
    }

    static func run<T>(_ body: () async throws -> T) async -> T {
        do {
            return try await body()
        } catch let problem as GamesBackup.Problem {
            fail(problem.message(localizer), status: 1)
        } catch let error as GamesError {
            fail(error.message(localizer), status: 1)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    static func describe(_ summary: GamesBackup.Summary) -> String {
        [localizer.n("{count} account", "{count} accounts", count: summary.accounts),
         localizer.n("{count} game", "{count} games", count: summary.games),
         localizer.n("{count} booking", "{count} bookings", count: summary.bookings)].joined(separator: ", ")
    }
}
