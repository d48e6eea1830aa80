import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Runs an external program (posix_spawn) and collects its output — without Foundation's
/// `Process`, which lives outside FoundationEssentials.
public enum ExternalCommand {
    public struct Result: Equatable, Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public struct LaunchError: Error, Equatable { public var program: String; public var code: Int32 }

    /// The full path of `name` on PATH, or nil.
    public static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `program` with `arguments` and waits for it. Standard input is `input` (a short
    /// text, e.g. a password; it fits the pipe buffer), else /dev/null.
    public static func run(_ program: String, _ arguments: [String], input: String? = nil) throws -> Result {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0], inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw LaunchError(program: program, code: errno) }
        if input != nil { guard pipe(&inPipe) == 0 else { throw LaunchError(program: program, code: errno) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
            posix_spawn_file_actions_addclose(&actions, inPipe[0])
            posix_spawn_file_actions_addclose(&actions, inPipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        if let input {
            close(inPipe[0])
            if status == 0 {
                // A child that exits without reading must not kill us with SIGPIPE.
                var ignore = sigaction(), previous = sigaction()
                ignore.__sigaction_handler.sa_handler = SIG_IGN
                sigaction(SIGPIPE, &ignore, &previous)
                defer { sigaction(SIGPIPE, &previous, nil) }
                let bytes = Array(input.utf8)
                var written = 0
                while written < bytes.count {
                    let n = bytes[written...].withUnsafeBufferPointer { write(inPipe[1], $0.baseAddress, $0.count) }
                    if n < 0 { if errno == EINTR { continue }; break }
                    written += n
                }
            }
            close(inPipe[1])
        }
        guard status == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw LaunchError(program: program, code: status)
        }
        // Read both pipes without deadlock: poll until both are closed.
        var out = [UInt8](), err = [UInt8]()
        var fds = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
                   pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            if poll(&fds, 2, -1) < 0 { if errno == EINTR { continue } else { break } }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    if i == 0 { out.append(contentsOf: buffer[0..<n]) } else { err.append(contentsOf: buffer[0..<n]) }
                } else if n == 0 || (n < 0 && errno != EINTR) {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                }
            }
        }
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
        let code: Int32 = (exit & 0x7F) == 0 ? (exit >> 8) & 0xFF : 128 + (exit & 0x7F)
        return Result(status: code, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
