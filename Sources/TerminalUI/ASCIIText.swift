/// Text for a terminal that shows ASCII only (`--ascii`, or a locale that is not UTF-8).
///
/// Every character outside ASCII goes through one table that keeps its meaning: `−2` stays
/// `-2`, `4½` becomes `4 1/2`, `é` becomes `e`, `↑↓` becomes `Up/Down`, `✓` becomes `v`. A
/// character the table does not know becomes `?`, never nothing, so no text silently loses a
/// part. While `isOn`, `DisplayWidth` measures and `CellGrid` draws text as transliterated, so
/// layout, clipping and what reaches the terminal all agree.
public enum ASCIIText {
    /// Set once at start-up, before the first frame, when the terminal shows ASCII only.
    nonisolated(unsafe) public static var isOn = false

    /// `text` with every non-ASCII character replaced through the table.
    public static func transliterate(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var characters = Substring(text)
        while let character = characters.first {
            if let (pair, replacement) = pairs.first(where: { characters.hasPrefix($0.0) }) {
                result += replacement
                characters = characters.dropFirst(pair.count)
                continue
            }
            let replacement = transliterate(character)
            // "4½" reads "4 1/2", not "41/2".
            if replacement.first?.isNumber == true && replacement.contains("/") && result.last?.isNumber == true {
                result += " "
            }
            result += replacement
            characters = characters.dropFirst()
        }
        return result
    }

    /// One character in ASCII (possibly several letters, or "" for a lone combining mark).
    public static func transliterate(_ character: Character) -> String {
        if character.isASCII { return String(character) }
        guard let first = character.unicodeScalars.first else { return "" }
        // A letter with combining accents keeps its base letter.
        if first.isASCII { return String(first) }
        let value = first.value
        if let symbol = symbols[value] { return symbol }
        if let base = FoldingTable.latin[value] {
            return first.properties.isUppercase ? base.uppercased() : base
        }
        switch value {
        case 0x0300...0x036F, 0x200B...0x200D, 0x2060, 0xFE00...0xFE0F: return ""  // marks, joiners, selectors
        case 0x2500, 0x2501, 0x2504...0x250B, 0x254C...0x254F, 0x2550: return "-"
        case 0x2502, 0x2503, 0x2551: return "|"
        case 0x2500...0x257F: return "+"                       // other box drawing: corners, tees
        case 0x2580...0x259F: return "#"                       // blocks
        case 0x2800...0x28FF: return value == 0x2800 ? " " : "."  // braille dots
        case 0xFF01...0xFF5E: return String(UnicodeScalar(value - 0xFEE0)!)  // full-width ASCII
        default: return "?"
        }
    }

    /// Sequences read as one (checked before single characters).
    private static let pairs: [(String, String)] = [("↑↓", "Up/Down"), ("←→", "Left/Right"), ("◂▸", "</>")]

    /// Symbols, punctuation and spaces the interface and the data use.
    private static let symbols: [UInt32: String] = [
        // spaces
        0x00A0: " ", 0x2002: " ", 0x2003: " ", 0x2007: " ", 0x2009: " ", 0x200A: " ", 0x202F: " ", 0x3000: " ",
        // dashes and minus
        0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "--", 0x2015: "--", 0x2212: "-", 0x2043: "-",
        // fractions, superscripts, maths
        0x00BD: "1/2", 0x00BC: "1/4", 0x00BE: "3/4", 0x2153: "1/3", 0x2154: "2/3", 0x215B: "1/8",
        0x00B9: "1", 0x00B2: "2", 0x00B3: "3", 0x00D7: "x", 0x00F7: "/", 0x00B1: "+/-", 0x2264: "<=", 0x2265: ">=",
        0x2260: "!=", 0x2248: "~", 0x221E: "inf", 0x2030: " per mille", 0x00B0: "deg", 0x2032: "'", 0x2033: "\"",
        // quotes and marks
        0x2018: "'", 0x2019: "'", 0x201A: ",", 0x201B: "'", 0x201C: "\"", 0x201D: "\"", 0x201E: "\"", 0x00AB: "\"",
        0x00BB: "\"", 0x2039: "<", 0x203A: ">", 0x00BF: "", 0x00A1: "", 0x2026: "...", 0x00F1: "ny", 0x00D1: "NY", 0x00B7: ".", 0x2022: "*",
        0x2023: ">", 0x2027: ".", 0x00A7: "S.", 0x00B6: "P.", 0x00A9: "(c)", 0x00AE: "(R)", 0x2122: "(TM)",
        0x00B5: "u", 0x03BC: "u", 0x00BA: "o", 0x00AA: "a", 0x2116: "No.",
        // money
        0x20AC: "EUR", 0x00A3: "GBP", 0x00A5: "JPY", 0x00A2: "c",
        // arrows and pointers
        0x2190: "<-", 0x2192: "->", 0x2191: "Up", 0x2193: "Down", 0x2194: "<->", 0x2195: "Up/Down",
        0x21B5: "Enter", 0x23CE: "Enter", 0x21E7: "Shift", 0x21E5: "Tab", 0x21E4: "Shift-Tab", 0x232B: "Backspace",
        0x25C2: "<", 0x25B8: ">", 0x25C0: "<", 0x25B6: ">", 0x25B2: "^", 0x25BC: "v", 0x25B4: "^", 0x25BE: "v",
        0x25CF: "*", 0x25CB: "o", 0x25A0: "#", 0x25A1: "[]", 0x25C6: "*", 0x25C7: "o",
        // checks and stars
        0x2713: "v", 0x2714: "v", 0x2717: "x", 0x2718: "x", 0x2605: "*", 0x2606: "*", 0x26A0: "!", 0x2139: "i",
        0x1F512: "L", 0x1F513: "U",
    ]
}
