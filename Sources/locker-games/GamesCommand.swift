// `locker account|login|logout` and `locker games …`: the games from scripts, through the same
// `GamesAPI` as the tab — a games server when one is configured, else the local SQLite file.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerGames
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

/// The games target of this run's options.
extension GamesOptions {
    /// Opens the server client or the local file (created and seeded when new), or exits 1.
    func connection() async -> GamesConnection {
        await GamesContext.run { try await openConnection(bundled: bundledData()) }
    }

    /// The games target of these options (also the tab helper's, which answers failures
    /// instead of exiting).
    func openConnection(bundled: URL) async throws -> GamesConnection {
        let server = GamesConnection.serverAddress(flag: gamesServer, environment: environment, paths: paths)
        return try await GamesConnection.open(paths: paths, server: server, insecure: gamesServerInsecure, trust: trust,
                                             bundled: bundled)
    }

    /// The connection and the logged-in account's token, or exit 1 saying how to log in.
    func signedIn() async -> (GamesConnection, String) {
        let connection = await connection()
        return (connection, GamesContext.token(connection))
    }

    /// The certificate authorities trusted besides the system's: `--games-ca`, else the one
    /// saved with the server; then `SSL_CERT_FILE` and `SSL_CERT_DIR`.
    var trust: GamesTrust {
        let saved = (try? DataFileError.decode(Settings.self, from: paths.settingsFile))?.gamesCertificate
        return GamesTrust.from(option: gamesCA ?? saved, environment: environment)
    }
}

/// The helpers every games command shares.
enum GamesContext {
    static var now: Double { Date().timeIntervalSince1970 }

    /// A start typed on the command line, checked for its form (the server reads it on the
    /// ground's clock), or a usage error.
    static func startTime(_ text: String) -> String {
        guard WallTime.parse(text) != nil || Instant.parse(text) != nil else {
            usageError(localizer.t("“{value}” is not a date and time: write 2026-12-05T10:00 (the time at the ground).", ["value": TerminalText.inert(text)]))
        }
        return text
    }

    /// The session token, or exit 1 saying how to log in.
    static func token(_ connection: GamesConnection) -> String {
        guard let token = connection.session.read() else { fail(GamesError.notLoggedIn.message(localizer), status: 1) }
        return token
    }

    /// Runs a games call; a `GamesError` is one translated line and exit 1, or 64 when it is a
    /// server address the options cannot take (not one, or plain http:// without the flag).
    static func run<T>(_ body: () async throws -> T) async -> T {
        do {
            return try await body()
        } catch let error as GamesError {
            switch error {
            case .badServerAddress, .insecureServer: fail(error.message(localizer), status: usageStatus)
            default: fail(error.message(localizer), status: 1)
            }
        } catch {
            fail("\(error)", status: 1)
        }
    }

    /// The password from standard input; without `--password-stdin` (`flagGiven`), a usage error
    /// saying how to give it. Passwords never go on the command line, where every user of the
    /// machine could read them in the process list.
    static func passwordFromStdin(flagGiven: Bool) -> String {
        guard flagGiven else { usageError(localizer.t("Give the password on standard input with --password-stdin.")) }
        guard let line = readLine(strippingNewline: true) else {
            usageError(localizer.t("Give the password on standard input, e.g. printf '%s' \"$PASSWORD\" | locker login NAME --password-stdin"))
        }
        return line
    }

    /// A fresh idempotency key for one creation or booking.
    static func newKey() -> String { UUID().uuidString.lowercased() }
}


extension AccountPasswordCommand {
    func execute() async throws {
        let current = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let new = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let (connection, token) = await shared.signedIn()
        await GamesContext.run { try await connection.api.changePassword(PasswordChange(current: current, new: new), token: token) }
        print(localizer.t("Password changed; your other sessions are logged out."))
    }
}

extension AccountDeleteCommand {
    func execute() async throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let (connection, token) = await shared.signedIn()
        await GamesContext.run { try await connection.api.deleteAccount(password: password, token: token) }
        connection.session.remove()
        print(localizer.t("Your account is deleted."))
    }
}

extension AccountAdminCommand {
    func execute() async throws {
        // Roles are the store owner's to give: on the store itself, never through the API.
        let database = await GamesContext.run { try await ServeCommand.openStore(db ?? shared.paths.gamesDatabase.path) }
        let service = await GamesContext.run { try await GamesConnection.localService(database: database, bundled: bundledData()) }
        await GamesContext.run { try await service.setAdministrator(name, !revoke) }
        await database.close()
        print(revoke ? localizer.t("{name} is a player again.", ["name": TerminalText.inert(name)])
                     : localizer.t("{name} is an administrator.", ["name": TerminalText.inert(name)]))
    }
}

