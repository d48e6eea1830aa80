/// Board heights of the DD tables: springboard 1 m and 3 m, platform 5, 7.5 and 10 m.
public enum DiveHeight: String, CaseIterable, Codable, Sendable {
    case m1 = "1", m3 = "3", m5 = "5", m7_5 = "7.5", m10 = "10"

    public var isPlatform: Bool { self == .m5 || self == .m7_5 || self == .m10 }
}

/// The flight position letter of a dive code.
public enum DivePosition: Character, CaseIterable, Sendable {
    case straight = "A", pike = "B", tuck = "C", free = "D"
}

/// Why a code is not a dive, or not a dive allowed at a height. Screens and the command line
/// translate these.
public enum DiveCodeError: Error, Equatable, Sendable {
    /// Not 3 or 4 digits followed by A, B, C or D.
    case malformed
    /// The first digit is not a group 1…6.
    case unknownGroup
    /// A digit that the group's numbering does not allow (e.g. a flying digit other than 0/1).
    case badDigit
    /// The position is not allowed for this somersault/twist combination (art. 1.6.4).
    case positionNotAllowed
    /// The rules give no value for this many somersaults at this height.
    case tooManySomersaults
    /// The rules give no value for this position and somersault count (group, direction).
    case positionNotTabled
    /// The rules give no value for this many twists with this many somersaults.
    case twistsNotTabled
    /// Armstand dives (group 6) are performed from the platform only.
    case armstandOnSpringboard
}

/// A parsed dive number (art. 1.5): group, direction, flying, half somersaults, half twists and
/// position.
public struct DiveCode: Equatable, Sendable {
    /// 1 forward, 2 back, 3 reverse, 4 inward, 5 twisting, 6 armstand.
    public let group: Int
    /// Take-off direction 0 forward, 1 back, 2 reverse, 3 inward; nil for the armstand dive 600.
    public let direction: Int?
    public let flying: Bool
    public let halfSomersaults: Int
    public let halfTwists: Int
    public let position: DivePosition
    public let text: String

    public var isArmstand: Bool { group == 6 }

    public init(parsing raw: String) throws {
        let text = String(raw.uppercased().filter { !$0.isWhitespace })
        guard let letter = text.last, let position = DivePosition(rawValue: letter) else { throw DiveCodeError.malformed }
        let digits = text.dropLast().compactMap { $0.wholeNumberValue }
        guard digits.count == text.count - 1, (3...4).contains(digits.count) else { throw DiveCodeError.malformed }
        self.text = text
        self.position = position
        group = digits[0]
        switch group {
        case 1...4:
            guard digits[1] <= 1 else { throw DiveCodeError.badDigit }
            direction = group - 1
            flying = digits[1] == 1
            halfSomersaults = digits.count == 4 ? digits[2] * 10 + digits[3] : digits[2]
            halfTwists = 0
            guard halfSomersaults >= 1, halfSomersaults <= 11 else { throw DiveCodeError.badDigit }
        case 5:
            guard digits.count == 4, (1...4).contains(digits[1]), digits[2] >= 1, digits[3] >= 1 else { throw DiveCodeError.badDigit }
            direction = digits[1] - 1
            flying = false
            halfSomersaults = digits[2]
            halfTwists = digits[3]
        case 6:
            guard digits[1] <= 3 else { throw DiveCodeError.badDigit }
            direction = digits[1] == 0 ? nil : digits[1] - 1
            flying = false
            halfSomersaults = digits[2]
            halfTwists = digits.count == 4 ? digits[3] : 0
            if direction == nil && (halfSomersaults != 0 || halfTwists != 0) { throw DiveCodeError.badDigit }
            if direction != nil && halfSomersaults == 0 { throw DiveCodeError.badDigit }
            if digits.count == 4 && halfTwists == 0 { throw DiveCodeError.badDigit }
        default:
            throw DiveCodeError.unknownGroup
        }
        try checkPosition()
    }

