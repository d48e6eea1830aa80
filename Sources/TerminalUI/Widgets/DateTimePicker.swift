import FoundationEssentials

/// Picks a local date and time field by field: ← → (or Tab) choose the field, ↑ ↓ change it,
/// PgUp/PgDn change it by a larger step, digits type it. Days are clamped to the month.
public struct DateTimePickerState: Equatable, Sendable {
    public enum Field: Int, CaseIterable, Sendable { case year, month, day, hour, minute }

    public private(set) var year: Int
    public private(set) var month: Int
    public private(set) var day: Int
    public private(set) var hour: Int
    public private(set) var minute: Int
    public var focused: Field = .day
    /// Minutes move by this step with ↑ ↓ (e.g. 5 or 15).
    public var minuteStep: Int
    public let timeZone: TimeZone
    private var typed = ""
    /// True after a typed value the focused field cannot take (it kept its value).
    public private(set) var refusedTyping = false

    public init(date: Date, timeZone: TimeZone = .current, minuteStep: Int = 5) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        year = c.year ?? 2000
        month = c.month ?? 1
        day = c.day ?? 1
        hour = c.hour ?? 0
        minute = c.minute ?? 0
        self.timeZone = timeZone
        self.minuteStep = max(1, minuteStep)
    }

    /// The picked moment in the picker's time zone.
    public var date: Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
    }

    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .left, .backTab: move(-1)
        case .right, .tab: move(1)
        case .up: change(by: 1)
        case .down: change(by: -1)
        case .pageUp: change(by: bigStep)
        case .pageDown: change(by: -bigStep)
        case .character(let c) where c.isASCII && c.isNumber:
            type(c)
        default:
            return false
        }
        return true
    }

    private var bigStep: Int {
        switch focused {
        case .year: return 10
        case .month: return 3
        case .day: return 7
        case .hour: return 6
        case .minute: return 30 / minuteStep
        }
    }

    private mutating func move(_ delta: Int) {
        typed = ""
        refusedTyping = false
        let all = Field.allCases
        focused = all[(focused.rawValue + delta + all.count) % all.count]
    }

    /// Moves the focused field by `steps`, carrying into the others as a calendar does: the
    /// 31st + 1 day is the 1st of the next month, 23:55 + 5 minutes is 00:00 the next day.
    /// Years stay within 1970–9999.
    private mutating func change(by steps: Int) {
        typed = ""
        refusedTyping = false
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let delta: (Calendar.Component, Int)
        switch focused {
        case .year: delta = (.year, steps)
        case .month: delta = (.month, steps)
        case .day: delta = (.day, steps)
        case .hour: delta = (.hour, steps)
        case .minute:
            // On the step's grid: 18:32 ↑ is 18:35, not 18:37.
            let target = (minute / minuteStep + steps) * minuteStep - (steps < 0 && minute % minuteStep != 0 ? -minuteStep : 0)
            delta = (.minute, target - minute)
        }
        guard let current = date, let moved = calendar.date(byAdding: delta.0, value: delta.1, to: current) else { return }
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moved)
        guard let newYear = c.year, (1970...9999).contains(newYear) else { return }
        year = newYear
        month = c.month ?? month
        day = c.day ?? day
        hour = c.hour ?? hour
        minute = c.minute ?? minute
    }

    /// A digit typed into the focused field. Once the field has all its digits the focus moves
    /// to the next field, never past the minutes; a value the field cannot take (a year before
    /// 1970, a 13th month) is refused and the field keeps its value (`refusedTyping`).
    private mutating func type(_ digit: Character) {
        refusedTyping = false
        typed.append(digit)
        let value = Int(typed) ?? 0
        let maxDigits = focused == .year ? 4 : 2
        guard typed.count >= maxDigits || focused != .year else { return }
        var accepted = true
        switch focused {
        case .year: if (1970...9999).contains(value) { year = value } else { accepted = false }
        case .month: if (1...12).contains(value) { month = value } else { accepted = typed.count < maxDigits }
        case .day: if (1...daysInMonth).contains(value) { day = value } else { accepted = typed.count < maxDigits }
        case .hour: if (0...23).contains(value) { hour = value } else { accepted = false }
        case .minute: if (0...59).contains(value) { minute = value } else { accepted = false }
        }
        day = min(day, daysInMonth)
        if !accepted {
            refusedTyping = true
            typed = ""
            return
        }
        if typed.count >= maxDigits {
            typed = ""
            if focused != .minute { focused = Field(rawValue: focused.rawValue + 1) ?? focused }
        }
    }

    private func wrap(_ value: Int, _ low: Int, _ high: Int) -> Int {
        let span = high - low + 1
        return ((value - low) % span + span) % span + low
    }

    public var daysInMonth: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)) ?? Date()
        return calendar.range(of: .day, in: .month, for: first)?.count ?? 31
    }

    /// The picked local date and time as "2026-12-05T10:00".
    public var localText: String {
        "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))T\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2))"
    }

    /// Text of each field, zero-padded, in display order.
    public var fieldTexts: [(Field, String)] {
        [(.year, zeroPadded(year, 4)), (.month, zeroPadded(month, 2)), (.day, zeroPadded(day, 2)),
         (.hour, zeroPadded(hour, 2)), (.minute, zeroPadded(minute, 2))]
    }
}

func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Draws a picker as "2026-11-21  18:30" with the focused field lit.
public struct DateTimePicker {
    public init() {}

    public func render(_ state: DateTimePickerState, into surface: Surface, at point: Point, focused: Bool) {
        let separators: [DateTimePickerState.Field: String] = [.year: "-", .month: "-", .day: "  ", .hour: ":", .minute: ""]
        var x = point.x
        for (field, text) in state.fieldTexts {
            let lit = focused && field == state.focused
            if lit { surface.parkCursor(x: x, y: point.y) }
            x = surface.write(text, x: x, y: point.y, style: lit ? Style(.selection, [.bold]) : Style(.text, [.underline]))
            x = surface.write(separators[field] ?? "", x: x, y: point.y)
        }
    }
}
