import LockerKit
import Foundation

/// Where a page of a games list starts: after the game of this start and id (lists are in
/// start order, then id). Clients get it only inside the `Link` header of the page before, and
/// give it back as it is: `cursor=` in hexadecimal, the start's bits then the id.
public struct GamesCursor: Equatable, Sendable {
    public var start: Double
    public var id: Int64

    public init(start: Double, id: Int64) {
        self.start = start
        self.id = id
    }

    /// Reads a cursor this server wrote; nil for any other text.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count <= 64, parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 16 && $0.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) } }),
              let bits = UInt64(parts[0], radix: 16), let id = UInt64(parts[1], radix: 16), id > 0, id <= UInt64(Int64.max) else { return nil }
        let start = Double(bitPattern: bits)
        guard start.isFinite else { return nil }
        self.init(start: start, id: Int64(id))
    }

    public var text: String { String(start.bitPattern, radix: 16) + "-" + String(UInt64(id), radix: 16) }
}

/// A page of a games list: at most `limit` games after `cursor` (from the first without one).
public struct GamesPageRequest: Equatable, Sendable {
    /// Games a page holds when the client names no size, and at most.
    public static let defaultLimit = 100
    public static let maxLimit = 500

    public var limit: Int
    public var after: GamesCursor?

    public init(limit: Int = GamesPageRequest.defaultLimit, after: GamesCursor? = nil) {
        self.limit = limit
        self.after = after
    }
}

/// One page of games and where the next begins (nil on the last page).
public struct GamesPage: Sendable {
    public var games: [GameListing]
    public var next: GamesCursor?
}
