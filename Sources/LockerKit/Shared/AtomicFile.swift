import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Why something could not be stored; each case names the file so messages can say which.
public enum StorageError: Error, Equatable, CustomStringConvertible {
    /// `code` is the `errno` of the failed call.
    case cannotCreateDirectory(path: String, code: Int32)
    case writeFailed(path: String, code: Int32)

    /// "path: reason" with the system's (English) reason, for logs and tests.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let code), .writeFailed(let path, let code): return "\(path): \(AtomicFile.describe(code))"
        }
    }

    /// "path: reason" in the interface language; the usual reasons a save fails (a full disk, a
    /// file size limit, permissions, a read-only disk, a quota) are translated, others are the
    /// system's words.
    public func localized(_ l: Localizer) -> String {
        switch self {
        case .cannotCreateDirectory(let path, let code), .writeFailed(let path, let code):
            return l.t("{label}: {value}", ["label": path, "value": StorageError.reason(code, l)])
        }
    }

    /// Why a write failed with `code`, in the interface language for the usual reasons.
    public static func reason(_ code: Int32, _ l: Localizer) -> String {
        switch code {
        case ENOSPC: return l.t("the disk is full")
        case EFBIG: return l.t("the file would be larger than this system allows")
        case EDQUOT: return l.t("your disk quota is used up")
        case EACCES, EPERM: return l.t("permission denied")
        case EROFS: return l.t("the disk is read-only")
        case EIO: return l.t("the disk reported an input/output error")
        case ENOTDIR: return l.t("a file is there, or on the way, where a folder should be")
        case ENOENT: return l.t("a folder on the way does not exist")
        default: return AtomicFile.describe(code)
        }
    }

    /// Why `error` happened, in the interface language when it is a storage error.
    public static func explain(_ error: Error, _ l: Localizer) -> String {
        (error as? StorageError)?.localized(l) ?? "\(error)"
    }
}

/// Writes files so that a reader — or the next start after a crash or power loss — sees either
/// the old content or the new one, never a mix: temp file in the same directory, write, fsync,
/// rename over the target, fsync the directory.
public enum AtomicFile {
    /// Writes `data` to `url`. The folders on the way are made when `creatingFolders` (Locker's
    /// own files); a path the user typed (an export) is not: a typo there fails, it does not
    /// make folders somewhere.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644, creatingFolders: Bool = true) throws {
        let directory = url.deletingLastPathComponent()
        if creatingFolders {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw StorageError.cannotCreateDirectory(path: directory.path, code: errno)
            }
        }
        let temp = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw StorageError.writeFailed(path: url.path, code: errno) }
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
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            unlink(temp.path)
            throw StorageError.writeFailed(path: url.path, code: failure)
        }
        try replace(url, with: temp)
    }

    /// Puts the finished file `temp` (in the same folder) in place of `url`: syncs it, renames
    /// it over `url` and syncs the folder, so the new file survives a crash whole. On failure
    /// `temp` is removed and `url` left as it was.
    public static func replace(_ url: URL, with temp: URL) throws {
        var failure: Int32 = 0
        let fd = open(temp.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 || fsync(fd) != 0 { failure = errno }
        if fd >= 0 { close(fd) }
        if failure == 0 && rename(temp.path, url.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temp.path)
            throw StorageError.writeFailed(path: url.path, code: failure)
        }
        let dirFD = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// Removes the temp files that writers of `url` killed mid-save left behind (their process
    /// no longer exists); the file itself is never touched.
    public static func removeAbandonedTemporaries(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(owner), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory.appendingPathComponent(name).path)
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
            throw StorageError.writeFailed(path: target.path, code: errno)
        }
        return target
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