extension AccountCreateCommand {
    func execute() async throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let connection = await shared.connection()
        let session = await GamesContext.run { try await connection.api.signUp(Credentials(name: name, password: password)) }
        connection.session.rememberDevice(session.device, for: name)
        print(localizer.t("Account {name} created. Log in with: locker login {name} --password-stdin", ["name": TerminalText.inert(session.name)]))
    }
}

extension LoginCommand {
    func execute() async throws {
        let password = GamesContext.passwordFromStdin(flagGiven: passwordStdin)
        let connection = await shared.connection()
        let session = await GamesContext.run {
            try await connection.api.login(Credentials(name: name, password: password, device: connection.session.device(for: name)))
        }
        connection.session.rememberDevice(session.device, for: name)
        do {
            try connection.session.write(session.token)
        } catch {
            fail(localizer.t("The session could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
        }
        print(localizer.t("Logged in as {name}.", ["name": TerminalText.inert(session.name)]))
    }
}

extension LogoutCommand {
    func execute() async throws {
        let connection = await shared.connection()
        let unended = connection.session.unended()
        if everywhere {
            // The current session, or one an earlier log-out could not end on the server.
            guard let token = connection.session.read() ?? unended else { fail(GamesError.notLoggedIn.message(localizer), status: 1) }
            await GamesContext.run { try await connection.api.logoutEverywhere(token: token) }
            connection.session.remove()
            connection.session.removeUnended()
            print(localizer.t("Logged out everywhere."))
            return
        }
        for token in [connection.session.read(), unended].compactMap({ $0 }) {
            // The session is forgotten here whatever happens; when the server could not end
            // it, the token is kept aside for `logout --everywhere`, and the exit status is 1.
            do {
                try await connection.api.logout(token: token)
            } catch GamesError.notLoggedIn {
                // Already ended on the server (expired, or logged out everywhere).
            } catch let error as GamesError {
                connection.session.setAsideUnended(token)
                fail(localizer.t("Forgotten on this machine, but the games server could not end the session: {reason} It stays valid there until it expires; run `locker logout --everywhere` when the server answers to end it.",
                                 ["reason": error.message(localizer)]), status: 1)
            }
        }
        connection.session.remove()
        connection.session.removeUnended()
        print(localizer.t("Logged out."))
    }
}



/// One game as a line of text; names and notes other people typed are made inert.
func gameLine(_ g: GameListing) -> String {
    var line = "#\(g.id)  \(GameTimeText.when(g, localizer))  \(TerminalText.inert(g.groundName)) (\(TerminalText.inert(g.suburb)))  "
        + localizer.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)])
    if g.waitlisted > 0 { line += " · " + localizer.t("{count} waiting", ["count": String(g.waitlisted)]) }
    line += " · " + GameStatusText.status(g.status, localizer)
    if let part = GameStatusText.part(in: g, localizer) { line += " · " + part }
    if let note = g.note { line += "\n      " + TerminalText.inert(note) }
    if let reason = g.cancelReason { line += "\n      " + localizer.t("Cancelled: {reason}", ["reason": GameStatusText.reason(reason, localizer)]) }
    return line
}


extension GamesGroundsImportCommand {
    func execute() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { fail(localizer.t("Cannot read {file}.", ["file": file]), status: 1) }
        let grounds: [Ground]
        do {
            grounds = try GroundsImport.read(data, fileName: URL(fileURLWithPath: file).lastPathComponent, localizer)
        } catch let problem as GroundsImport.Problem {
            fail(localizer.t("{place}: {problem}. Nothing was imported.", ["place": problem.place, "problem": problem.message]), status: 1)
        }
        // Grounds are the club's to change: on the store itself, never through the API.
        let database = await GamesContext.run { try await ServeCommand.openStore(db ?? shared.paths.gamesDatabase.path) }
        let service = await GamesContext.run { try await GamesConnection.localService(database: database, bundled: bundledData()) }
        await GamesContext.run { try await service.importGrounds(grounds, replacing: replace) }
        await database.close()
        print(localizer.n("Imported {count} ground.", "Imported {count} grounds.", count: grounds.count))
    }
}

