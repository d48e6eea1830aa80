// `locker-games games bridge` (hidden): the Games tab's helper. It reads one `GamesBridgeLine`
// per line on standard input and answers each request with one `GamesBridgeReply` line on
// standard output, through the same GamesAPI as the commands (server or local file); `watch`
// adds live `feed` lines. It ends when its input closes (the tab quit).
import ArgumentParser
import Foundation
import LockerCommandLine
import LockerGames
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

extension BridgeCommand {
    func execute() async throws {
        // Until a request needs it, a games file that does not exist yet is not created: the
        // shell's first look (who is logged in, for the reminder line) must not leave a
        // games.sqlite in the data folder of someone who never used Games. Nobody is logged in
        // to a store that does not exist.
        var first: String?
        if Bridge.localStoreIsMissing(shared) {
            while let line = readLine() {
                switch try? JSONDecoder().decode(GamesBridgeLine.self, from: Data(line.utf8)) {
                case .ask(let id, .whoAmI)?: Bridge.output.write(.refused(id: id, problem: GamesError.notLoggedIn.problem))
                case .ask?: first = line
                case .watch?, .abort?, nil: continue
                }
                if first != nil { break }
            }
            guard first != nil else { return }
        }
        let connection: GamesConnection
        do {
            connection = try await Bridge.open(shared)
        } catch let error as GamesError {
            // Answer every request with the reason, so the tab can say it.
            while let line = readLine() {
                switch try? JSONDecoder().decode(GamesBridgeLine.self, from: Data(line.utf8)) {
                case .ask(let id, _)?: Bridge.output.write(.refused(id: id, problem: error.problem))
                case .watch?, .abort?: continue
                case nil: Bridge.output.write(.refused(id: nil, problem: error.problem))
                }
            }
            return
        }
        let bridge = Bridge(connection: connection)
        let lines = AsyncStream<String> { continuation in
            if let first { continuation.yield(first) }
            DispatchQueue(label: "locker.bridge.input").async {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }
        }
        for await line in lines {
            guard let decoded = try? JSONDecoder().decode(GamesBridgeLine.self, from: Data(line.utf8)) else {
                Bridge.output.write(.refused(id: nil, problem: GamesError.invalid(field: "line").problem))
                continue
            }
            bridge.handle(decoded)
        }
        bridge.stop()
    }
}

final class Bridge: @unchecked Sendable {
    let connection: GamesConnection
    private let lock = NSLock()
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var watcher: Task<Void, Never>?

    init(connection: GamesConnection) { self.connection = connection }

    /// Whether the target is the local games file and that file does not exist yet.
    static func localStoreIsMissing(_ options: GamesOptions) -> Bool {
        let paths = options.paths
        guard GamesConnection.serverAddress(flag: options.gamesServer, environment: environment, paths: paths) == nil else { return false }
        return !FileManager.default.fileExists(atPath: paths.gamesDatabase.path)
    }

    static func open(_ options: GamesOptions) async throws -> GamesConnection {
        guard let bundled = resources?.dataDirectory else { throw GamesError.database("Locker's bundled data was not found") }
        return try await options.openConnection(bundled: bundled)
    }

    /// Replies go out one whole line at a time.
    static let output = ReplyWriter()

    func handle(_ line: GamesBridgeLine) {
        switch line {
        case .abort(let target):
            lock.withLock { tasks.removeValue(forKey: target) }?.cancel()
        case .watch:
            lock.withLock {
                guard watcher == nil else { return }
                watcher = Task { [connection] in
                    do {
                        for try await event in connection.api.feed(after: nil) { Bridge.output.write(.feed(event: event)) }
                    } catch {}
                }
            }
        case .ask(let id, let request):
            let task = Task { [weak self] in
                guard let self else { return }
                let reply: GamesBridgeReply
                do {
                    reply = .answer(id: id, answer: try await self.answer(request))
                } catch let error as GamesError {
                    reply = .refused(id: id, problem: error.problem)
                } catch {
                    reply = .refused(id: id, problem: GamesError.serverFailed.problem)
                }
                if !Task.isCancelled { Bridge.output.write(reply) }
                _ = self.lock.withLock { self.tasks.removeValue(forKey: id) }
            }
            lock.withLock { tasks[id] = task }
        }
    }

