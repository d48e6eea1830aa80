import FoundationEssentials

/// A single-line text field: cursor editing over grapheme clusters, optional masking.
///
/// Keys: characters insert at the cursor; ← → move; Home/End (and Ctrl-A/Ctrl-E) jump;
/// Backspace and Delete (Ctrl-D) erase; Ctrl-U erases to the start, Ctrl-K to the end,
/// Ctrl-W the word before the cursor.
public struct TextFieldState: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Cursor position as an index into `characters` (0 … count).
    public private(set) var cursor: Int
    /// Show bullets instead of the text (passwords).
    public var masked: Bool
    /// Maximum number of characters accepted (nil = unlimited).
    public var maxLength: Int?
    /// Which characters may be typed (nil = any printable one).
    public var allowed: (@Sendable (Character) -> Bool)?
    /// A rule for the whole text (a number in range, one decimal separator): a character that
    /// would break it is refused as it is typed.
    public var accepts: (@Sendable (String) -> Bool)?
    /// Whether the last character typed was refused (by `allowed`, `accepts` or the length), so
    /// a form can say why instead of staying silent; the next accepted key clears it.
    public private(set) var refusedTyping = false

    public init(_ text: String = "", masked: Bool = false, maxLength: Int? = nil,
                allowed: (@Sendable (Character) -> Bool)? = nil, accepts: (@Sendable (String) -> Bool)? = nil) {
        characters = Array(text)
        cursor = characters.count
        self.masked = masked
        self.maxLength = maxLength
        self.allowed = allowed
        self.accepts = accepts
    }

    public static func == (a: TextFieldState, b: TextFieldState) -> Bool {
        a.characters == b.characters && a.cursor == b.cursor && a.masked == b.masked && a.maxLength == b.maxLength
            && a.refusedTyping == b.refusedTyping
    }

    public var text: String {
        get { String(characters) }
        set { characters = Array(newValue); cursor = characters.count }
    }

    /// Applies an editing key. Returns whether the key was used (unused keys go elsewhere).
    /// The keys that edit the line, besides the characters typed (as `handle` takes them).
    public static let editingKeys: [Key] = [.left, .right, .home, .end, .backspace, .delete, .control("a"), .control("e"),
                                            .control("h"), .control("d"), .control("u"), .control("k"), .control("w")]

    public mutating func handle(_ key: Key) -> Bool {
        if case .character = key {} else { refusedTyping = false }
        switch key {
        case .character(let c):
            insert(c)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace, .control("h"):
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("k"):
            characters.removeSubrange(cursor..<characters.count)
        case .control("w"):
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// Inserts a character at the cursor if it is allowed and there is room.
    public mutating func insert(_ character: Character) {
        guard !DisplayWidth.isControl(character) else { return }
        refusedTyping = true
        if let allowed, !allowed(character) { return }
        if let maxLength, characters.count >= maxLength { return }
        if let accepts {
            var candidate = characters
            candidate.insert(character, at: cursor)
            guard accepts(String(candidate)) else { return }
        }
        refusedTyping = false
        // A combining mark typed on its own joins the character before it.
        if cursor > 0, character.unicodeScalars.allSatisfy({ DisplayWidth.isZeroWidth($0.value) }) {
            let merged = String(characters[cursor - 1]) + String(character)
            if merged.count == 1 { characters[cursor - 1] = Character(merged); return }
        }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    /// The text as displayed (bullets when masked).
    public var displayText: [Character] {
        masked ? Array(repeating: "•", count: characters.count) : characters
    }
}

/// Draws a `TextFieldState` on one row, scrolling horizontally to keep the cursor in view.
public struct TextField {
    public var placeholder: String
    public init(placeholder: String = "") { self.placeholder = placeholder }

    /// Renders the field; when focused, shows the hardware cursor at the insertion point.
    public func render(_ state: TextFieldState, into surface: Surface, rect: Rect, focused: Bool) {
        let row = rect.row(0)
        let fieldStyle = Style(.text, focused ? [.underline] : [])
        surface.fill(row, style: fieldStyle)
        var shown = state.displayText
        if state.masked && surface.glyphs.ascii { shown = Array(repeating: "*", count: shown.count) }
        if shown.isEmpty && !placeholder.isEmpty && !focused {
            surface.write(placeholder, x: row.x, y: row.y, style: Style(.muted), clip: row)
        }
        // Find the first visible character so that the cursor column fits.
        let widths = shown.map(DisplayWidth.of)
        var start = 0
        var cursorColumn = widths[0..<state.cursor].reduce(0, +)
        while cursorColumn >= row.width && start < state.cursor {
            cursorColumn -= widths[start]
            start += 1
        }
        surface.write(String(shown[start...]), x: row.x, y: row.y, style: fieldStyle, clip: row)
        if focused {
            surface.cursor = CursorRequest(Point(x: row.x + min(cursorColumn, row.width - 1), y: row.y), visible: true)
        }
    }
}

/// A text field for numbers: digits, one decimal separator (`.` or `,`), optional minus sign,
/// checked against a range.
public struct NumberFieldState: Equatable, Sendable {
    public var field: TextFieldState
    public var range: ClosedRange<Double>
    public var allowsDecimals: Bool

    public init(value: Double? = nil, range: ClosedRange<Double>, allowsDecimals: Bool = true) {
        self.range = range
        self.allowsDecimals = allowsDecimals
        let negativeAllowed = range.lowerBound < 0
        let decimals = allowsDecimals
        field = TextFieldState("", maxLength: 12, allowed: { c in
            c.isASCII && (c.isNumber || (decimals && (c == "." || c == ",")) || (negativeAllowed && c == "-"))
        })
        if let value { field.text = NumberFieldState.format(value, decimals: allowsDecimals) }
    }

    public static func format(_ value: Double, decimals: Bool) -> String {
        let hundredths = Int((value * 100).rounded())
        if !decimals || hundredths % 100 == 0 { return String(Int(value.rounded())) }
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        var text = "\(sign)\(whole)." + zeroPadded(fraction, 2)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    public mutating func handle(_ key: Key) -> Bool { field.handle(key) }

    /// The parsed value, nil when empty or not a number.
    public var value: Double? {
        let text = field.text.replacing(",", with: ".")
        guard !text.isEmpty, text.filter({ $0 == "." }).count <= 1 else { return nil }
        return Double(text)
    }

    /// Why the content is not acceptable, or nil when it is.
    public var problem: NumberProblem? {
        if field.text.isEmpty { return .empty }
        guard let value else { return .notANumber }
        if !range.contains(value) { return .outOfRange(range) }
        return nil
    }
}

/// What is wrong with a number field's content (screens translate it).
public enum NumberProblem: Equatable, Sendable {
    case empty, notANumber, outOfRange(ClosedRange<Double>)
}
