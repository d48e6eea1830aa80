/// A one-line message in the status line: what just happened, or what went wrong.
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
        let text = marker(surface.glyphs) + " " + message
        surface.write(text.truncated(toWidth: rect.width - 1, ellipsis: surface.glyphs.ellipsis),
                      x: rect.x + 1, y: rect.y, style: style, clip: rect)
    }
}
