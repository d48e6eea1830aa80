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
    private var subscribers: [UUID: Subscriber] = [:]
    private var reader: Task<Void, Never>?
    /// Every change at or below it has been delivered (or given up).
    private var floor: Int64 = 0
    /// Changes above `floor` already delivered, with when they were first seen.
    private var delivered: [Int64: Date] = [:]
    private let gapPatience: TimeInterval = 5

    /// One consumer. While it catches up on what it missed, live changes wait in `held`, so
    /// nothing committed meanwhile falls between the catch-up read and the live feed, and
    /// nothing arrives out of order.
    private final class Subscriber {
        let continuation: AsyncThrowingStream<GamesChange, Error>.Continuation
        var catchingUp: Bool
        var held: [GamesChange] = []
        /// Sequences above the feed's floor that the catch-up already gave.
        var given: Set<Int64> = []

        init(_ continuation: AsyncThrowingStream<GamesChange, Error>.Continuation, catchingUp: Bool) {
            self.continuation = continuation
            self.catchingUp = catchingUp
        }

        func deliver(_ change: GamesChange) {
            if catchingUp { held.append(change) } else if !given.contains(change.sequence) { continuation.yield(change) }
        }
    }

    init(database: GamesDatabase) { self.database = database }

    /// Changes after `sequence` (nil: from now on), until the consumer stops. A consumer more
    /// than `GamesChange.catchUpLimit` changes behind gets one `reload` instead of them.
    func subscribe(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error> {
        let id = UUID()
        return AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            Task {
                do {
                    _ = try await self.startReader()
                    // Joins the live feed first (holding what it hears), and notes how far the
                    // feed has delivered at that moment: the catch-up reads up to there.
                    let known = self.lock.withLock { () -> Int64 in
                        self.subscribers[id] = Subscriber(continuation, catchingUp: sequence != nil)
                        return max(self.floor, self.delivered.keys.max() ?? 0)
                    }
                    guard let sequence else { return }
                    var missed: [GamesChange] = []
                    if sequence < known {
                        missed = try await self.read(after: sequence, through: known, limit: GamesChange.catchUpLimit + 1)
                    }
                    self.lock.withLock {
                        guard let subscriber = self.subscribers[id] else { return }
                        if missed.count > GamesChange.catchUpLimit {
                            continuation.yield(.reload(at: known))
                            let from = max(sequence, self.floor) + 1
                            subscriber.given = from <= known ? Set(from...known) : []
                        } else {
                            for change in missed { continuation.yield(change) }
                            subscriber.given = Set(missed.map(\.sequence).filter { $0 > self.floor })
                        }
                        subscriber.catchingUp = false
                        for change in subscriber.held where change.sequence > sequence { subscriber.deliver(change) }
                        subscriber.held = []
                    }
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
        let start = try await database.read { db in
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
            // Everything past the floor, page by page, so a burst bigger than a page is not
            // left waiting for the next signal.
            while !Task.isCancelled {
                let after = lock.withLock { floor }
                guard let changes = try? await read(after: after, through: nil, limit: GamesChange.catchUpLimit) else { break }
                let fresh = lock.withLock {
                    let fresh = advance(with: changes, now: Date())
                    for change in fresh { for subscriber in subscribers.values { subscriber.deliver(change) } }
                    return fresh
                }
                // A full page with nothing new sits behind a gap: wait for the next signal.
                if changes.count < GamesChange.catchUpLimit || fresh.isEmpty { break }
            }
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

    private func read(after: Int64, through: Int64?, limit: Int) async throws -> [GamesChange] {
        try await database.read { db in
            try await db.query("SELECT sequence, kind, gameId, groundId FROM gamesChange WHERE sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?",
                               [after, through ?? Int64.max, limit]).compactMap { row in
                guard let sequence = row.int("sequence"), let kind = row.string("kind").flatMap(GamesChange.Kind.init),
                      let game = row.int("gameid"), let ground = row.string("groundid") else { return nil }
                return GamesChange(sequence: sequence, kind: kind, game: game, ground: ground)
            }
        }
    }
}
