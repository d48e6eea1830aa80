import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A role in a meet that one process holds at a time (a judge's seat, the leading referee's
/// console): an exclusive `flock` on `DIR/<name>.lock`, held for as long as the value lives. The
/// kernel releases it when the process ends, however it ends, so a pad killed by a dropped link
/// frees its seat at once.
public final class MeetLock: @unchecked Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The lock `name` of the meet in `directory`; nil when another process holds it. Throws
    /// when the lock file cannot be made (a folder the process cannot write).
    public static func claim(_ name: String, in directory: URL) throws -> MeetLock? {
        let path = directory.appendingPathComponent(name + ".lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw MeetJournalError.cannotWrite(path: path, code: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return MeetLock(descriptor: descriptor)
    }

    /// The lock file name of a judge's seat.
    public static func seat(_ number: Int) -> String { "seat-\(number)" }

    /// The lock file name of the console that leads the meet.
    public static let referee = "referee"
}
