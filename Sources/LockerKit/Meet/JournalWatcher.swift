import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Says when a journal changes: at once through inotify (Linux), and by looking at its size
/// twice a second besides (a journal on a file system inotify does not see, such as NFS).
public final class JournalWatcher: @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let inotify: Int32
    private let queue = DispatchQueue(label: "locker.meet-journal-watcher", qos: .userInitiated)

    init(path: String, changed: @escaping @Sendable (Int) -> Void) {
        let queue = self.queue
        // Every signal goes through the same serial queue, which alone reads and writes `last`.
        final class Last: @unchecked Sendable { var size: Int; init(_ size: Int) { self.size = size } }
        let last = Last(JournalWatcher.size(path))
        let look: @Sendable () -> Void = {
            queue.async {
                let now = JournalWatcher.size(path)
                guard now != last.size else { return }
                last.size = now
                changed(now)
            }
        }
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler(handler: look)
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.resume()
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        if inotify >= 0, inotify_add_watch(inotify, path, UInt32(IN_MODIFY | IN_ATTRIB)) >= 0 {
            // A queue of its own, whose one thread blocks in `read` for the watcher's life.
            let descriptor = inotify
            DispatchQueue(label: "locker.meet-journal-inotify").async {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count <= 0 && errno != EINTR { return }
                    look()
                }
            }
        }
    }

    /// Stops the timer. The inotify thread blocks in `read` for the rest of the process (one per
    /// console): closing its descriptor under it could hand the number to another file.
    func stop() { timer.cancel() }

    public static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// The file's size and time of last change (nanoseconds): it changes when a line is appended,
    /// and when the file is edited in place without changing its size. Nil when there is no file.
    public static func stamp(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
    }
}
