/// Terminal display width, measured per grapheme cluster (what a person sees as one character).
///
/// `wcwidth` works per code point and counts emoji sequences (skin tones, ZWJ families, flags)
/// wider than terminals draw them, and it depends on the process locale. This table-driven
/// measure is deterministic, so layout tests give the same answer everywhere.
public enum DisplayWidth {
    /// Columns one grapheme occupies: 0 (invisible format characters), 1 or 2.
    public static func of(_ character: Character) -> Int {
        if ASCIIText.isOn && !character.isASCII { return ASCIIText.transliterate(character).utf8.count }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let value = first.value
        if value < 0x7F { return 1 }  // ASCII; controls are drawn as a one-column replacement glyph
        if scalars.count == 1 {
            if isZeroWidth(value) { return 0 }
            if (0x7F...0x9F).contains(value) { return 1 }
        }
        if isWide(value) { return 2 }
        // Emoji: presentation by default, or forced by VS16, or a flag (two regional indicators).
        if first.properties.isEmojiPresentation { return 2 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if (0x1F1E6...0x1F1FF).contains(value) { return scalars.count > 1 ? 2 : 1 }
        return 1
    }

    /// Columns a whole string occupies.
    public static func of(_ text: String) -> Int {
        if ASCIIText.isOn && !text.utf8.allSatisfy({ $0 < 0x80 }) { return ASCIIText.transliterate(text).utf8.count }
        if !needsGraphemeBreaking(text) {
            var total = 0
            for scalar in text.unicodeScalars { total += scalar.value < 0x300 ? 1 : of(scalar: scalar) }
            return total
        }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Columns of a scalar that is a grapheme on its own.
    public static func of(scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 || isCommonNarrowSymbol(value) { return 1 }
        if isZeroWidth(value) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Punctuation, arrows, mathematical operators (∅ −), box drawing, blocks, geometric shapes
    /// and braille that the UI draws all the time: one column, never joining (saves Unicode
    /// property lookups per cell).
    @inline(__always)
    static func isCommonNarrowSymbol(_ value: UInt32) -> Bool {
        switch value {
        case 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2200...0x22FF, 0x2500...0x25FC, 0x2800...0x28FF: return true
        default: return false
        }
    }

    /// Whether some scalar of `text` may join its neighbour into one grapheme (combining marks,
    /// joiners, variation selectors, emoji modifiers, regional indicators, Hangul jamo, CR LF).
    /// When not, every scalar is a grapheme and the fast per-scalar paths apply. Called for
    /// every string drawn: it walks the UTF-8 bytes and decodes only scalars from U+0300 up
    /// (lead bytes ≥ 0xCC), the only ones that can join.
    public static func needsGraphemeBreaking(_ text: String) -> Bool {
        let answer = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var i = 0
            while i < bytes.count {
                let lead = bytes[i]
                if lead < 0xCC {
                    if lead == 0x0D { return true }
                    i += lead < 0x80 ? 1 : 2
                    continue
                }
                if mayJoin(scalarValue(in: bytes, at: &i)) { return true }
            }
            return false
        }
        return answer ?? text.unicodeScalars.contains { $0.value == 0x0D || mayJoin($0.value) }
    }

    /// The scalar whose UTF-8 encoding starts at `bytes[i]`, moving `i` past it. The bytes are
    /// a Swift string's, so always well-formed UTF-8.
    @inline(__always)
    static func scalarValue(in bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) -> UInt32 {
        let lead = bytes[i]
        if lead < 0x80 {
            i += 1
            return UInt32(lead)
        }
        if lead < 0xE0 {
            defer { i += 2 }
            return UInt32(lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
        }
        if lead < 0xF0 {
            defer { i += 3 }
            return UInt32(lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
        }
        defer { i += 4 }
        return UInt32(lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
            | UInt32(bytes[i + 3] & 0x3F)
    }

    /// Whether a scalar may join its neighbour into one grapheme (see `needsGraphemeBreaking`).
    static func mayJoin(_ value: UInt32) -> Bool {
        if value < 0x300 || isCommonNarrowSymbol(value) { return false }
        switch value {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F,
             0x0900...0x0DFF, 0x0E31...0x0E4E, 0x1100...0x11FF, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF,
             0x200C, 0x200D, 0x20D0...0x20FF, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0xFE00...0xFE0F,
             0xFE20...0xFE2F, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF:
            return true
        default:
            guard let scalar = Unicode.Scalar(value) else { return false }
            let category = scalar.properties.generalCategory
            return category == .nonspacingMark || category == .spacingMark || category == .enclosingMark
        }
    }

    /// Whether a grapheme must not reach the terminal as is (C0/C1 controls, DEL, escape).
    public static func isControl(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        let value = first.value
        return value < 0x20 || (0x7F...0x9F).contains(value)
    }

    static func isZeroWidth(_ value: UInt32) -> Bool {
        switch value {
        // Format characters, bidi marks, embeddings, overrides and isolates included: they are
        // skipped, so none reaches a terminal that would reorder the line because of it.
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0x00AD, 0x061C: return true
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        case 0xFE00...0xFE0F: return true
        default: return false
        }
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15, condensed to whole blocks).
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
             0x1B000...0x1B2FF, 0x1F200...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// Display columns of this string (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }

    /// This string cut to at most `width` columns, ending with `ellipsis` when something was cut.
    public func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        // On an ASCII terminal, cut what will be drawn ("½" is "1/2", "…" is "..."), so the
        // cut text keeps to its columns.
        if ASCIIText.isOn && !(utf8.allSatisfy { $0 < 0x80 } && ellipsis.utf8.allSatisfy { $0 < 0x80 }) {
            return ASCIIText.transliterate(self).truncated(toWidth: width, ellipsis: ASCIIText.transliterate(ellipsis))
        }
        if displayWidth <= width { return self }
        let ellipsisWidth = ellipsis.displayWidth
        guard ellipsisWidth < width else { return String(repeating: ".", count: width) }
        if !DisplayWidth.needsGraphemeBreaking(self) {
            var result = String.UnicodeScalarView()
            var used = 0
            for scalar in unicodeScalars {
                let w = DisplayWidth.of(scalar: scalar)
                if used + w > width - ellipsisWidth { break }
                result.append(scalar)
                used += w
            }
            return String(result) + ellipsis
        }
        var result = ""
        var used = 0
        for character in self {
            let w = DisplayWidth.of(character)
            if used + w > width - ellipsisWidth { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }

    /// This string padded with spaces (or cut) to exactly `width` columns.
    public func padded(toWidth width: Int, alignment: TextAlignment = .left) -> String {
        let cut = truncated(toWidth: width)
        let gap = max(0, width - cut.displayWidth)
        switch alignment {
        case .left: return cut + String(repeating: " ", count: gap)
        case .right: return String(repeating: " ", count: gap) + cut
        case .center:
            let left = gap / 2
            return String(repeating: " ", count: left) + cut + String(repeating: " ", count: gap - left)
        }
    }
}

/// Horizontal alignment of text inside a column.
public enum TextAlignment: Sendable {
    case left, right, center
}
