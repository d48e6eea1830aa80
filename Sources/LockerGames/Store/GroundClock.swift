import Foundation
import LockerKit

/// Times at a ground: what players type is read on the ground's clock, and every start is
/// shown on it, whatever zone the server or the player's terminal is in.
enum GroundClock {
    /// Where games are played when a ground names no zone (the bundled grounds are in Casey).
    static let defaultZone = Ground.defaultZone

    private static let lock = NSLock()
    nonisolated(unsafe) private static var zones: [String: TimeZone] = [:]

    /// The zone of an IANA identifier, or nil when there is none by that name.
    static func zone(_ identifier: String) -> TimeZone? {
        if let known = lock.withLock({ zones[identifier] }) { return known }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        lock.withLock { zones[identifier] = zone }
        return zone
    }

    /// Seconds since 1970 of `wall` on the clock of `zone`. A time the clocks skip is refused; a
    /// time they show twice (the night they go back) is the first of the two, and the offset in
    /// the answer's `localStart` says so.
    static func instant(of wall: WallTime, in zone: TimeZone) throws -> Double {
        let clock = wall.clockSeconds
        // The offsets in force a day either side cover any change of that night.
        let offsets = Set([-86_400.0, 0, 86_400].map { Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: clock + $0))) })
        let matches = offsets.map { clock - $0 }.filter { Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0))) == clock - $0 }
        guard let first = matches.min() else { throw GamesError.timeInGap }
        return first
    }

    /// "2026-12-06T10:00:00+11:00": the instant on the ground's clock, with the offset then.
    static func localStart(_ seconds: Double, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        return WallTime(clockSeconds: seconds + Double(offset)).text + sign
            + LocalTime.pad(Int32(hours), 2) + ":" + LocalTime.pad(Int32(minutes), 2)
    }
}
