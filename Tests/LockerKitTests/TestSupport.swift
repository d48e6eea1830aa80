import Foundation
import XCTest

/// A fresh temporary directory per test, removed afterwards.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("locker-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock {
        chmodRecursively(url)
        try? FileManager.default.removeItem(at: url)
    }
    return url
}

private func chmodRecursively(_ url: URL) {
    _ = chmod(url.path, 0o755)
    for item in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
        _ = chmod(url.appendingPathComponent(item).path, 0o755)
    }
}

/// The package root (this file is Tests/LockerKitTests/TestSupport.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Whether the tests run as root (permission checks do not apply then).
var runningAsRoot: Bool { getuid() == 0 }
