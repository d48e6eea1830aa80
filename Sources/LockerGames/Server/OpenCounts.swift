import Foundation

/// How many of something each key holds open at once, and all keys together: connections per
/// address (`ConnectionLimits`), live streams per account (`EventStreamLimiter`).
final class OpenCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var all = 0

    /// Counts one more for `key` when `allowed(held by the key, held in all)`; false otherwise.
    func take(_ key: String, if allowed: (_ mine: Int, _ all: Int) -> Bool) -> Bool {
        lock.withLock {
            let mine = counts[key, default: 0]
            guard allowed(mine, all) else { return false }
            counts[key] = mine + 1
            all += 1
            return true
        }
    }

    /// How many are held now, by every key together.
    var total: Int { lock.withLock { all } }

    /// Gives back one that `take` counted for `key`.
    func give(_ key: String) {
        lock.withLock {
            all -= 1
            let left = counts[key, default: 1] - 1
            counts[key] = left > 0 ? left : nil
        }
    }
}
