import Foundation
import XCTest
@testable import LockerKit

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
/// A repository that counts its loads, saves and copies kept aside, and those made on the main
/// (UI) thread.
final class ThreadRecordingRepository<Value>: Repository, @unchecked Sendable {
    private let inner: any Repository<Value>
    private let lock = NSLock()
    private var counts = (all: 0, main: 0, loads: 0, loadsOnMain: 0, keptAside: 0, keptAsideOnMain: 0)
    init(_ inner: any Repository<Value>) { self.inner = inner }
    var saves: Int { lock.withLock { counts.all } }
    var savesOnMainThread: Int { lock.withLock { counts.main } }
    var loads: Int { lock.withLock { counts.loads } }
    var loadsOnMainThread: Int { lock.withLock { counts.loadsOnMain } }
    var keptAside: Int { lock.withLock { counts.keptAside } }
    var keptAsideOnMainThread: Int { lock.withLock { counts.keptAsideOnMain } }
    func load() -> LoadOutcome<Value> {
        lock.withLock {
            counts.loads += 1
            if Thread.isMainThread { counts.loadsOnMain += 1 }
        }
        return inner.load()
    }
    func save(_ value: Value) throws {
        lock.withLock {
            counts.all += 1
            if Thread.isMainThread { counts.main += 1 }
        }
        try inner.save(value)
    }
    func keepAside(_ value: Value, now: Date) -> URL? {
        lock.withLock {
            counts.keptAside += 1
            if Thread.isMainThread { counts.keptAsideOnMain += 1 }
        }
        return inner.keepAside(value, now: now)
    }
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Whether the tests run as root (permission checks do not apply then).
var runningAsRoot: Bool { getuid() == 0 }
