import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What the Games tab needs, as blocking calls that run on a background thread (the view-model
/// starts each through `BackgroundWork`). The real one is `BridgeGamesClient`; tests use a fake.
public protocol GamesClient: AnyObject, Sendable {
    /// Sends one request and waits for its answer; a refusal throws its `GamesError`.
    func send(_ request: GamesRequest) throws -> GamesAnswer
    /// Follows the live feed: `onEvent` runs on a background thread for each change, and when
    /// the store becomes reachable or unreachable.
    func watch(_ onEvent: @escaping @Sendable (GamesFeedEvent) -> Void)
    /// Stops the requests in flight (Esc): the helper cancels them, their callers return.
    func cancelInFlight()
}

/// One line to `locker-games games bridge`, written with its case's name.
public enum GamesBridgeLine: Codable, Equatable, Sendable {
    /// A request, numbered so its answer finds it (`{"ask":{"id":7,"request":{"book":{"game":42}}}}`).
    case ask(id: Int, request: GamesRequest)
    /// Start sending the live feed's events.
    case watch
    /// Drop the request numbered `request` (its answer is no longer awaited).
    case abort(request: Int)
}

/// One line from the helper, written with its case's name: the answer to request `id`, its
/// refusal (a problem document; `id` absent when the line it answers could not be read), or a
/// live feed event.
public enum GamesBridgeReply: Codable, Equatable, Sendable {
    case answer(id: Int, answer: GamesAnswer)
    case refused(id: Int?, problem: Problem)
    case feed(event: GamesFeedEvent)
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

    public func send(_ request: GamesRequest) throws -> GamesAnswer {
        let semaphore = DispatchSemaphore(value: 0)
        let box = Box()
        let id = try post { id in
            self.waiting[id] = (semaphore, box)
            return .ask(id: id, request: request)
        }
        guard semaphore.wait(timeout: .now() + timeout) == .success else {
            lock.withLock { waiting[id] = nil }
            _ = try? post { _ in .abort(request: id) }
            throw GamesError.unreachable(.noAnswerWithin(seconds: Int(timeout)))
        }
        switch box.reply {
        case .answer(_, let answer)?: return answer
        case .refused(_, let problem)?: throw GamesError(problem: problem)
        case .feed?, nil:
            if box.helperEnded { throw GamesError.unreachable(.helperStopped) }
            throw CancellationError()
        }
    }

    public func watch(_ onChange: @escaping @Sendable (GamesFeedEvent) -> Void) {
        lock.withLock { self.onChange = onChange }
        _ = try? post { _ in .watch }
    }

    public func cancelInFlight() {
        let stopped: [(Int, DispatchSemaphore)] = lock.withLock {
            let all = waiting.map { ($0.key, $0.value.0) }
            waiting = [:]
            return all
        }
        for (id, semaphore) in stopped {
            _ = try? post { _ in .abort(request: id) }
            semaphore.signal()
        }
    }

    // MARK: The pipe

    /// Writes one line (starting the helper when needed), made by `line` from the next number
    /// (under the lock, so a request can register for its answer first); returns that number.
    @discardableResult
    private func post(_ line: (Int) -> GamesBridgeLine) throws -> Int {
        try lock.withLock {
            let input = try running()
            nextID += 1
            var data = try JSONEncoder().encode(line(nextID))
            data.append(0x0A)
            let written = data.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            guard written == data.count else {
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
            if var line = try? JSONEncoder().encode(GamesBridgeLine.watch) {
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
                switch reply {
                case .feed(let event):
                    lock.withLock { onChange }?(event)
                case .answer(let id, _), .refused(let id?, _):
                    if let (semaphore, box) = lock.withLock({ waiting.removeValue(forKey: id) }) {
                        box.reply = reply
                        semaphore.signal()
                    }
                case .refused(nil, _):
                    continue
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
