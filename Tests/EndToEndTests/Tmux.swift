import Foundation
import XCTest

/// The built `locker` binary (swift test builds it: this target depends on it).
enum LockerBinary {
    static let url: URL? = {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["LOCKER_BINARY"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        // The test bundle lives in the same build folder as the executable.
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("locker"))
        }
        if let exe = Bundle.main.executableURL {
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("locker"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/locker"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}

/// Runs a command and returns its status, standard output and standard error.
@discardableResult
func runProcess(_ arguments: [String], environment: [String: String]? = nil, input: FileHandle? = nil,
                directory: URL? = nil, captureOutput: Bool = true) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardInput = input ?? FileHandle.nullDevice
    guard captureOutput else { return (try spawnDetached(arguments), "", "") }
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Starts a command (found on PATH by /usr/bin/env) without waiting for it: stdin and stderr on
/// /dev/null, stdout too unless `pipeOutput`, which returns the read end of a pipe on it.
func startProcess(_ arguments: [String], pipeOutput: Bool = false) throws -> (pid: pid_t, output: Int32?) {
    var pipeEnds: [Int32] = [-1, -1]
    if pipeOutput { guard pipe(&pipeEnds) == 0 else { throw NSError(domain: "pipe", code: Int(errno)) } }
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
        if fd == 1 && pipeOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
    }
    let argv: [UnsafeMutablePointer<CChar>?] = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
    if pipeOutput { close(pipeEnds[1]) }
    guard status == 0 else {
        if pipeOutput { close(pipeEnds[0]) }
        throw NSError(domain: "spawn", code: Int(status))
    }
    return (pid, pipeOutput ? pipeEnds[0] : nil)
}

/// Runs a command whose children outlive it (the tmux server): posix_spawn and waitpid, with
/// output discarded. Foundation's `Process` would wait for those children too.
func spawnDetached(_ arguments: [String]) throws -> Int32 {
    let pid = try startProcess(arguments).pid
    var exit: Int32 = 0
    while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
    return (exit >> 8) & 0xFF
}

/// One private tmux server running one command, driven like a person at a keyboard:
/// `send` keys, `waitFor` text to appear (never fixed sleeps), read the `screen`.
final class TmuxSession {
    let socket: String
    let dataDirectory: URL
    private let ownsDataDirectory: Bool
    private let config: URL

    /// Starts `locker` with `arguments` in a width × height window. The pane stays after the
    /// program exits so its exit status and the restored screen can be checked. `shellPrefix`
    /// runs in the pane's shell first (for example `ulimit -f 4;`).
    init(arguments: [String] = [], width: Int = 100, height: Int = 30, environment: [String: String] = [:],
         dataDirectory: URL? = nil, shellPrefix: String = "") throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        ownsDataDirectory = dataDirectory == nil
        socket = "locker-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        self.dataDirectory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("locker-e2e-\(UUID().uuidString)")
        config = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
        try """
        set -g default-terminal "tmux-256color"
        set -g escape-time 10
        set -g status off
        """.write(to: config, atomically: true, encoding: .utf8)
        // Hermetic: nothing from the developer's or CI's environment changes what locker shows.
        var env = ["LOCKER_DATA_DIR": self.dataDirectory.path, "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": "",
                   "NO_COLOR": "", "LOCKER_GAMES_DB": "", "ESCDELAY": ""]
        env.merge(environment) { $1 }
        let exports = env.map { "\($0.key)=\(TmuxSession.quote($0.value))" }.joined(separator: " ")
        let locker = shellPrefix + "env \(exports) \(TmuxSession.quote(binary.path)) " + arguments.map(TmuxSession.quote).joined(separator: " ")
        // A shell stays in the pane after locker exits, reports its status and whether the
        // terminal is back in cooked mode with echo, so restoration can be checked live.
        let after = "echo \"[locker exited $?]\"; s=$(stty -a | tr ' ;' '\\n\\n'); "
            + "echo \"$s\" | grep -qx echo && echo \"$s\" | grep -qx icanon && echo '[tty sane]'; exec sleep 3600"
        let command = "sh -c " + TmuxSession.quote(locker + "; " + after)
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", command], captureOutput: false)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        // kill-server can leave the socket file behind; tmux keeps it in $TMUX_TMPDIR/tmux-UID.
        let socketDirectory = (ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())"
        try? FileManager.default.removeItem(atPath: socketDirectory + "/" + socket)
        try? FileManager.default.removeItem(at: config)
        if ownsDataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func tmux(_ arguments: [String], captureOutput: Bool = true) throws -> String {
        let result = try runProcess(["tmux", "-L", socket, "-f", config.path] + arguments, captureOutput: captureOutput)
        guard result.status == 0 else { throw NSError(domain: "tmux", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return result.stdout
    }

    /// Sends tmux key names ("Down", "C-c", "q") or, with `literal`, text.
    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
    }

    /// The visible screen as text; with `escapes`, including colour and attribute codes.
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until `text` shows on screen; fails the test with the screen if it does not.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        repeat {
            last = try screen()
            if last.contains(text) { return last }
            usleep(20_000)
        } while Date() < deadline
        XCTFail("\"\(text)\" did not appear within \(timeout)s. Screen:\n\(last)", file: file, line: line)
        throw XCTSkip("stopping this test")
    }

    /// Waits until the screen stops changing (the same twice, 200 ms apart) and returns it.
    @discardableResult
    func waitForStableScreen(timeout: TimeInterval = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        repeat {
            usleep(200_000)
            let now = try screen()
            if now == last { return now }
            last = now
        } while Date() < deadline
        return last
    }

    /// Waits until `text` is gone from the screen.
    func waitForAbsence(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try !screen().contains(text) { return }
            usleep(20_000)
        } while Date() < deadline
        XCTFail("\"\(text)\" did not go away. Screen:\n\(try screen())", file: file, line: line)
    }

    /// Waits for the program to exit; returns its exit status (128 + n after signal n).
    func waitForExit(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        let pattern = try NSRegularExpression(pattern: #"\[locker exited (\d+)\]"#)
        repeat {
            let text = try screen()
            if let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
               let range = Range(match.range(at: 1), in: text) {
                return Int(text[range])
            }
            usleep(20_000)
        } while Date() < deadline
        XCTFail("locker did not exit. Screen:\n\(try screen())", file: file, line: line)
        return nil
    }

    /// Whether the terminal is back to normal after exit: alternate screen left, cursor shown,
    /// cooked mode with echo (checked by the shell that ran locker).
    func terminalRestored() throws -> Bool {
        _ = try? waitFor("[tty sane]", timeout: 3)
        let state = try tmux(["display-message", "-p", "-t", "0", "#{alternate_on} #{cursor_flag}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let screenText = try screen()
        return state == "0 1" && screenText.contains("[tty sane]")
    }

    /// The process id of locker (the child of the pane's shell).
    func pid() throws -> pid_t {
        let shell = try tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try runProcess(["pgrep", "-P", shell]).stdout.split(separator: "\n")
        return pid_t(children.first.map(String.init) ?? "") ?? 0
    }
}
