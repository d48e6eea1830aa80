import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A file read in chunks into one growing buffer, for the streaming workout readers: only the
/// bytes of the token being read are kept, so a 250 MB GPX file needs about 1 MB of memory.
/// Counts lines for error messages.
final class ByteStream {
    private(set) var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Valid bytes are `0..<count`; `position` is the next unread byte.
    private(set) var count = 0
    var position = 0
    /// Line of `position` (from 1), kept by the scanners as they consume newlines.
    var line = 1
    private(set) var atEnd = false
    private let descriptor: Int32
    /// Total bytes read so far (for progress and tests).
    private(set) var bytesRead = 0
    /// The file's size when it was opened (0 when unknown).
    private(set) var totalSize = 0
    /// Called after each chunk with the bytes read so far and the file's size; returning false
    /// stops reading (the stream then looks ended and `cancelled` is set).
    var onChunk: ((_ read: Int, _ total: Int) -> Bool)?
    /// True when `onChunk` asked to stop.
    private(set) var cancelled = false

    /// Why a file could not be opened, in words the localizer translates (not `strerror`'s English).
    static func reason(_ code: Int32) -> LocalizedMessage {
        switch code {
        case ENOENT: return .t("there is no such file")
        case EACCES, EPERM: return .t("permission denied")
        case EISDIR: return .t("it is a folder")
        case ENOTDIR: return .t("a part of the path is not a folder")
        case ELOOP: return .t("too many symbolic links")
        case ENAMETOOLONG: return .t("the name is too long")
        case EMFILE, ENFILE: return .t("too many files are open")
        default: return .t("system error {code}", ["code": String(code)])
        }
    }

    /// Opens `path` for reading.
    init(path: String, chunk: Int = 1 << 20) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw WorkoutError(file: path, line: nil, problem: .unreadable(ByteStream.reason(errno))) }
        descriptor = fd
        var info = stat()
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw WorkoutError(file: path, line: nil, problem: .unreadable(ByteStream.reason(EISDIR)))
            }
            totalSize = Int(info.st_size)
        }
        capacity = chunk
        buffer = .allocate(capacity: chunk)
    }

    /// Offset from the start of the file of the buffer index `index`.
    func fileOffset(of index: Int) -> Int { bytesRead - count + index }

    /// Makes at least `n` unread bytes available from `position` (dropping what is before it).
    /// False when the file ends first.
    func ensure(_ n: Int) -> Bool {
        while count - position < n {
            guard refill(keeping: position).more else { return false }
        }
        return true
    }

    /// Reads from bytes in memory (tests, fuzzing).
    init(bytes: [UInt8]) {
        descriptor = -1
        capacity = max(1, bytes.count)
        buffer = .allocate(capacity: capacity)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.update(from: base, count: bytes.count) }
        }
        count = bytes.count
        bytesRead = bytes.count
        atEnd = true
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        buffer.deallocate()
    }

    /// Reads more bytes, first dropping everything before `keep` (the start of the token being
    /// read): afterwards that byte is at index 0 and `position` has moved with it. Returns the
    /// shift applied to indexes (subtract it from any index the caller keeps) and whether new
    /// bytes arrived (false at the end of the file).
    func refill(keeping keep: Int) -> (shift: Int, more: Bool) {
        guard !atEnd else { return (0, false) }
        if let onChunk, !onChunk(bytesRead, totalSize) {
            cancelled = true
            atEnd = true
            return (0, false)
        }
        let shift = keep
        if shift > 0 {
            memmove(buffer, buffer + shift, count - shift)
            count -= shift
            position -= shift
        }
        if count == capacity {
            // One token fills the whole buffer: grow it.
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        while true {
            let n = read(descriptor, buffer + count, capacity - count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { atEnd = true; return (shift, false) }
            count += n
            bytesRead += n
            return (shift, true)
        }
    }

    /// The first bytes of the file (for format sniffing); reads them if needed.
    func prefix(_ n: Int) -> [UInt8] {
        while count - position < n && refill(keeping: position).more {}
        return Array(UnsafeBufferPointer(start: buffer + position, count: min(n, count - position)))
    }
}
