import XCTest
@testable import LockerKit

final class StorageTests: XCTestCase {
    struct Sample: Codable, Equatable { var name: String; var count: Int }

    func testAtomicWriteReplacesAndLeavesNoTempFiles() throws {
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("sub/file.json")
        try AtomicFile.write(Data("one".utf8), to: url)
        try AtomicFile.write(Data("two".utf8), to: url)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path), ["file.json"])
    }

    func testFailedWriteKeepsTheOldFile() throws {
        try XCTSkipIf(runningAsRoot, "root ignores directory permissions")
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("file.json")
        try AtomicFile.write(Data("old".utf8), to: url)
        chmod(dir.path, 0o555)
        defer { chmod(dir.path, 0o755) }
        XCTAssertThrowsError(try AtomicFile.write(Data("new".utf8), to: url)) { error in
            guard case StorageError.writeFailed(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, url.path)
        }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "old")
    }

    func testWriteIntoAFileInsteadOfADirectoryFails() throws {
        let dir = try makeTemporaryDirectory(self)
        let blocker = dir.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        XCTAssertThrowsError(try AtomicFile.write(Data("new".utf8), to: blocker.appendingPathComponent("file.json")))
    }

    func testRepositoryRoundTripAndMissing() throws {
        let dir = try makeTemporaryDirectory(self)
        let repository = JSONRepository<Sample>(url: dir.appendingPathComponent("sample.json"))
        guard case .missing = repository.load() else { return XCTFail("expected missing") }
        try repository.save(Sample(name: "Élodie", count: 3))
        guard case .loaded(let value) = repository.load() else { return XCTFail("expected loaded") }
        XCTAssertEqual(value, Sample(name: "Élodie", count: 3))
    }

    func testCorruptFileIsMovedAsideNeverOverwritten() throws {
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("sample.json")
        try Data("{ \"name\": \"x\", \"count\": ".utf8).write(to: url)
        let repository = JSONRepository<Sample>(url: url)
        guard case .corrupt(let backup, let reason) = repository.load() else { return XCTFail("expected corrupt") }
        let moved = try XCTUnwrap(backup)
        XCTAssertTrue(moved.lastPathComponent.hasPrefix("sample.json.corrupt-"), moved.lastPathComponent)
        XCTAssertEqual(try String(contentsOf: moved, encoding: .utf8), "{ \"name\": \"x\", \"count\": ", "content kept as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        XCTAssertEqual(reason, .notJSON)
        XCTAssertEqual(reason.text(Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .fr)), "ce n'est pas du JSON valide", "told in the interface language")
        try repository.save(Sample(name: "new", count: 1))
        XCTAssertEqual(try String(contentsOf: moved, encoding: .utf8), "{ \"name\": \"x\", \"count\": ", "saving later does not touch the backup")
    }

    func testWrongFieldTypeIsCorruptAndNamesTheField() throws {
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("sample.json")
        try Data(#"{ "name": "x", "count": "three" }"#.utf8).write(to: url)
        guard case .corrupt(_, let reason) = JSONRepository<Sample>(url: url).load() else { return XCTFail("expected corrupt") }
        XCTAssertEqual(reason, .wrongValue(".count"))
        XCTAssertEqual(reason.text(Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .en)), ".count has a value of the wrong kind")
    }

    func testValidationRejectsDecodedValues() throws {
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("sample.json")
        try Data(#"{ "name": "x", "count": -1 }"#.utf8).write(to: url)
        struct Negative: Error {}
        let repository = JSONRepository<Sample>(url: url, validate: { if $0.count < 0 { throw Negative() } })
        guard case .corrupt = repository.load() else { return XCTFail("expected corrupt") }
    }

    func testTwoCorruptFilesInOneSecondGetDistinctBackups() throws {
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("a.json")
        let now = Date()
        try Data("x".utf8).write(to: url)
        let first = try AtomicFile.moveAside(url, now: now)
        try Data("y".utf8).write(to: url)
        let second = try AtomicFile.moveAside(url, now: now)
        XCTAssertNotEqual(first, second)
    }

    func testDataPathsPrecedence() {
        let env = ["HOME": "/home/ana", "XDG_DATA_HOME": "/xdg", "LOCKER_DATA_DIR": "/env-dir"]
        XCTAssertEqual(DataPaths.resolve(dataDir: "/flag", gamesDB: nil, environment: env).directory.path, "/flag")
        XCTAssertEqual(DataPaths.resolve(dataDir: nil, gamesDB: nil, environment: env).directory.path, "/env-dir")
        XCTAssertEqual(DataPaths.resolve(dataDir: nil, gamesDB: nil, environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/xdg"]).directory.path, "/xdg/locker")
        XCTAssertEqual(DataPaths.resolve(dataDir: nil, gamesDB: nil, environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "relative"]).directory.path,
                       "/home/ana/.local/share/locker", "a relative XDG_DATA_HOME is ignored, as the spec says")
        XCTAssertEqual(DataPaths.resolve(dataDir: "~/d", gamesDB: nil, environment: env).directory.path, "/home/ana/d")
        let paths = DataPaths.resolve(dataDir: "/flag", gamesDB: nil, environment: env)
        XCTAssertEqual(paths.gamesDatabase.path, "/flag/games.sqlite")
        XCTAssertEqual(paths.settingsFile.path, "/flag/settings.json")
        XCTAssertEqual(DataPaths.resolve(dataDir: "/flag", gamesDB: nil, environment: env.merging(["LOCKER_GAMES_DB": "/shared/g.sqlite"]) { $1 }).gamesDatabase.path, "/shared/g.sqlite")
        XCTAssertEqual(DataPaths.resolve(dataDir: "/flag", gamesDB: "/cli.sqlite", environment: env.merging(["LOCKER_GAMES_DB": "/shared/g.sqlite"]) { $1 }).gamesDatabase.path, "/cli.sqlite")
    }
}