    func stop() {
        lock.withLock {
            tasks.values.forEach { $0.cancel() }
            watcher?.cancel()
        }
    }

    private var token: String? { connection.session.read() }

    private func requireToken() throws -> String {
        guard let token else { throw GamesError.notLoggedIn }
        return token
    }

    /// The store's answer to one request: a `switch` over every kind of request, so a new one
    /// does not compile until it is answered here.
    private func answer(_ request: GamesRequest) async throws -> GamesAnswer {
        let api = connection.api
        switch request {
        case .whoAmI:
            return .account(name: try await api.account(token: try requireToken()).name)
        case .signUp(let name, let password):
            return .account(name: try await enter(Credentials(name: name, password: password)) { try await api.signUp($0) })
        case .login(let name, let password):
            let device = connection.session.device(for: name)
            return .account(name: try await enter(Credentials(name: name, password: password, device: device)) { try await api.login($0) })
        case .logout:
            if let token { try? await api.logout(token: token) }
            connection.session.remove()
            return .done
        case .upcoming:
            return .games(list: try await api.upcoming(token: try requireToken()))
        case .search(let text):
            guard let place = Place(text) else { throw GamesError.badPostcode(text) }
            async let grounds = api.grounds(near: place)
            async let games = api.games(near: place, token: token)
            return .found(grounds: try await grounds, games: try await games)
        case .book(let id):
            let key = UUID().uuidString.lowercased(), token = try requireToken()
            return .game(listing: try await Bridge.retryingOnce { try await api.book(id, idempotencyKey: key, token: token) })
        case .cancelBooking(let id):
            return .game(listing: try await api.cancelBooking(id, token: try requireToken()))
        case .cancelGame(let id, let reason):
            return .game(listing: try await api.cancelGame(id, reason: reason, token: try requireToken()))
        case .create(let game):
            let key = UUID().uuidString.lowercased(), token = try requireToken()
            return .game(listing: try await Bridge.retryingOnce { try await api.create(game, idempotencyKey: key, token: token) })
        case .edit(let id, let changes):
            return .game(listing: try await api.edit(id, changes, token: try requireToken()))
        case .roster(let id):
            return .roster(list: try await api.roster(id, token: try requireToken()))
        case .exportCalendar(let id, let path):
            let game = try await api.game(id, token: token)
            do { try AtomicFile.write(Data(GameCalendar.ics(game, store: connection.storeTag, now: Date().timeIntervalSince1970).utf8), to: URL(fileURLWithPath: path)) } catch {
                throw GamesError.database(StorageError.explain(error, localizer))
            }
            return .done
        }
    }

    /// Signs up or logs in, then keeps the session (and the device the server named) for the
    /// next requests; returns the account's name.
    private func enter(_ credentials: Credentials, _ call: (Credentials) async throws -> SessionToken) async throws -> String {
        let session = try await call(credentials)
        connection.session.rememberDevice(session.device, for: credentials.name)
        do { try connection.session.write(session.token) } catch {
            throw GamesError.database(StorageError.explain(error, localizer))
        }
        return session.name
    }

    /// A creation or booking whose answer was lost (timeout, dropped connection) is sent once
    /// more with the same idempotency key: the server answers the first one's result.
    static func retryingOnce(_ body: () async throws -> GameListing) async throws -> GameListing {
        do {
            return try await body()
        } catch GamesError.unreachable {
            try await Task.sleep(nanoseconds: 500_000_000)
            return try await body()
        }
    }
}

/// Writes reply lines to standard output, one whole line at a time.
final class ReplyWriter: @unchecked Sendable {
    private let lock = NSLock()

    func write(_ reply: GamesBridgeReply) {
        guard var data = try? JSONEncoder().encode(reply) else { return }
        data.append(0x0A)
        lock.withLock {
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                    if n < 0 { if errno == EINTR { continue }; exit(0) }
                    offset += n
                }
            }
        }
    }
}
