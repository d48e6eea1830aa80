import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Finds Locker's bundled files (`Data/` and `Localization/`) wherever Locker runs from.
///
/// Search order: `LOCKER_RESOURCES`; `share/locker` beside or above the executable (an
/// installed copy, see scripts/install); the source checkout this binary was built from
/// (covers `swift run` and `swift test` from any working directory).
public struct Resources: Sendable {
    public let root: URL

    public var dataDirectory: URL { root.appendingPathComponent("Data", isDirectory: true) }
    public var localizationDirectory: URL { root.appendingPathComponent("Localization", isDirectory: true) }

    public init(root: URL) { self.root = root }

    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL? = Resources.executableURL()) -> Resources? {
        var candidates: [URL] = []
        if let explicit = environment["LOCKER_RESOURCES"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let executable = executable?.resolvingSymlinksInPath() {
            let bin = executable.deletingLastPathComponent()
            candidates.append(bin.appendingPathComponent("share/locker"))
            candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/locker"))
        }
        // Sources/LockerKit/Shared/Resources.swift → the package root.
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(checkout)
        for candidate in candidates where isResourceRoot(candidate) {
            return Resources(root: candidate.standardizedFileURL)
        }
        return nil
    }

    /// The running executable, from /proc (Linux) — without Foundation's Bundle.
    public static func executableURL() -> URL? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return URL(fileURLWithPath: String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func isResourceRoot(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("Localization/en.po").path)
    }
}
