/// Text attributes that work on every terminal, with or without colour.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let reverse = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let italic = TextAttributes(rawValue: 1 << 4)
}

/// What a piece of text *means*; the theme decides how that looks (colour, or attributes in mono).
public enum Role: Hashable, Sendable {
    case text
    case muted
    case accent
    case title
    case key          // a key name in a hint, e.g. "q"
    case good
    case warn
    case bad
    case info
    case selection
    case tabActive
    case tabInactive
    case bar          // the footer and status line background
    case match        // a search hit
    case border
    /// A lit choice among several (the sanction that applies, a chosen answer).
    case active
    /// Heat bands 0…4 (coolest to hottest), e.g. heart-rate colouring.
    case heat(Int)
}

/// A role plus extra attributes: the unit of styling stored in every cell.
public struct Style: Hashable, Sendable {
    public var role: Role
    public var attributes: TextAttributes

    public init(_ role: Role = .text, _ attributes: TextAttributes = []) {
        self.role = role
        self.attributes = attributes
    }

    public static let plain = Style()

    public func with(_ extra: TextAttributes) -> Style {
        Style(role, attributes.union(extra))
    }

    /// The style in 16 bits (role in the low byte, attributes in the high one), as grid cells
    /// store it. Heat bands beyond 0…239 are clamped.
    var packed: UInt16 {
        let roleCode: UInt16
        switch role {
        case .text: roleCode = 0
        case .muted: roleCode = 1
        case .accent: roleCode = 2
        case .title: roleCode = 3
        case .key: roleCode = 4
        case .good: roleCode = 5
        case .warn: roleCode = 6
        case .bad: roleCode = 7
        case .info: roleCode = 8
        case .selection: roleCode = 9
        case .tabActive: roleCode = 10
        case .tabInactive: roleCode = 11
        case .bar: roleCode = 12
        case .match: roleCode = 13
        case .border: roleCode = 14
        case .active: roleCode = 15
        case .heat(let band): roleCode = 16 + UInt16(min(max(band, 0), 239))
        }
        return roleCode | UInt16(attributes.rawValue) << 8
    }

    init(packed: UInt16) {
        let roleCode = Int(packed & 0xFF)
        self.init(roleCode < 16 ? Style.rolesByCode[roleCode] : .heat(roleCode - 16), TextAttributes(rawValue: UInt8(packed >> 8)))
    }

    private static let rolesByCode: [Role] = [.text, .muted, .accent, .title, .key, .good, .warn, .bad, .info, .selection,
                                              .tabActive, .tabInactive, .bar, .match, .border, .active]
}

/// A piece of text with one style; lines made of spans are how widgets receive rich text.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: Style
    public init(_ text: String, _ style: Style = .plain) { self.text = text; self.style = style }

    /// `spans` cut to at most `width` columns, the last one kept ending with `ellipsis` (in
    /// its own style) when something was cut.
    public static func truncated(_ spans: [Span], toWidth width: Int, ellipsis: String = "…") -> [Span] {
        guard spans.reduce(0, { $0 + $1.text.displayWidth }) > width else { return spans }
        var result: [Span] = []
        var room = width
        for span in spans {
            let w = span.text.displayWidth
            if w < room || (w == room && span == spans.last) {
                result.append(span)
                room -= w
                continue
            }
            result.append(Span(span.text.truncated(toWidth: room, ellipsis: ellipsis), span.style))
            break
        }
        return result
    }
}
