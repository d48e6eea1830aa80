import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Why something could not be stored; each case names the file so messages can say which.
public enum StorageError: Error, Equatable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case readOnly(path: String)

    /// "path: reason", as messages show it.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason), .writeFailed(let path, let reason): return "\(path): \(reason)"
        case .readOnly(let path): return path
        }
    }
}

/// Writes files so that a reader — or the next start after a crash or power loss — sees either
/// the old content or the new one, never a mix: temp file in the same directory, write, fsync,
/// rename over the target, fsync the directory.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StorageError.cannotCreateDirectory(path: directory.path, reason: describe(errno))
        }
        let temp = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw StorageError.writeFailed(path: url.path, reason: describe(errno)) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temp.path, url.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temp.path)
            throw StorageError.writeFailed(path: url.path, reason: describe(failure))
        }
        let dirFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// Moves an unreadable file aside as `name.corrupt-<timestamp>` so it is never overwritten.
    /// Returns the new location.
    public static func moveAside(_ url: URL, now: Date = Date()) throws -> URL {
        let stamp = LocalTime.compact(now)
        var target = url.deletingLastPathComponent()
            .appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)")
        var suffix = 1
        while FileManager.default.fileExists(atPath: target.path) {
            suffix += 1
            target = url.deletingLastPathComponent()
                .appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)-\(suffix)")
        }
        if rename(url.path, target.path) != 0 {
            throw StorageError.writeFailed(path: target.path, reason: describe(errno))
        }
        return target
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
