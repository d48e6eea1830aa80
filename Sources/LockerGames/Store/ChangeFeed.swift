import LockerKit
import Foundation

/// The live feed of one process: a single reader follows the store's `gamesChange` table (woken
/// by PostgreSQL's NOTIFY, or every 300 ms on SQLite) and hands each new change to every
/// subscriber. Changes made by other servers and processes on the same store come through too,
/// because the table, not this process, is the source.
///
/// Sequence numbers are taken when a transaction writes, not when it commits, so change 41 may
/// become visible after 42. The reader therefore keeps the lowest number it has not seen
/// (`floor`) and reads from there, skipping what it already delivered; a gap that stays open
/// for `gapPatience` belonged to a transaction that rolled back and is given up.
final class ChangeFeed: @unchecked Sendable {
    private let database: GamesDatabase
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncThrowingStream<GamesChange, Error>.Continuation] = [:]
    private var reader: Task<Void, Never>?
    /// Every change at or below it has been delivered (or given up).
    private var floor: Int64 = 0
    /// Changes above `floor` already delivered, with when they were first seen.
    private var delivered: [Int64: Date] = [:]
    private let gapPatience: TimeInterval = 5

    init(database: GamesDatabase) { self.database = database }

    /// Changes after `sequence` (nil: from now on), until the consumer stops.
    func subscribe(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error> {
        let id = UUID()
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1000)) { continuation in
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            Task {
                do {
                    let current = try await self.startReader()
                    // Catch up from the client's own position before joining the live feed.
                    if let sequence, sequence < current {
                        for change in try await self.read(after: sequence, through: current) { continuation.yield(change) }
                    }
                    self.lock.withLock { self.subscribers[id] = continuation }
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    private func remove(_ id: UUID) {
        let stop: Task<Void, Never>? = lock.withLock {
            subscribers[id] = nil
            guard subscribers.isEmpty, let reader else { return nil }
            self.reader = nil
            return reader
        }
        stop?.cancel()
    }

    /// Starts the reader when it is not running; returns the sequence it is at.
    private func startReader() async throws -> Int64 {
        if let position = lock.withLock({ () -> Int64? in reader != nil ? floor : nil }) { return position }
        let start = try await database.transaction { db in
            try await db.one("SELECT max(sequence) AS last FROM gamesChange", [])?.int("last") ?? 0
        }
        return lock.withLock {
            if reader != nil { return floor }
            floor = start
            delivered = [:]
            reader = Task { [weak self] in await self?.follow() }
            return start
        }
    }

    private func follow() async {
        for await _ in database.changeSignals() {
            if Task.isCancelled { return }
            let after = lock.withLock { floor }
            guard let changes = try? await read(after: after, through: nil) else { continue }
            let (fresh, targets) = lock.withLock { () -> ([GamesChange], [AsyncThrowingStream<GamesChange, Error>.Continuation]) in
                (advance(with: changes, now: Date()), Array(subscribers.values))
            }
            for change in fresh { for target in targets { target.yield(change) } }
        }
    }

    /// Marks `changes` delivered, moves `floor` over every sequence that is no longer a gap, and
    /// returns the changes not delivered before. Called with the lock held (tests call it alone).
    func advance(with changes: [GamesChange], now: Date) -> [GamesChange] {
        let fresh = changes.filter { $0.sequence > floor && delivered[$0.sequence] == nil }
        for change in fresh { delivered[change.sequence] = now }
        while true {
            while let seen = delivered.removeValue(forKey: floor + 1) { _ = seen; floor += 1 }
            // The oldest change seen beyond the gap has waited long enough: the gap is a rollback.
            guard let oldest = delivered.min(by: { $0.key < $1.key }),
                  now.timeIntervalSince(oldest.value) >= gapPatience else { break }
            floor = oldest.key - 1
        }
        return fresh
    }

    private func read(after: Int64, through: Int64?) async throws -> [GamesChange] {
        try await database.transaction { db in
            try await db.query("SELECT sequence, kind, gameId, groundId FROM gamesChange WHERE sequence > ? AND sequence <= ? ORDER BY sequence LIMIT 1000",
                               [after, through ?? Int64.max]).compactMap { row in
                guard let sequence = row.int("sequence"), let kind = row.string("kind").flatMap(GamesChange.Kind.init),
                      let game = row.int("gameid"), let ground = row.string("groundid") else { return nil }
                return GamesChange(sequence: sequence, kind: kind, game: game, ground: ground)
            }
        }
    }
}