    /// Twisting positions (art. 1.6.4): ½ som. A/B/C; 1–1½ som. D only; 2 or more B/C.
    /// Armstand with one or more twists: 1–2 som. D only; 2½ or more B/C.
    private func checkPosition() throws {
        guard halfTwists > 0 else {
            if position == .free { throw DiveCodeError.positionNotAllowed }
            return
        }
        let allowed: Set<DivePosition>
        if isArmstand {
            // "1, 1½ or 2 somersaults and one or more twists": with a half twist any position goes.
            if halfTwists == 1 && halfSomersaults <= 4 { allowed = Set(DivePosition.allCases) }
            else { allowed = halfSomersaults <= 4 ? [.free] : [.pike, .tuck] }
        } else if halfSomersaults == 1 {
            allowed = [.straight, .pike, .tuck]
        } else if halfSomersaults <= 3 {
            allowed = [.free]
        } else {
            allowed = [.pike, .tuck]
        }
        guard allowed.contains(position) else { throw DiveCodeError.positionNotAllowed }
    }
}

/// The five components of a degree of difficulty (App. 8 and 10), in tenths, and their sum:
/// A somersaults, B flight position, C twists, D approach, E unnatural entry.
public struct DDComponents: Equatable, Sendable {
    public let a: Int, b: Int, c: Int, d: Int, e: Int
    /// The DD in tenths (DD 2.4 is 24).
    public var tenths: Int { a + b + c + d + e }
    public var value: Double { Double(tenths) / 10 }
}

/// Computes a dive's degree of difficulty from the component tables of the 2024 rules — never
/// from a stored per-dive table (Data/diving/dd-tables.csv is only the test oracle).
///
/// Two interpretation rules make the formula agree with every tabled value: the armstand dive
/// 600 takes the armstand-forward approach, and 4 somersaults at 5 m take A = 3.5.
public enum DegreeOfDifficulty {
    public static func compute(_ code: DiveCode, height: DiveHeight) throws -> DDComponents {
        let hs = code.halfSomersaults
        guard !code.isArmstand || height.isPlatform else { throw DiveCodeError.armstandOnSpringboard }
        guard let a = Tables.somersaults[height]?[safe: hs] ?? nil else { throw DiveCodeError.tooManySomersaults }
        guard let b = flightPosition(code, height: height) else { throw DiveCodeError.positionNotTabled }
        var c = 0
        if code.halfTwists > 0 {
            guard let column = twistColumn(halfTwists: code.halfTwists, halfSomersaults: hs),
                  let value = twist(code, column: column, platform: height.isPlatform) else { throw DiveCodeError.twistsNotTabled }
            c = value
        }
        let d = code.isArmstand ? (code.halfTwists > 0 ? 0 : armstandApproach(code)) : approach(code, height: height)
        let e = code.halfTwists > 0 ? 0 : unnaturalEntry(code, platform: height.isPlatform)
        return DDComponents(a: a, b: b, c: c, d: d, e: e)
    }

    // MARK: B — flight position

    private static func band(_ hs: Int) -> Int {
        switch hs {
        case ...2: return 0
        case 3...4: return 1
        case 5: return 2
        case 6...7: return 3
        case 8...9: return 4
        default: return 5
        }
    }

    private static func flightPosition(_ code: DiveCode, height: DiveHeight) -> Int? {
        let b = band(code.halfSomersaults)
        if code.isArmstand { return Tables.armstandPosition[code.position]?[safe: b] ?? nil }
        guard let direction = code.direction else { return nil }
        if b == 5 { return code.position == .tuck ? 0 : nil }   // platform 5½ forward, tuck only
        var value = Tables.position[code.position]?[safe: b]?[direction] ?? nil
        if height.isPlatform && b == 4 {
            if code.position == .tuck { value = [0, 1, 3, 4][direction] }
            if code.position == .pike { value = [4, 4, 6, 7][direction] }
        }
        if code.flying, let base = value {
            guard let fly = Tables.flying[b][direction] else { return nil }
            value = base + fly
        }
        return value
    }

