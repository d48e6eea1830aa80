import Foundation
import LockerKit
@testable import LockerGames
import XCTest

/// The live feed's reader when change numbers commit out of order (PostgreSQL takes a sequence
/// number when a transaction writes, not when it commits).
final class ChangeFeedTests: XCTestCase {
    private func feed() throws -> ChangeFeed {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return ChangeFeed(database: try SQLiteGamesDatabase(path: dir.appendingPathComponent("games.sqlite").path))
    }

    private func changes(_ sequences: [Int64]) -> [GamesChange] {
        sequences.map { GamesChange(sequence: $0, kind: .booked, game: 1, ground: "casey-fields") }
    }

    func testAChangeThatCommitsLateIsStillDeliveredOnce() throws {
        let feed = try feed()
        let start = Date()
        // 2 commits before 1: the reader sees 2 first, then 1 and 2 together.
        XCTAssertEqual(feed.advance(with: changes([2]), now: start).map(\.sequence), [2])
        XCTAssertEqual(feed.advance(with: changes([1, 2]), now: start).map(\.sequence), [1])
        XCTAssertEqual(feed.advance(with: changes([1, 2, 3]), now: start).map(\.sequence), [3])
    }

    func testAGapThatNeverFillsIsGivenUpAfterAWhile() throws {
        let feed = try feed()
        let start = Date()
        // 1 rolled back: 2 and 3 are delivered at once; 1 is waited for, then given up, and
        // nothing is delivered twice.
        XCTAssertEqual(feed.advance(with: changes([2, 3]), now: start).map(\.sequence), [2, 3])
        XCTAssertEqual(feed.advance(with: changes([2, 3]), now: start.addingTimeInterval(1)).map(\.sequence), [])
        XCTAssertEqual(feed.advance(with: changes([2, 3]), now: start.addingTimeInterval(6)).map(\.sequence), [])
        XCTAssertEqual(feed.advance(with: changes([4]), now: start.addingTimeInterval(7)).map(\.sequence), [4])
    }
}
