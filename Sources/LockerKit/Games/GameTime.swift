import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A date and time on a clock, with no zone: "2026-12-05T10:00" (seconds optional; a space may
/// stand for the T). What players type; the server reads it in the ground's time zone.
public struct WallTime: Equatable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        self.year = year; self.month = month; self.day = day; self.hour = hour; self.minute = minute; self.second = second
    }

    /// The wall time in `text`, or nil when it is not one: every field is range-checked, 31 April
    /// and 29 February of a common year included.
    public static func parse(_ text: String) -> WallTime? {
        let parts = text.trimmingSpaces.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, (2...3).contains(time.count), date[0].count == 4,
              (date + time).allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        let second = time.count == 3 ? Int(time[2]) ?? -1 : 0
        guard (1...12).contains(month), day >= 1, day <= Instant.daysIn(month: month, year: year),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return WallTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The wall time `seconds` after 1970-01-01 00:00 on a clock at UTC (or at any offset, when
    /// the offset is added first).
    public init(clockSeconds seconds: Double) {
        // A time read from a store edited by hand may be anything: beyond ±10^12 s (30,000
        // years) it is read as 1970 rather than trapping in the conversion.
        let whole = seconds.isFinite && abs(seconds) < 1e12 ? Int(seconds.rounded(.down)) : 0
        let days = whole >= 0 ? whole / 86_400 : -((-whole + 86_399) / 86_400)
        let rest = whole - days * 86_400
        // Days since 1970 to a civil date (proleptic Gregorian calendar, 400-year eras).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
    }

    /// Seconds after 1970-01-01 00:00 on the same clock (the instant, when the clock is UTC).
    public var clockSeconds: Double {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// "2026-12-05T10:00:00"
    public var text: String {
        let pad = { (value: Int, width: Int) in LocalTime.pad(Int32(value), width) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }
}

/// A game's time as players read it: at the ground, on the ground's clock.
public enum GameTimeText {
    /// "2026-12-05 10:00", with "(Melbourne time)" after it when the user's own clock shows a
    /// different time at that moment.
    public static func when(_ game: GameListing, _ l: Localizer, userOffset: (Double) -> Int = LocalTime.offset) -> String {
        let text = clockAtGround(game)
        guard differsFromUser(game, userOffset: userOffset) else { return text }
        return l.t("{time} ({zone} time)", ["time": text, "zone": zoneName(game.timeZone)])
    }

    /// The bracket after a game's time or ground, in one piece: "(Melbourne time, in 17 days)"
    /// when the user's own clock shows another time then, else "(in 17 days)".
    public static func note(_ game: GameListing, relative: String, _ l: Localizer, userOffset: (Double) -> Int = LocalTime.offset) -> String {
        guard differsFromUser(game, userOffset: userOffset) else { return "(" + relative + ")" }
        return l.t("({zone} time, {relative})", ["zone": zoneName(game.timeZone), "relative": relative])
    }

    /// "2026-12-05 10:00 (Melbourne time, in 17 days)": the time at the ground with one bracket
    /// for the zone (when the user's clock differs) and how far off it is.
    public static func when(_ game: GameListing, relative: String, _ l: Localizer, userOffset: (Double) -> Int = LocalTime.offset) -> String {
        clockAtGround(game) + " " + note(game, relative: relative, l, userOffset: userOffset)
    }

    /// "2026-12-05 10:00" on the ground's clock, with no zone (for rows under a title that names it).
    public static func clockAtGround(_ game: GameListing) -> String {
        groundClock(game)?.minutes ?? LocalTime.minutes(Date(timeIntervalSince1970: game.start))
    }

    /// Whether the user's own clock shows another time than the ground's at the game's start.
    public static func differsFromUser(_ game: GameListing, userOffset: (Double) -> Int = LocalTime.offset) -> Bool {
        guard let ground = groundClock(game) else { return false }
        return userOffset(game.start) != ground.offset
    }

    /// "10:00" at the ground (for lines that already name the day).
    public static func clock(_ game: GameListing) -> String {
        String(clockAtGround(game).suffix(5))
    }

    /// "2026-12-05 10:00 +11:00 (Australia/Melbourne)": the zone always stated, for details and
    /// confirmations (it also tells which 02:30 of a night when clocks go back).
    public static func full(_ game: GameListing) -> String {
        guard let ground = groundClock(game) else { return game.startsAt }
        return ground.minutes + " " + String(game.localStart.suffix(6)) + " (" + game.timeZone + ")"
    }

    /// The ground's offset from UTC at the game's start, in seconds (nil when unknown).
    public static func groundOffset(_ game: GameListing) -> Int? { groundClock(game)?.offset }

    /// "Australia/Melbourne" → "Melbourne"; "America/New_York" → "New York".
    public static func zoneName(_ identifier: String) -> String {
        String((identifier.split(separator: "/").last ?? Substring(identifier)).map { $0 == "_" ? " " : $0 })
    }

    /// The date and minutes of `localStart` ("2026-12-05T10:00:00+11:00") and its offset in seconds.
    static func groundClock(_ game: GameListing) -> (minutes: String, offset: Int)? {
        let text = Array(game.localStart.utf8)
        guard text.count == 25, let sign = text.last.map({ _ in text[19] }), sign == 0x2B || sign == 0x2D,
              let hours = Int(String(decoding: text[20..<22], as: UTF8.self)),
              let minutes = Int(String(decoding: text[23..<25], as: UTF8.self)) else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (sign == 0x2D ? -1 : 1)
        return (String(decoding: text[0..<10], as: UTF8.self) + " " + String(decoding: text[11..<16], as: UTF8.self), offset)
    }
}

extension LocalTime {
    /// The user's own offset from UTC, in seconds, at `seconds` since 1970.
    public static func offset(at seconds: Double) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        return Int(parts.tm_gmtoff)
    }
}
