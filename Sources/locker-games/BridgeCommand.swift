// `locker-games games bridge` (hidden): the Games tab's helper. It reads one JSON request per
// line on standard input and answers one JSON line each on standard output, through the same
// GamesAPI as the commands (server or local file); `watch` adds live `event` lines. It ends when
// its input closes (the tab quit).
import ArgumentParser
import Foundation
import LockerCommandLine
import LockerGames
import LockerKit

#if canImport(Glibc)
import Glibc
#endif

extension BridgeCommand: GamesCommandBody {
    public func execute() async throws {
        // Until a request needs it, a games file that does not exist yet is not created: the
        // shell's first look (who is logged in, for the reminder line) must not leave a
        // games.sqlite in the data folder of someone who never used Games. Nobody is logged in
        // to a store that does not exist.
        var first: String?
        if Bridge.localStoreIsMissing(shared) {
            while let line = readLine() {
                guard let request = try? JSONDecoder().decode(GamesBridgeRequest.self, from: Data(line.utf8)) else { continue }
                switch request.call {
                case .whoami: Bridge.output.write(GamesBridgeReply(id: request.id, problem: GamesError.notLoggedIn.problem))
                case .watch, .abort: continue
                default: first = line
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
                let id = (try? JSONDecoder().decode(GamesBridgeRequest.self, from: Data(line.utf8)))?.id
                Bridge.output.write(GamesBridgeReply(id: id, problem: error.problem))
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
            guard let request = try? JSONDecoder().decode(GamesBridgeRequest.self, from: Data(line.utf8)) else { continue }
            bridge.handle(request)
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

    func handle(_ request: GamesBridgeRequest) {
        switch request.call {
        case .abort:
            if let target = request.game.map(Int.init) { lock.withLock { tasks.removeValue(forKey: target) }?.cancel() }
        case .watch:
            lock.withLock {
                guard watcher == nil else { return }
                watcher = Task { [connection] in
                    do {
                        for try await event in connection.api.feed(after: nil) { Bridge.output.write(GamesBridgeReply(feedEvent: event)) }
                    } catch {}
                }
            }
        default:
            let task = Task { [weak self] in
                guard let self else { return }
                let reply: GamesBridgeReply
                do {
                    reply = try await self.answer(request)
                } catch let error as GamesError {
                    reply = GamesBridgeReply(id: request.id, problem: error.problem)
                } catch {
                    reply = GamesBridgeReply(id: request.id, problem: GamesError.serverFailed.problem)
                }
                if !Task.isCancelled { Bridge.output.write(reply) }
                _ = self.lock.withLock { self.tasks.removeValue(forKey: request.id) }
            }
            lock.withLock { tasks[request.id] = task }
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

    private func answer(_ r: GamesBridgeRequest) async throws -> GamesBridgeReply {
        let api = connection.api
        func required<T>(_ value: T?, _ field: String) throws -> T {
            guard let value else { throw GamesError.invalid(field: field) }
            return value
        }
        switch r.call {
        case .whoami:
            return GamesBridgeReply(id: r.id, account: try await api.account(token: try requireToken()).name)
        case .signup, .login:
            let name = try required(r.name, "name")
            let credentials = Credentials(name: name, password: try required(r.password, "password"),
                                          device: r.call == .login ? connection.session.device(for: name) : nil)
            let session = r.call == .signup ? try await api.signUp(credentials) : try await api.login(credentials)
            connection.session.rememberDevice(session.device, for: name)
            do { try connection.session.write(session.token) } catch {
                throw GamesError.database(StorageError.explain(error, localizer))
            }
            return GamesBridgeReply(id: r.id, account: session.name)
        case .logout:
            if let token { try? await api.logout(token: token) }
            connection.session.remove()
            return GamesBridgeReply(id: r.id)
        case .upcoming:
            return GamesBridgeReply(id: r.id, games: try await api.upcoming(token: try requireToken()))
        case .search:
            let text = try required(r.place, "place")
            guard let place = Place(text) else { throw GamesError.badPostcode(text) }
            async let grounds = api.grounds(near: place)
            async let games = api.games(near: place, token: token)
            return GamesBridgeReply(id: r.id, games: try await games, grounds: try await grounds)
        case .book:
            let key = UUID().uuidString.lowercased(), id = try required(r.game, "game"), token = try requireToken()
            return GamesBridgeReply(id: r.id, game: try await Bridge.retryingOnce { try await api.book(id, idempotencyKey: key, token: token) })
        case .cancelBooking:
            return GamesBridgeReply(id: r.id, game: try await api.cancelBooking(try required(r.game, "game"), token: try requireToken()))
        case .cancelGame:
            return GamesBridgeReply(id: r.id, game: try await api.cancelGame(try required(r.game, "game"), reason: r.text ?? "", token: try requireToken()))
        case .create:
            let key = UUID().uuidString.lowercased(), game = try required(r.newGame, "newGame"), token = try requireToken()
            return GamesBridgeReply(id: r.id, game: try await Bridge.retryingOnce { try await api.create(game, idempotencyKey: key, token: token) })
        case .edit:
            return GamesBridgeReply(id: r.id, game: try await api.edit(try required(r.game, "game"), try required(r.changes, "changes"), token: try requireToken()))
        case .roster:
            return GamesBridgeReply(id: r.id, roster: try await api.roster(try required(r.game, "game"), token: try requireToken()))
        case .ics:
            let game = try await api.game(try required(r.game, "game"), token: token)
            let path = try required(r.text, "path")
            do { try AtomicFile.write(Data(GameCalendar.ics(game, store: connection.storeTag, now: Date().timeIntervalSince1970).utf8), to: URL(fileURLWithPath: path)) } catch {
                throw GamesError.database(StorageError.explain(error, localizer))
            }
            return GamesBridgeReply(id: r.id)
        case .watch, .abort:
            return GamesBridgeReply(id: r.id)
        }
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
