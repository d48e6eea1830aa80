import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What the Games tab needs, as blocking calls that run on a background thread (the view-model
/// starts each through `BackgroundWork`). The real one is `BridgeGamesClient`; tests use a fake.
public protocol GamesClient: AnyObject, Sendable {
    /// The logged-in account's name, or nil.
    func whoAmI() throws -> String?
    func signUp(name: String, password: String) throws -> String
    func login(name: String, password: String) throws -> String
    func logout() throws
    func upcoming() throws -> [GameListing]
    func search(_ place: Place) throws -> (grounds: [GroundListing], games: [GameListing])
    func book(_ id: Int64) throws -> GameListing
    func cancelBooking(_ id: Int64) throws -> GameListing
    func cancelGame(_ id: Int64, reason: String) throws -> GameListing
    func create(_ game: NewGame) throws -> GameListing
    func edit(_ id: Int64, _ changes: GameChanges) throws -> GameListing
    func roster(_ id: Int64) throws -> GameRoster
    func exportCalendar(_ id: Int64, to path: String) throws
    /// Follows the live feed: `onEvent` runs on a background thread for each change, and when
    /// the store becomes reachable or unreachable.
    func watch(_ onEvent: @escaping @Sendable (GamesFeedEvent) -> Void)
    /// Stops the requests in flight (Esc): the helper cancels them, their callers return.
    func cancelInFlight()
}

/// One request line to `locker-games games bridge`.
public struct GamesBridgeRequest: Codable, Sendable {
    public enum Call: String, Codable, Sendable {
        case whoami, signup, login, logout, upcoming, search, book, cancelBooking, cancelGame, create, edit, roster, ics, watch, abort
    }
    public var id: Int
    public var call: Call
    public var name: String?
    public var password: String?
    public var place: String?
    public var game: Int64?
    public var newGame: NewGame?
    public var changes: GameChanges?
    public var text: String?

    public init(id: Int, call: Call, name: String? = nil, password: String? = nil, place: String? = nil, game: Int64? = nil,
                newGame: NewGame? = nil, changes: GameChanges? = nil, text: String? = nil) {
        self.id = id; self.call = call; self.name = name; self.password = password; self.place = place; self.game = game
        self.newGame = newGame; self.changes = changes; self.text = text
    }
}

/// One reply line: the answer to request `id` (or a refusal), or a live `event`.
public struct GamesBridgeReply: Codable, Sendable {
    public var id: Int?
    public var problem: Problem?
    public var account: String?
    public var games: [GameListing]?
    public var game: GameListing?
    public var grounds: [GroundListing]?
    public var roster: GameRoster?
    public var event: GamesChange?
    /// The live feed's news of the store: "reachable" or "unreachable", with `server` (its
    /// address; absent for the local file).
    public var feed: String?
    public var server: String?

    public init(id: Int?, problem: Problem? = nil, account: String? = nil, games: [GameListing]? = nil, game: GameListing? = nil,
                grounds: [GroundListing]? = nil, roster: GameRoster? = nil, event: GamesChange? = nil) {
        self.id = id; self.problem = problem; self.account = account; self.games = games; self.game = game
        self.grounds = grounds; self.roster = roster; self.event = event
    }

    /// The reply line for a live feed event.
    public init(feedEvent: GamesFeedEvent) {
        self.init(id: nil)
        switch feedEvent {
        case .change(let change): event = change
        case .reachable(let address): feed = "reachable"; server = address
        case .unreachable(let address): feed = "unreachable"; server = address
        }
    }

    /// The live feed event this reply carries, if it is one.
    public var feedEvent: GamesFeedEvent? {
        if let event { return .change(event) }
        switch feed {
        case "reachable": return .reachable(server: server)
        case "unreachable": return .unreachable(server: server)
        default: return nil
        }
    }
}

/// The tab's games client: one long-lived `locker-games games bridge` process (started at the
/// first request, again if it dies) that holds the games store or the server connection and
/// answers JSON lines on a pipe. Requests are not process starts, so a booking on loopback
/// answers in milliseconds; a request with no answer within `timeout` is `unreachable`.
public final class BridgeGamesClient: GamesClient, @unchecked Sendable {
    private let program: String
    private let arguments: () -> [String]
    private let timeout: Double
    private let lock = BridgeLock()
    private var process: (pid: pid_t, input: Int32)?
    private var nextID = 0
    private var waiting: [Int: (DispatchSemaphore, Box)] = [:]
    private var onChange: (@Sendable (GamesFeedEvent) -> Void)?

    private final class Box: @unchecked Sendable {
        var reply: GamesBridgeReply?
        /// The helper ended before answering (as opposed to the request being stopped).
        var helperEnded = false
    }

    /// `arguments` are read at each start (the interface language may have changed).
    public init(program: String, arguments: @escaping () -> [String], timeout: Double = 20) {
        self.program = program
        self.arguments = arguments
        self.timeout = timeout
    }

    deinit {
        if let process { close(process.input); kill(process.pid, SIGTERM) }
    }

    // MARK: GamesClient

    public func whoAmI() throws -> String? {
        do { return try send(GamesBridgeRequest(id: 0, call: .whoami)).account } catch GamesError.notLoggedIn { return nil }
    }
    public func signUp(name: String, password: String) throws -> String {
        try send(GamesBridgeRequest(id: 0, call: .signup, name: name, password: password)).account ?? name
    }
    public func login(name: String, password: String) throws -> String {
        try send(GamesBridgeRequest(id: 0, call: .login, name: name, password: password)).account ?? name
    }
    public func logout() throws { _ = try send(GamesBridgeRequest(id: 0, call: .logout)) }
    public func upcoming() throws -> [GameListing] { try send(GamesBridgeRequest(id: 0, call: .upcoming)).games ?? [] }
    public func search(_ place: Place) throws -> (grounds: [GroundListing], games: [GameListing]) {
        let reply = try send(GamesBridgeRequest(id: 0, call: .search, place: place.text))
        return (reply.grounds ?? [], reply.games ?? [])
    }
    public func book(_ id: Int64) throws -> GameListing { try game(send(GamesBridgeRequest(id: 0, call: .book, game: id))) }
    public func cancelBooking(_ id: Int64) throws -> GameListing { try game(send(GamesBridgeRequest(id: 0, call: .cancelBooking, game: id))) }
    public func cancelGame(_ id: Int64, reason: String) throws -> GameListing {
        try game(send(GamesBridgeRequest(id: 0, call: .cancelGame, game: id, text: reason)))
    }
    public func create(_ game: NewGame) throws -> GameListing { try self.game(send(GamesBridgeRequest(id: 0, call: .create, newGame: game))) }
    public func edit(_ id: Int64, _ changes: GameChanges) throws -> GameListing {
        try game(send(GamesBridgeRequest(id: 0, call: .edit, game: id, changes: changes)))
    }
    public func roster(_ id: Int64) throws -> GameRoster {
        guard let roster = try send(GamesBridgeRequest(id: 0, call: .roster, game: id)).roster else { throw GamesError.badResponse }
        return roster
    }
    public func exportCalendar(_ id: Int64, to path: String) throws { _ = try send(GamesBridgeRequest(id: 0, call: .ics, game: id, text: path)) }

    public func watch(_ onChange: @escaping @Sendable (GamesFeedEvent) -> Void) {
        lock.withLock { self.onChange = onChange }
        _ = try? post(GamesBridgeRequest(id: 0, call: .watch))
    }

    public func cancelInFlight() {
        let stopped: [(Int, DispatchSemaphore)] = lock.withLock {
            let all = waiting.map { ($0.key, $0.value.0) }
            waiting = [:]
            return all
        }
        for (id, semaphore) in stopped {
            _ = try? post(GamesBridgeRequest(id: 0, call: .abort, game: Int64(id)))
            semaphore.signal()
        }
    }

    private func game(_ reply: GamesBridgeReply) throws -> GameListing {
        guard let game = reply.game else { throw GamesError.badResponse }
        return game
    }

    // MARK: The pipe

    /// Sends a request and waits for its answer (on the calling background thread).
    private func send(_ request: GamesBridgeRequest) throws -> GamesBridgeReply {
        let semaphore = DispatchSemaphore(value: 0)
        let box = Box()
        let id = try post(request) { id in self.waiting[id] = (semaphore, box) }
        guard semaphore.wait(timeout: .now() + timeout) == .success else {
            lock.withLock { waiting[id] = nil }
            _ = try? post(GamesBridgeRequest(id: 0, call: .abort, game: Int64(id)))
            throw GamesError.unreachable(.noAnswerWithin(seconds: Int(timeout)))
        }
        guard let reply = box.reply else {
            if box.helperEnded { throw GamesError.unreachable(.helperStopped) }
            throw CancellationError()
        }
        if let problem = reply.problem { throw GamesError(problem: problem) }
        return reply
    }

    /// Writes one request line (starting the helper when needed); returns the request's id.
    @discardableResult
    private func post(_ request: GamesBridgeRequest, register: ((Int) -> Void)? = nil) throws -> Int {
        try lock.withLock {
            let input = try running()
            nextID += 1
            var request = request
            request.id = nextID
            register?(nextID)
            var line = try JSONEncoder().encode(request)
            line.append(0x0A)
            let written = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            guard written == line.count else {
                waiting[nextID] = nil
                stopLocked()
                throw GamesError.unreachable(.helperStopped)
            }
            return nextID
        }
    }

    /// The helper's input pipe; starts it when it is not running. Called under `lock`.
    private func running() throws -> Int32 {
        if let process { return process.input }
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw GamesError.unreachable(.other("no pipe")) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments() + ["games", "bridge"]).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw GamesError.unreachable(.helperNotStarted(program: program))
        }
        _ = fcntl(toChild[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromChild[0], F_SETFD, FD_CLOEXEC)
        // A helper that died must not kill the app with SIGPIPE on the next write.
        signal(SIGPIPE, SIG_IGN)
        process = (pid, toChild[1])
        let output = fromChild[0], child = pid
        DispatchQueue(label: "locker.games-bridge.replies").async { [weak self] in self?.readReplies(output, pid: child) }
        // A restarted helper follows the live feed again if the tab asked for it.
        if onChange != nil {
            nextID += 1
            if var line = try? JSONEncoder().encode(GamesBridgeRequest(id: nextID, call: .watch)) {
                line.append(0x0A)
                _ = line.withUnsafeBytes { write(toChild[1], $0.baseAddress, $0.count) }
            }
        }
        return toChild[1]
    }

    private func readReplies(_ fd: Int32, pid: pid_t) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            pending += buffer[0..<n]
            while let end = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<end])
                pending.removeSubrange(...end)
                guard let reply = try? JSONDecoder().decode(GamesBridgeReply.self, from: Data(line)) else { continue }
                if reply.id == nil, let event = reply.feedEvent {
                    lock.withLock { onChange }?(event)
                } else if let id = reply.id, let (semaphore, box) = lock.withLock({ waiting.removeValue(forKey: id) }) {
                    box.reply = reply
                    semaphore.signal()
                }
            }
        }
        close(fd)
        // The helper ended: every waiting request fails now, the next one starts it again.
        let orphans: [(DispatchSemaphore, Box)] = lock.withLock {
            if process?.pid == pid { stopLocked() }
            let all = Array(waiting.values)
            waiting = [:]
            return all
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        for (semaphore, box) in orphans {
            box.helperEnded = true
            semaphore.signal()
        }
    }

    private func stopLocked() {
        guard let process else { return }
        close(process.input)
        self.process = nil
    }
}

/// A mutual-exclusion lock on a semaphore (FoundationEssentials has no NSLock).
final class BridgeLock: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }
}
