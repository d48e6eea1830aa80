import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The workouts/ folder of the data directory, and the bundled sample the Workout tab lists
/// after it: lists the workout files and copies new ones in (under a free name, atomically).
public struct WorkoutLibrary: Sendable {
    public let directory: URL
    /// The bundled sample workout, listed after the folder's files when it exists.
    public let sample: URL?
    public static let extensions: Set<String> = ["gpx", "tcx", "fit", "json"]

    public init(directory: URL, sample: URL? = nil) {
        self.directory = directory
        self.sample = sample
    }

    /// A file the Workout tab lists, with the key its summaries are cached under: name, size
    /// and date for the folder's files (a changed file is read again), the path for the sample.
    public struct ListedFile: Sendable {
        public var key: String
        public var url: URL
        public var isSample: Bool
    }

    /// The folder's workout files, newest first, then the sample.
    public func listedFiles() -> [ListedFile] {
        var files = entries().map { ListedFile(key: "\($0.name)|\($0.size)|\($0.modified)", url: $0.url, isSample: false) }
        if let sample, FileManager.default.fileExists(atPath: sample.path) {
            files.append(ListedFile(key: "sample|" + sample.path, url: sample, isSample: true))
        }
        return files
    }

    /// A workout file of the folder.
    public struct Entry: Equatable, Sendable {
        public var url: URL
        public var size: Int
        public var modified: Double
        public var name: String { url.lastPathComponent }
    }

    /// The workout files, newest modification first.
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var result: [Entry] = []
        for name in names where !name.hasPrefix(".") {
            let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard WorkoutLibrary.extensions.contains(ext) else { continue }
            let url = directory.appendingPathComponent(name)
            var info = stat()
            guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            result.append(Entry(url: url, size: Int(info.st_size), modified: Double(info.st_mtim.tv_sec)))
        }
        return result.sorted { ($0.modified, $0.name) > ($1.modified, $1.name) }
    }

    /// Copies `source` into the folder (as `name-2.gpx` … when the name is taken) through a
    /// temporary file and a rename, so the folder never holds half a file. Returns the new file.
    @discardableResult
    public func importFile(at source: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = source.lastPathComponent
        let dot = name.lastIndex(of: ".")
        let base = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        var target = directory.appendingPathComponent(name)
        var n = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = directory.appendingPathComponent("\(base)-\(n)\(ext)")
            n += 1
        }
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).part-\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
        try FileManager.default.copyItem(at: source, to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw StorageError.writeFailed(path: target.path, code: code)
        }
        return target
    }
}
