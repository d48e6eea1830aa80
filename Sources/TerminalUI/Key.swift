/// One decoded key press. Every input path — ncurses, tests, scripted drivers — produces this type.
public enum Key: Hashable, Sendable {
    /// Any printable Unicode character, including space.
    case character(Character)
    case up, down, left, right
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case insert, delete, backspace
    case tab, backTab, enter, escape
    /// F1 … F12 (and beyond, if the terminal sends them).
    case function(Int)
    /// Ctrl with a letter, lowercased: `.control("c")` is Ctrl-C.
    case control(Character)
    /// The terminal changed size; read the new size from the terminal.
    case resize
    /// A key code this decoder does not know; ignored by widgets.
    case unknown(Int)

    /// The character for a `.character` key, else nil.
    public var character: Character? {
        if case .character(let c) = self { return c }
        return nil
    }

    /// The key as the footer, the help and KEYS.md write it ("↑", "PgUp", "Shift-Tab", "Ctrl-R",
    /// "Space", "q"); the same in every language, as on the keyboard.
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .shiftUp: return "Shift-↑"
        case .shiftDown: return "Shift-↓"
        case .shiftLeft: return "Shift-←"
        case .shiftRight: return "Shift-→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .insert: return "Insert"
        case .delete: return "Delete"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .function(let n): return "F\(n)"
        case .control(let c): return "Ctrl-" + c.uppercased()
        case .resize, .unknown: return ""
        }
    }

    /// A short English name for logs and tests (never shown to users untranslated).
    public var debugName: String {
        switch self {
        case .character(let c): return String(c)
        case .control(let c): return "C-\(c)"
        case .function(let n): return "F\(n)"
        case .unknown(let n): return "key#\(n)"
        default: return String(describing: self)
        }
    }
}

/// Turns what ncurses' `wget_wch` returns into a `Key`.
///
/// ncurses reports either a character (status `OK`) or a key code (status `KEY_CODE_YES`).
/// The numeric key codes are the standard curses ones (`KEY_UP` = 0o403 …), so the decoder is a
/// pure function that tests can drive without a terminal.
public enum KeyDecoder {
    /// Decodes a character delivered with status `OK`.
    public static func decode(character value: UInt32) -> Key {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0: return .control("@")
        case 1...26:
            let letter = Character(Unicode.Scalar(UInt8(96 + value)))
            return .control(letter)
        case 28...31: return .unknown(Int(value))
        case 0x80...0x9F: return .unknown(Int(value))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .unknown(Int(value)) }
            return .character(Character(scalar))
        }
    }

    /// Standard curses key codes (see `curs_getch(3X)`); extended codes are resolved at start-up.
    public enum Code {
        public static let down = 0o402, up = 0o403, left = 0o404, right = 0o405
        public static let home = 0o406, backspace = 0o407, f0 = 0o410
        public static let deleteChar = 0o512, insertChar = 0o513
        public static let scrollForward = 0o520, scrollReverse = 0o521
        public static let pageDown = 0o522, pageUp = 0o523
        public static let enter = 0o527, backTab = 0o541, end = 0o550
        public static let shiftEnd = 0o606, shiftHome = 0o617
        public static let shiftLeft = 0o611, shiftRight = 0o622
        public static let resize = 0o632
    }

    /// Extra key codes that a terminal defines beyond the standard ones (for example xterm's
    /// `kUP` for Shift-Up); filled from terminfo once the terminal is open.
    public struct Extended: Sendable {
        public var shiftUp: Int = 0
        public var shiftDown: Int = 0
        public init(shiftUp: Int = 0, shiftDown: Int = 0) {
            self.shiftUp = shiftUp
            self.shiftDown = shiftDown
        }
    }

    /// Decodes a key code delivered with status `KEY_CODE_YES`.
    public static func decode(keyCode code: Int, extended: Extended = Extended()) -> Key {
        switch code {
        case Code.up: return .up
        case Code.down: return .down
        case Code.left: return .left
        case Code.right: return .right
        case Code.home: return .home
        case Code.end: return .end
        case Code.backspace: return .backspace
        case Code.deleteChar: return .delete
        case Code.insertChar: return .insert
        case Code.pageDown: return .pageDown
        case Code.pageUp: return .pageUp
        case Code.enter: return .enter
        case Code.backTab: return .backTab
        case Code.scrollForward: return .shiftDown
        case Code.scrollReverse: return .shiftUp
        case Code.shiftLeft: return .shiftLeft
        case Code.shiftRight: return .shiftRight
        case Code.shiftHome: return .home
        case Code.shiftEnd: return .end
        case Code.resize: return .resize
        case (Code.f0 + 1)...(Code.f0 + 63): return .function(code - Code.f0)
        default:
            if code != 0 && code == extended.shiftUp { return .shiftUp }
            if code != 0 && code == extended.shiftDown { return .shiftDown }
            return .unknown(code)
        }
    }
}
