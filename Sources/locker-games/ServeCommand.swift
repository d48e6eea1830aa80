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

extension ServeCommand {
    func execute() async throws {
        let settings = resolvedSettings()
        guard (settings.server.tlsCertificate == nil) == (settings.server.tlsKey == nil) else { usageError(localizer.t("Give both --tls-cert and --tls-key, or neither.")) }
        if let certificate = settings.server.tlsCertificate, let key = settings.server.tlsKey {
            if let problem = GamesServer.tlsProblem(certificate: certificate, key: key) { fail(ServeCommand.message(problem), status: 1) }
        }
        let options = settings.server
        let (host, port) = (options.host, options.port)

        let format = settings.logFormat
        LoggingSystem.bootstrap { ServerLogHandler(label: $0, format: format) }
        let logger: Logger = {
            var logger = Logger(label: "locker-games")
            logger.logLevel = .info
            return logger
        }()
        let store = settings.db ?? shared.paths.gamesDatabase.path
        if !store.contains("://") { _ = shared.paths.prepare() }
        let database = await GamesContext.run { try await ServeCommand.openStore(store, logger: logger) }
        let service = await GamesContext.run { try await GamesConnection.localService(database: database, bundled: bundledData()) }
        let scheme = settings.server.tlsCertificate == nil ? "http" : "https"
        let app = await GamesContext.run {
            try GamesServer.application(service: service, options: options, logger: logger) { port in
                logger.info("listening on \(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port) with the \(database.kind.rawValue) store",
                            metadata: ["event": "listening", "port": .stringConvertible(port), "store": "\(database.kind.rawValue)"])
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
            case .unknownHost:
                fail(localizer.t("{host} is not an address of this machine: choose one of its addresses, or 0.0.0.0 for all, with --listen.",
                                 ["host": host]), status: 1)
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

    /// The defaults, then the configuration file, then the command line. A file that cannot be
    /// used stops the start (status 78, EX_CONFIG) naming the file, the line and what to do; a bad
    /// value on the command line is a usage error.
    func resolvedSettings() -> ServerSettings {
        var settings = ServerSettings()
        if let config {
            do {
                try ServerConfigurationFile(path: config).apply(to: &settings)
            } catch {
                fail(error.message(localizer), status: ServeCommand.configurationStatus)
            }
        }
        for (name, values) in commandLineSettings {
            do {
                try settings.set(name, values)
            } catch {
                usageError(error.message(localizer, option: "--" + name))
            }
        }
        return settings
    }

    /// EX_CONFIG of sysexits.h: the unit does not restart on it (RestartPreventExitStatus).
    static let configurationStatus: Int32 = 78

    static func message(_ problem: GamesServer.TLSProblem) -> String {
        switch problem {
        case .unreadableCertificate(let file, let reason):
            return localizer.t("The certificate {file} cannot be used: {reason}. Give a PEM certificate chain with --tls-cert.",
                               ["file": file, "reason": reason ?? localizer.t("it holds no PEM certificate")])
        case .unreadableKey(let file, let reason):
            return localizer.t("The private key {file} cannot be used: {reason}. Give the PEM key of the certificate with --tls-key.",
                               ["file": file, "reason": reason ?? localizer.t("it holds no PEM private key")])
        case .mismatch(let certificate, let key):
            return localizer.t("The private key {key} does not belong to the certificate {file}: give the key the certificate was made for.", ["key": key, "file": certificate])
        }
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
        // SQLite writes its journal beside the file: the folder must be writable, not only the file.
        let folder = URL(fileURLWithPath: spec).deletingLastPathComponent().path
        if access(folder, W_OK | X_OK) != 0 {
            let reason = String(cString: strerror(errno))
            let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? String(geteuid())
            fail(localizer.t("The games store {file} cannot be used: its folder cannot be written by this user ({user}): {reason}. Give --db a file in a folder this user can write to.",
                             ["file": spec, "user": user, "reason": reason]), status: 1)
        }
        return try SQLiteGamesDatabase(path: spec)
    }
}
