/// Text that other people typed (names, notes, reasons) made harmless for a terminal: control
/// characters, escape sequences and bidirectional overrides become visible replacement marks,
/// so shared text can never move the cursor, change colours or hide what follows.
public enum TerminalText {
    public static func inert(_ text: String) -> String { inert(text, keepingLines: false) }

    /// The same, keeping line feeds and tabs: a message of several lines, written to a terminal
    /// as it is, that quotes a file name or a search someone typed.
    public static func inertKeepingLines(_ text: String) -> String { inert(text, keepingLines: true) }

    private static func inert(_ text: String, keepingLines: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09 where keepingLines:
                result.unicodeScalars.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
                result.unicodeScalars.append("\u{FFFD}")
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