    // MARK: C — twists

    /// Columns: 0 ½T with ½–1 som., 1 ½T 1½–2, 2 ½T 2½, 3 ½T 3–3½, 4 1T, 5 1½T ½–2, 6 1½T 2½–3½,
    /// 7 2T, 8 2½T ½–2, 9 2½T 2½–3½, 10 3T, 11 3½T ½–2, 12 3½T 2½–3½, 13 4T, 14 4½T ½–2, 15 4½T 2½–3½.
    private static func twistColumn(halfTwists: Int, halfSomersaults hs: Int) -> Int? {
        switch halfTwists {
        case 1:
            switch hs {
            case 1...2: return 0
            case 3...4: return 1
            case 5: return 2
            case 6...7: return 3
            default: return nil
            }
        case 2: return 4
        case 3: return hs <= 4 ? 5 : 6
        case 4: return 7
        case 5: return hs <= 4 ? 8 : 9
        case 6: return 10
        case 7: return hs <= 4 ? 11 : 12
        case 8: return 13
        case 9: return hs <= 4 ? 14 : 15
        default: return nil
        }
    }

    private static func twist(_ code: DiveCode, column: Int, platform: Bool) -> Int? {
        if code.isArmstand {
            return (code.direction == 0 ? Tables.armstandTwistForward : Tables.armstandTwistBack)[column]
        }
        guard let direction = code.direction else { return nil }
        return (platform ? Tables.platformTwists : Tables.springboardTwists)[direction][column]
    }

    // MARK: D — approach, E — unnatural entry

    private static func approach(_ code: DiveCode, height: DiveHeight) -> Int {
        let hs = code.halfSomersaults
        let row = Tables.approach[height]!
        switch code.direction ?? 0 {
        case 0: return hs <= 7 ? row.forward.0 : row.forward.1
        case 1: return hs <= 6 ? row.back.0 : row.back.1
        case 2:
            if hs >= 7 { return row.reverse.2 }
            if !height.isPlatform { return row.reverse.0 }
            return hs <= 4 ? row.reverse.0 : row.reverse.1
        default: return hs <= 2 ? row.inward.0 : row.inward.1
        }
    }

    private static func armstandApproach(_ code: DiveCode) -> Int {
        let hs = code.halfSomersaults
        switch code.direction {
        case nil, 0?: return hs <= 4 ? 2 : 4
        case 1?: return hs <= 1 ? 2 : 4
        default: return hs <= 1 ? 3 : 5
        }
    }

    private static func unnaturalEntry(_ code: DiveCode, platform: Bool) -> Int {
        let hs = code.halfSomersaults
        if code.isArmstand {
            let forward = code.direction == nil || code.direction == 0
            return (forward ? [1: 1, 3: 2, 5: 3, 7: 4, 9: 4] : [2: 1, 4: 2, 6: 2, 8: 3])[hs] ?? 0
        }
        switch code.direction ?? 0 {
        case 0, 3:
            if platform && hs == 8 { return 0 }
            return [2: 1, 4: 2, 6: 2, 8: 2][hs] ?? 0
        default:
            return [1: 1, 3: 2, 5: 3, 7: 4, 9: 4][hs] ?? 0
        }
    }
}

/// The component tables of App. 8 (springboard) and App. 10 (platform), in tenths.
private enum Tables {
    /// A by half somersaults 0…11.
    static let somersaults: [DiveHeight: [Int?]] = [
        .m1: [9, 11, 12, 16, 20, 24, 27, 30, 33, 38, nil, nil],
        .m3: [10, 13, 13, 15, 18, 22, 23, 28, 29, 35, nil, nil],
        .m5: [9, 11, 12, 16, 20, 24, 27, 30, 35, nil, nil, nil],
        .m7_5: [10, 13, 13, 15, 18, 22, 23, 28, 35, 35, nil, nil],
        .m10: [10, 13, 14, 15, 19, 21, 25, 27, 35, 35, nil, 45],
    ]

