/// A key and what it does, as shown in the footer and in help.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: String
    public init(_ key: String, _ label: String) { self.key = key; self.label = label }
}

/// The bottom row: the keys that matter on the current screen. Hints that do not fit are dropped
/// from the end, so put the most important first.
public struct Footer {
    public var hints: [KeyHint]
    public init(hints: [KeyHint]) { self.hints = hints }

    public func render(into surface: Surface, row rect: Rect) {
        surface.fill(rect.row(0), style: Style(.bar))
        var x = rect.x + 1
        for hint in hints {
            let needed = hint.key.displayWidth + 1 + hint.label.displayWidth + 2
            if x + needed > rect.maxX + 1 { break }
            x = surface.write(hint.key, x: x, y: rect.y, style: Style(.bar, [.bold]), clip: rect)
            x = surface.write(" " + hint.label, x: x, y: rect.y, style: Style(.bar), clip: rect)
            x = surface.write("  ", x: x, y: rect.y, style: Style(.bar), clip: rect)
        }
    }
}
