/// A message in the status line: what just happened, or what went wrong. Word-wrapped over the
/// rows it is given; a message longer than that ends with an ellipsis.
public struct Banner: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case info, success, warning, error }

    public var message: String
    public var kind: Kind

    public init(_ message: String, kind: Kind = .info) {
        self.message = message
        self.kind = kind
    }

    public var style: Style {
        switch kind {
        case .info: return Style(.info)
        case .success: return Style(.good)
        case .warning: return Style(.warn, [.bold])
        case .error: return Style(.bad, [.bold])
        }
    }

    /// A glyph that carries the kind without colour.
    public func marker(_ glyphs: Glyphs) -> String {
        switch kind {
        case .info: return glyphs.ascii ? "i" : "ℹ"
        case .success: return glyphs.check
        case .warning: return glyphs.warning
        case .error: return glyphs.cross
        }
    }

    public func render(into surface: Surface, row rect: Rect) {
        for (i, line) in lines(width: rect.width - 1, maxRows: rect.height, glyphs: surface.glyphs).enumerated() {
            surface.write(line, x: rect.x + 1, y: rect.y + i, style: style, clip: rect)
        }
    }

    /// The marker and the message as drawn: wrapped to `width`, at most `maxRows` lines.
    public func lines(width: Int, maxRows: Int, glyphs: Glyphs) -> [String] {
        Banner.wrap(marker(glyphs) + " " + message, width: width, maxRows: maxRows, ellipsis: glyphs.ellipsis)
    }

    /// `wrap` for a status made of parts joined by " · " ("Article 8.5.4 · 3 hits · lines 1–19
    /// of 716"): a part that fits on a line is never split over two, so a number is not left on
    /// a line of its own; a longer part wraps at its spaces.
    public static func wrapKeepingParts(_ text: String, width: Int, maxRows: Int, ellipsis: String) -> [String] {
        // A figure space holds a kept part's words together: one column wide like the space it
        // stands for, and not a place where `WordWrap` breaks.
        let glue = "\u{2007}"
        guard text.contains(" · "), !text.contains(glue) else { return wrap(text, width: width, maxRows: maxRows, ellipsis: ellipsis) }
        let parts = text.components(separatedBy: " · ").map { part in
            part.displayWidth <= width ? part.replacing(" ", with: glue) : part
        }
        return wrap(parts.joined(separator: " · "), width: width, maxRows: maxRows, ellipsis: ellipsis)
            .map { $0.replacing(glue, with: " ") }
    }

    /// `text` word-wrapped to `width`, at most `maxRows` lines, the last cut with `ellipsis`
    /// when the text goes on.
    public static func wrap(_ text: String, width: Int, maxRows: Int, ellipsis: String) -> [String] {
        guard width > 0, maxRows > 0 else { return [] }
        var lines = WordWrap.wrap(text, width: width, hangingIndent: false)
        if lines.count > maxRows {
            lines = Array(lines.prefix(maxRows))
            lines[maxRows - 1] = (lines[maxRows - 1] + " " + ellipsis).truncated(toWidth: width, ellipsis: ellipsis)
        }
        return lines
    }
}
