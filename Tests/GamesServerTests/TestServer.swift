import Foundation
import Logging
import XCTest
@testable import LockerGames
@testable import LockerKit

/// A games server on a free loopback port over a fresh SQLite file in a temporary folder, for
/// the tests of the wire (limits, TLS, proxies) where the store does not matter.
struct TestServer {
    let folder: URL
    let database: SQLiteGamesDatabase
    let task: Task<Void, Error>
    let port: Int

    /// Starts it with the default options changed by `configure` (the port is always free).
    static func start(configure: (inout GamesServerOptions, URL) throws -> Void = { _, _ in }) async throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("games-wire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try SQLiteGamesDatabase(path: folder.appendingPathComponent("games.sqlite").path)
        let suburbs = try SuburbsFile.read(packageRoot.appendingPathComponent("Data/games/suburbs.csv"))
        var options = GamesServerOptions()
        options.port = 0
        try configure(&options, folder)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = try GamesServer.application(service: GamesService(database: database, suburbs: suburbs), options: options,
                                              logger: logger) { continuation.yield($0) }
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        return TestServer(folder: folder, database: database, task: task, port: await iterator.next() ?? 0)
    }

    /// Stops the server, closes the store and removes the folder.
    func stop() async {
        task.cancel()
        _ = try? await task.value
        await database.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
