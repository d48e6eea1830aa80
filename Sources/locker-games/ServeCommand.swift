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

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: localizer.t("Run the Locker games server (HTTP JSON API v1) on a SQLite file or a PostgreSQL database."))

    @Option(name: .long, help: ArgumentHelp(localizer.t("Address and port to listen on (default 127.0.0.1:8787; 0.0.0.0:8787 for every interface)."), valueName: "host:port"))
    var listen = "127.0.0.1:8787"
    @Option(name: .long, help: ArgumentHelp(localizer.t("The store: a SQLite file, or postgres://USER@HOST:PORT/DATABASE (password in PGPASSWORD). Default: the local games file."), valueName: "store"))
    var db: String?
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp(localizer.t("PEM certificate chain: serve HTTPS."), valueName: "file"))
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp(localizer.t("PEM private key of the certificate."), valueName: "file"))
    var tlsKey: String?
    @Option(name: .customLong("account-rate"), help: ArgumentHelp(localizer.t("Sign-ups and log-ins one address may make per minute."), valueName: "n"))
    var accountRate = 30
    @Option(name: .customLong("max-connections"), help: ArgumentHelp(localizer.t("Connections held at once; lowered to what the descriptor limit (ulimit -n) allows."), valueName: "n"))
    var maxConnections = 512
    @Option(name: .customLong("max-connections-per-address"), help: ArgumentHelp(localizer.t("Connections one address may hold at once (at most a quarter of --max-connections)."), valueName: "n"))
    var maxConnectionsPerAddress = 32
    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(localizer.t("Seconds before a connection with no request in progress is closed."), valueName: "seconds"))
    var idleTimeout = 30
    @Option(name: .customLong("request-timeout"), help: ArgumentHelp(localizer.t("Seconds a client has to send a whole request."), valueName: "seconds"))
    var requestTimeout = 10
    @Option(name: .customLong("event-streams"), help: ArgumentHelp(localizer.t("Live event streams one account (or one signed-out address) may hold at once."), valueName: "n"))
    var eventStreams = 4
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(localizer.t("A reverse proxy (address or network, e.g. 10.0.0.0/8) whose X-Forwarded-For names the client; repeat for several. No other peer may set it."), valueName: "address"))
    var trustedProxies: [String] = []

    func run() async throws {
        var options = GamesServerOptions()
        guard let (host, port) = ServeCommand.hostAndPort(listen) else {
            fail(localizer.t("“{value}” is not an address to listen on: write HOST:PORT, e.g. 127.0.0.1:8787.", ["value": listen]), status: 2)
        }
        options.host = host
        options.port = port
        guard (tlsCert == nil) == (tlsKey == nil) else { fail(localizer.t("Give both --tls-cert and --tls-key, or neither."), status: 2) }
        options.tlsCertificate = tlsCert
        options.tlsKey = tlsKey
        options.accountRequestsPerMinute = accountRate
        for (value, name) in [(accountRate, "--account-rate"), (maxConnections, "--max-connections"),
                              (maxConnectionsPerAddress, "--max-connections-per-address"), (idleTimeout, "--idle-timeout"),
                              (requestTimeout, "--request-timeout"), (eventStreams, "--event-streams")] where value < 1 {
            fail(localizer.t("{option} must be a whole number of at least 1.", ["option": name]), status: 64)
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
            fail(localizer.t("“{value}” is not an address or a network for --trusted-proxy: write 10.0.0.5 or 10.0.0.0/8.",
                             ["value": entry]), status: 64)
        }

        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger: Logger = {
            var logger = Logger(label: "locker-games")
            logger.logLevel = .info
            return logger
        }()
        let store = db ?? GamesContext.paths.gamesDatabase.path
        if !store.contains("://") { _ = GamesContext.paths.prepare() }
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
            fail(localizer.t("The games server stopped: {reason}", ["reason": String(describing: error)]), status: 1)
        }
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
                fail(localizer.t("Put the PostgreSQL password in PGPASSWORD (or a service file), not in --db: the process list shows arguments to every user."), status: 2)
            }
            return try await PostgresGamesDatabase(url: spec, environment: environment, logger: logger)
        }
        return try SQLiteGamesDatabase(path: spec)
    }
}
