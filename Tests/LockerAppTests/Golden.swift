import Foundation
import TerminalUI
import XCTest

/// Compares a rendered surface with `Golden/<name>.txt` (plain text, no escape codes).
/// Run with `LOCKER_RECORD_GOLDEN=1 swift test` to (re)write the files after a deliberate change,
/// then review the diff.
func assertGolden(_ surface: MemorySurface, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
    let directory = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Golden")
    let url = directory.appendingPathComponent("\(name).txt")
    let actual = surface.text + "\n"
    if ProcessInfo.processInfo.environment["LOCKER_RECORD_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        XCTFail("missing golden file \(url.lastPathComponent); record it with LOCKER_RECORD_GOLDEN=1", file: file, line: line)
        return
    }
    if expected != actual {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(e, a).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, a.count)
        XCTFail("\(name) differs from its golden file at row \(first):\n expected: \(first < e.count ? String(e[first]) : "<none>")\n   actual: \(first < a.count ? String(a[first]) : "<none>")\n--- actual screen ---\n\(actual)", file: file, line: line)
    }
}
