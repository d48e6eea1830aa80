#if canImport(Glibc)
import Glibc
#endif

/// A failure the app can be told to cause (hidden `--debug-fault KIND`, triggered by F12), so
/// the crash tests can check that the terminal is restored however the process ends.
public enum DebugFault: String, CaseIterable, Sendable {
    /// Signals another process would send.
    case term, hup
    /// A real invalid memory write (SIGSEGV).
    case segv
    /// A Swift runtime trap (`fatalError`: SIGILL on x86-64, SIGTRAP on arm64).
    case trap
    /// `abort()` (SIGABRT), as a failed C assertion would.
    case abort

    /// Causes the failure; does not return.
    public func trigger() {
        switch self {
        case .term: raise(SIGTERM)
        case .hup: raise(SIGHUP)
        case .segv:
            let nowhere = UnsafeMutablePointer<Int>(bitPattern: 8)!
            nowhere.pointee = 42
        case .trap: fatalError("--debug-fault trap")
        case .abort: Glibc.abort()
        }
    }
}