extension GamesGroundsNearCommand {
    func execute() async throws {
        let place = place.place()
        let connection = await shared.connection()
        let nearest = await GamesContext.run { try await connection.api.grounds(near: place) }
        if json { printJSON(nearest); return }
        for n in nearest {
            let mark = n.approximate ? "  " + localizer.t("(position approximate)") : ""
            let distance = MeasureText.distance(n.distanceMeters, localizer)
            print("\(String(repeating: " ", count: max(0, 9 - distance.count)) + distance)  \(TerminalText.inert(n.id))  \(TerminalText.inert(n.name)), \(TerminalText.inert(n.suburb)) \(n.postcode)\(mark)")
        }
    }
}

extension GamesCreateCommand {
    func execute() async throws {
        let startsAt = GamesContext.startTime(at)
        let (connection, token) = await shared.signedIn()
        let game = await GamesContext.run {
            try await connection.api.create(NewGame(ground: ground, startsAt: startsAt, players: players, capacity: capacity, minimum: min, note: note),
                                            idempotencyKey: GamesContext.newKey(), token: token)
        }
        if json { printJSON(game); return }
        print(localizer.t("Game {id} created.", ["id": String(game.id)]))
        print(gameLine(game))
    }
}

extension GamesEditCommand {
    func execute() async throws {
        let changes = GameChanges(startsAt: at.map(GamesContext.startTime), capacity: capacity, note: note)
        guard !changes.isEmpty else { usageError(localizer.t("Give --at, --capacity or --note.")) }
        let (connection, token) = await shared.signedIn()
        let edited = await GamesContext.run { try await connection.api.edit(game, changes, token: token) }
        if json { printJSON(edited); return }
        print(localizer.t("Game {id} changed.", ["id": String(game)]))
        print(gameLine(edited))
    }
}

extension GamesRosterCommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        let roster = await GamesContext.run { try await connection.api.roster(game, token: token) }
        if json { printJSON(roster); return }
        // The organiser's own listing of the game, so the count is the row's ("5/22 going").
        let listed = try? await connection.api.upcoming(token: token).first { $0.id == game }
        let text = GameStatusText.roster(roster, of: listed, withTimes: true, localizer)
        text.going.forEach { print($0) }
        text.waitlist.forEach { print($0) }
    }
}

extension GamesListCommand {
    func execute() async throws {
        let place = place.place()
        let connection = await shared.connection()
        let list = await GamesContext.run { try await connection.api.games(near: place, token: connection.session.read()) }
        if json { printJSON(list); return }
        if list.isEmpty { print(localizer.t("No games planned at these grounds yet.")) }
        for game in list { print(gameLine(game)) }
    }
}

extension GamesShowCommand {
    func execute() async throws {
        let connection = await shared.connection()
        let found = await GamesContext.run { try await connection.api.game(game, token: connection.session.read()) }
        if json { printJSON(found); return }
        print(gameLine(found))
        print("      " + localizer.t("Starts {time}.", ["time": GameTimeText.full(found)]))
        print("      " + localizer.t("Organised by {name}.", ["name": GameStatusText.person(found.organiser, localizer)]))
        print("      " + found.map)
    }
}

extension GamesBookCommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        let booked = await GamesContext.run { try await connection.api.book(game, idempotencyKey: GamesContext.newKey(), token: token) }
        if json { printJSON(booked); return }
        print(booked.myStatus == .waitlisted ? localizer.t("Game {id} is full: you are on the waitlist.", ["id": String(game)])
                                             : localizer.t("You are going to game {id}.", ["id": String(game)]))
    }
}

extension GamesCancelCommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        _ = await GamesContext.run { try await connection.api.cancelBooking(game, token: token) }
        print(localizer.t("Your booking for game {id} is cancelled.", ["id": String(game)]))
    }
}

extension GamesRemoveCommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        await GamesContext.run { try await connection.api.removeGame(game, token: token) }
        print(localizer.t("Game {id} is removed.", ["id": String(game)]))
    }
}

extension GamesCancelGameCommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        _ = await GamesContext.run { try await connection.api.cancelGame(game, reason: reason, token: token) }
        print(localizer.t("Game {id} is cancelled.", ["id": String(game)]))
    }
}

extension GamesUpcomingCommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        let list = await GamesContext.run { try await connection.api.upcoming(token: token) }.filter { $0.start > GamesContext.now }
        if json { printJSON(list); return }
        if list.isEmpty { print(localizer.t("No games to come.")) }
        for game in list { print(gameLine(game) + "\n      " + game.map) }
    }
}

