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
    /// Guards the subscribers, the reader's state, `floor` and `delivered`. Nothing is yielded,
    /// finished or cancelled while it is held: a stream's termination handler takes it, and
    /// that handler runs inside the task runtime's own lock of the consumer being cancelled,
    /// which a yield to that consumer needs too (docs/RELIABILITY.md, "Live feeds").
    private let lock = NSLock()
    private var subscribers: [UUID: Subscriber] = [:]
    private var readerRunning = false
    /// Every change at or below it has been delivered (or given up).
    private var floor: Int64 = 0
    /// Changes above `floor` already delivered, with when they were first seen.
    private var delivered: [Int64: Date] = [:]
    private let gapPatience: TimeInterval = 5

    /// One consumer. While it catches up on what it missed, live changes wait in `held`, so
    /// nothing committed meanwhile falls between the catch-up read and the live feed, and
    /// nothing arrives out of order. Its own lock orders its yields; the feed's lock is never
    /// held while it is taken.
    private final class Subscriber: @unchecked Sendable {
        private let continuation: AsyncThrowingStream<GamesChange, Error>.Continuation
        private let lock = NSLock()
        private var catchingUp: Bool
        private var held: [GamesChange] = []
        /// Sequences above the feed's floor that the catch-up already gave.
        private var given: Set<Int64> = []

        init(_ continuation: AsyncThrowingStream<GamesChange, Error>.Continuation, catchingUp: Bool) {
            self.continuation = continuation
            self.catchingUp = catchingUp
        }

        func deliver(_ changes: [GamesChange]) {
            lock.withLock {
                for change in changes {
                    if catchingUp { held.append(change) } else if !given.contains(change.sequence) { continuation.yield(change) }
                }
            }
        }

        /// Ends the catch-up: `first` (what was missed, or one reload), then what was held
        /// beyond `after`; `given` are the sequences above the feed's floor that this covered.
        func caughtUp(first: [GamesChange], given: Set<Int64>, after sequence: Int64) {
            lock.withLock {
                for change in first { continuation.yield(change) }
                self.given = given
                catchingUp = false
                let held = self.held
                self.held = []
                for change in held where change.sequence > sequence && !given.contains(change.sequence) { continuation.yield(change) }
            }
        }

        func fail(_ error: Error) { continuation.finish(throwing: error) }
    }

    init(database: GamesDatabase) { self.database = database }

    /// Changes after `sequence` (nil: from now on), until the consumer stops. A consumer more
    /// than `GamesChange.catchUpLimit` changes behind gets one `reload` instead of them.
    func subscribe(after sequence: Int64?) -> AsyncThrowingStream<GamesChange, Error> {
        let id = UUID()
        return AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            let subscriber = Subscriber(continuation, catchingUp: sequence != nil)
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            Task {
                do {
                    // Joins the live feed first (holding what it hears), then makes sure the
                    // reader runs and notes how far it has delivered: the catch-up reads up to there.
                    self.lock.withLock { self.subscribers[id] = subscriber }
                    let known = try await self.startReader()
                    guard let sequence else { return }
                    var missed: [GamesChange] = []
                    if sequence < known {
                        missed = try await self.read(after: sequence, through: known, limit: GamesChange.catchUpLimit + 1)
                    }
                    let floor = self.lock.withLock { self.floor }
                    if missed.count > GamesChange.catchUpLimit {
                        let from = max(sequence, floor) + 1
                        subscriber.caughtUp(first: [.reload(at: known)], given: from <= known ? Set(from...known) : [], after: sequence)
                    } else {
                        subscriber.caughtUp(first: missed, given: Set(missed.map(\.sequence)), after: sequence)
                    }
                } catch {
                    subscriber.fail(error)
                }
            }
        }
    }

    /// Forgets a consumer that stopped. Called from its stream's termination handler, so it
    /// only takes the lock for the dictionary: the reader notices an empty feed by itself.
    private func remove(_ id: UUID) {
        let gone = lock.withLock { subscribers.removeValue(forKey: id) }
        _ = gone   // released here, outside the lock
    }

    /// Starts the reader when it is not running; returns how far the feed has delivered.
    private func startReader() async throws -> Int64 {
        if let position = lock.withLock({ () -> Int64? in readerRunning ? max(floor, delivered.keys.max() ?? 0) : nil }) { return position }
        let start = try await database.read { db in
            try await db.one("SELECT max(sequence) AS last FROM gamesChange", [])?.int("last") ?? 0
        }
        let begin = lock.withLock { () -> Bool in
            guard !readerRunning else { return false }
            readerRunning = true
            floor = start
            delivered = [:]
            return true
        }
        if begin { Task { await self.follow() } }
        return lock.withLock { max(floor, delivered.keys.max() ?? 0) }
    }

    /// The reader: after each signal from the store, everything past the floor, page by page
    /// (a burst bigger than a page is not left waiting for the next signal), handed to every
    /// subscriber outside the lock. It stops by itself at a signal that finds no subscriber.
    private func follow() async {
        for await _ in database.changeSignals() {
            while true {
                let after: Int64? = lock.withLock {
                    guard !subscribers.isEmpty else { readerRunning = false; return nil }
                    return floor
                }
                guard let after else { return }
                guard let changes = try? await read(after: after, through: nil, limit: GamesChange.catchUpLimit) else { break }
                let (fresh, audience) = lock.withLock { (advance(with: changes, now: Date()), Array(subscribers.values)) }
                if !fresh.isEmpty { for subscriber in audience { subscriber.deliver(fresh) } }
                // A full page with nothing new sits behind a gap: wait for the next signal.
                if changes.count < GamesChange.catchUpLimit || fresh.isEmpty { break }
            }
        }
        lock.withLock { readerRunning = false }
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
