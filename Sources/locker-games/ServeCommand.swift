// `locker-games serve` (also `locker games serve`): the games server.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerGames
import LockerKit
import Logging

#if canImport(Glibc)
import Glibc
#endif

extension ServeCommand: GamesCommandBody {
    public func execute() async throws {
        var options = GamesServerOptions()
        guard let (host, port) = ServeCommand.hostAndPort(listen) else {
            usageError(localizer.t("“{value}” is not an address to listen on: write HOST:PORT, e.g. 127.0.0.1:8787.", ["value": listen]))
        }
        options.host = host
        options.port = port
        guard (tlsCert == nil) == (tlsKey == nil) else { usageError(localizer.t("Give both --tls-cert and --tls-key, or neither.")) }
        options.tlsCertificate = tlsCert
        options.tlsKey = tlsKey
        options.accountRequestsPerMinute = accountRate
        for (value, name) in [(accountRate, "--account-rate"), (maxConnections, "--max-connections"),
                              (maxConnectionsPerAddress, "--max-connections-per-address"), (idleTimeout, "--idle-timeout"),
                              (requestTimeout, "--request-timeout"), (eventStreams, "--event-streams")] where value < 1 || value > 1_000_000 {
            usageError(localizer.t("{option} must be a whole number from 1 to 1000000.", ["option": name]))
        }
        options.maxConnections = maxConnections
        // PostgreSQL connections are opened as requests need them, up to the pool's size.
        if let store = db, store.contains("://") { options.reservedDescriptors += PostgresGamesDatabase.defaultConnections + 2 }
        options.maxConnectionsPerAddress = maxConnectionsPerAddress
        options.idleTimeoutSeconds = idleTimeout
        options.requestSeconds = requestTimeout
        options.eventStreamsPerClient = eventStreams
        do {
            options.trustedProxies = try TrustedProxies(trustedProxies)
        } catch TrustedProxiesError.notAnAddress(let entry) {
            usageError(localizer.t("“{value}” is not an address or a network for --trusted-proxy: write 10.0.0.5 or 10.0.0.0/8.",
                             ["value": entry]))
        }

        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger: Logger = {
            var logger = Logger(label: "locker-games")
            logger.logLevel = .info
            return logger
        }()
        let store = db ?? shared.paths.gamesDatabase.path
        if !store.contains("://") { _ = shared.paths.prepare() }
        let database = await GamesContext.run { try await ServeCommand.openStore(store, logger: logger) }
        let service = await GamesContext.run { try await GamesConnection.localService(database: database, bundled: bundledData()) }
        let scheme = tlsCert == nil ? "http" : "https"
        let app = await GamesContext.run {
            try GamesServer.application(service: service, options: options, logger: logger) { port in
                logger.info("listening on \(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port) with the \(database.kind.rawValue) store")
            }
        }
        do {
            try await app.runService()
        } catch {
            await database.close()
            switch GamesServer.listenProblem(error) {
            case .portInUse:
                fail(localizer.t("Port {port} on {host} is already in use by another program: stop that program or choose another port with --listen.",
                                 ["port": String(port), "host": host]), status: 1)
            case .notPermitted:
                fail(localizer.t("This user may not listen on port {port}: ports below 1024 need administrator rights. Choose a port from 1024 up with --listen.",
                                 ["port": String(port)]), status: 1)
            case .notLocalAddress:
                fail(localizer.t("{host} is not an address of this machine: choose one of its addresses, or 0.0.0.0 for all, with --listen.",
                                 ["host": host]), status: 1)
            case nil:
                fail(localizer.t("The games server stopped: {reason}", ["reason": String(describing: error)]), status: 1)
            }
        }
        logger.info("requests answered; closing the store")
        await database.close()
        logger.info("stopped")
    }

    /// "127.0.0.1:8787", "[::1]:8787", ":8787" (loopback).
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    /// A SQLite file, or a PostgreSQL database (`postgres://`). A password written in the
    /// address is refused: the process list would show it to every user of the machine.
    static func openStore(_ spec: String, logger: Logger = Logger(label: "locker-games")) async throws -> GamesDatabase {
        if spec.hasPrefix("postgres://") || spec.hasPrefix("postgresql://") {
            if let components = URLComponents(string: spec), components.password != nil {
                usageError(localizer.t("Put the PostgreSQL password in PGPASSWORD (or a service file), not in --db: the process list shows arguments to every user."))
            }
            return try await PostgresGamesDatabase(url: spec, environment: environment, logger: logger)
        }
        return try SQLiteGamesDatabase(path: spec)
    }
}