extension GamesTodayCommand {
    func execute() async throws {
        let paths = shared.paths
        let server = GamesConnection.serverAddress(flag: shared.gamesServer, environment: environment, paths: paths)
        guard server != nil || FileManager.default.fileExists(atPath: paths.gamesDatabase.path) else { return }
        // A shell start-up file must never hang or fail: no answer within 2 s is no answer.
        let deadline = Task.detached {
            try await Task.sleep(nanoseconds: 2_000_000_000)
            Glibc.exit(0)
        }
        guard let connection = try? await shared.openConnection(bundled: bundledData()), let token = connection.session.read(),
              let games = try? await connection.api.upcoming(token: token) else { return }
        deadline.cancel()
        let now = GamesContext.now
        let day = LocalTime.dayRange(containing: now)
        for game in games where day.contains(game.start) {
            let minutes = Int(((game.start - now) / 60).rounded(.up))
            let when: String
            if game.status == .cancelled { when = localizer.t("cancelled", context: "game status") }
            else if minutes <= 0 { when = localizer.t("started") }
            else if minutes <= 60 { when = "⚠ " + localizer.n("in {count} minute", "in {count} minutes", count: minutes) }
            else if GameTimeText.differsFromUser(game) {
                // "today" is the user's day; the hour is the ground's, so it names its clock.
                when = localizer.t("at {time}", ["time": localizer.t("{time} ({zone} time)", ["time": GameTimeText.clock(game), "zone": GameTimeText.zoneName(game.timeZone)])])
            } else { when = localizer.t("at {time}", ["time": GameTimeText.clock(game)]) }
            print(localizer.t("Cricket today {when}: {ground}, {suburb} ({going}/{capacity})",
                              ["when": when, "ground": TerminalText.inert(game.groundName), "suburb": TerminalText.inert(game.suburb),
                               "going": String(game.seatsUsed), "capacity": String(game.capacity)]))
        }
    }
}

extension GamesICSCommand {
    func execute() async throws {
        let connection = await shared.connection()
        let found = await GamesContext.run { try await connection.api.game(game, token: connection.session.read()) }
        do {
            try AtomicFile.write(Data(GameCalendar.ics(found, store: connection.storeTag, now: GamesContext.now).utf8), to: URL(fileURLWithPath: out), creatingFolders: false)
        } catch {
            fail(localizer.t("{file} could not be written: {reason}", ["file": out, "reason": StorageError.explain(error, localizer)]), status: 1)
        }
        print(localizer.t("Wrote {file}.", ["file": out]))
    }
}

extension GamesWhoAmICommand {
    func execute() async throws {
        let (connection, token) = await shared.signedIn()
        let account = await GamesContext.run { try await connection.api.account(token: token) }
        if json { printJSON(account) } else { print(account.name) }
    }
}

extension GamesServerCommand {
    func execute() async throws {
        let paths = shared.paths
        let repository = JSONRepository<Settings>(url: paths.settingsFile)
        if url != nil || local {
            if let url { _ = await GamesContext.run { try GamesHTTPClient(url: url, allowInsecure: shared.gamesServerInsecure, trust: shared.trust) } }
            guard paths.prepare() else { fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1) }
            var settings = Settings()
            if FileManager.default.fileExists(atPath: paths.settingsFile.path) {
                guard let value = try? DataFileError.decode(Settings.self, from: paths.settingsFile) else {
                    fail(localizer.t("The settings file {file} cannot be read; fix or remove it first.", ["file": paths.settingsFile.path]), status: 1)
                }
                settings = value
            }
            settings.gamesServer = local ? nil : url
            if local {
                settings.gamesCertificate = nil
            } else if let file = shared.gamesCA {
                // A copy beside the settings, so a downloads folder tidied later breaks nothing.
                let copy = paths.directory.appendingPathComponent("games-ca.pem")
                do {
                    try AtomicFile.write(try Data(contentsOf: URL(fileURLWithPath: file)), to: copy, permissions: 0o644)
                } catch {
                    fail(localizer.t("The certificate could not be copied into the data folder: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
                }
                settings.gamesCertificate = copy.path
            }
            do { try repository.save(settings) } catch {
                fail(localizer.t("The settings could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)]), status: 1)
            }
        }
        if let server = GamesConnection.serverAddress(flag: shared.gamesServer, environment: environment, paths: paths) {
            print(localizer.t("Games server: {url}", ["url": TerminalText.inert(server)]))
            if let saved = (try? DataFileError.decode(Settings.self, from: paths.settingsFile))?.gamesCertificate {
                print(localizer.t("Its certificate authority, trusted besides the system's: {file}", ["file": TerminalText.inert(saved)]))
            }
        } else {
            print(localizer.t("No games server: the local games file {path}.", ["path": paths.gamesDatabase.path]))
        }
    }
}