    /// B by position, somersault band (0–1, 1½–2, 2½, 3–3½, 4–4½) and direction (F Bk R I).
    static let position: [DivePosition: [[Int?]]] = [
        .tuck: [[1, 1, 1, -3], [0, 0, 0, 1], [0, 1, 0, 2], [0, 0, 0, 3], [0, 1, 2, 4]],
        .pike: [[2, 2, 2, -2], [1, 3, 3, 3], [2, 3, 2, 5], [3, 3, 3, 6], [4, 4, 5, 8]],
        .straight: [[3, 3, 3, 1], [4, 5, 6, 8], [6, 7, 6, nil], [nil, nil, nil, nil], [nil, nil, nil, nil]],
        .free: [[1, 1, 1, -1], [0, -1, -1, 2], [0, -1, -2, 4], [0, 0, 0, nil], [nil, nil, nil, nil]],
    ]

    /// Added to B for flying dives.
    static let flying: [[Int?]] = [[2, 1, 1, 4], [2, 2, 2, 5], [3, 3, 3, 7], [4, nil, nil, nil], [nil, nil, nil, nil]]

    static let armstandPosition: [DivePosition: [Int?]] = [
        .tuck: [1, 0, 1, 2, 3], .pike: [3, 3, 0, 4, 5], .straight: [4, 5, nil, nil, nil], .free: [0, 0, 0, nil, nil],
    ]

    static let springboardTwists: [[Int?]] = [
        [4, 4, 4, 4, 6, 8, 8, 10, 12, 12, 15, 16, 16, 19, 20, 20],
        [2, 4, 0, 0, 4, 8, 7, 8, 12, 11, 14, 17, 17, 18, 21, 21],
        [2, 4, 0, 0, 4, 8, 6, 8, 12, 10, 14, 18, 18, 18, 21, 21],
        [2, 4, 2, 4, 4, 8, 8, 8, 12, 12, 15, 16, 16, 19, 20, 20],
    ]

    static let platformTwists: [[Int?]] = [
        [4, 4, 4, 4, 6, 8, 8, 10, 12, 12, 15, 16, 16, 19, 20, 20],
        [2, 4, 0, 0, 4, 8, 6, 8, 12, 10, 14, 17, 15, 18, 21, 19],
        [2, 4, 0, 0, 4, 8, 6, 8, 12, 10, 14, 17, 15, 18, 21, 19],
        [2, 4, 2, 4, 4, 8, 8, 8, 12, 12, 15, 16, 16, 19, 20, 20],
    ]

    static let armstandTwistForward: [Int?] = [4, 5, 5, 4, 12, 13, 13, 15, 17, 17, 19, 21, 21, 23, 25, 25]
    static let armstandTwistBack: [Int?] = [4, 5, 5, 5, 12, 13, 13, 13, 17, 17, 19, 21, 21, 23, 25, 25]

    /// D: forward (½–3½, 4+), back (½–3, 3½+), reverse (½–3 or platform ½–2, platform 2½–3,
    /// 3½+), inward (½–1, 1½+).
    struct Approach { let forward: (Int, Int); let back: (Int, Int); let reverse: (Int, Int, Int); let inward: (Int, Int) }
    static let approach: [DiveHeight: Approach] = [
        .m1: Approach(forward: (0, 5), back: (2, 6), reverse: (3, 3, 5), inward: (6, 5)),
        .m3: Approach(forward: (0, 3), back: (2, 4), reverse: (3, 3, 3), inward: (3, 3)),
        .m5: Approach(forward: (0, 5), back: (2, 5), reverse: (3, 4, 6), inward: (6, 5)),
        .m7_5: Approach(forward: (0, 3), back: (2, 3), reverse: (3, 4, 4), inward: (3, 3)),
        .m10: Approach(forward: (0, 2), back: (2, 2), reverse: (3, 4, 3), inward: (3, 2)),
    ]
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
