/// A key and what it does, as shown in the footer and in help.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: String
    public init(_ key: String, _ label: String) { self.key = key; self.label = label }
}

/// The bottom row: the keys that matter on the current screen. `hints` that do not fit are
/// dropped from the end, so put the most important first; `pinned` hints (help, quit) end the row
/// and are the last to go.
public struct Footer {
    public var hints: [KeyHint]
    public var pinned: [KeyHint]
    public init(hints: [KeyHint], pinned: [KeyHint] = []) {
        self.hints = hints
        self.pinned = pinned
    }

    private static func width(_ hint: KeyHint) -> Int { hint.key.displayWidth + 1 + hint.label.displayWidth + 2 }

    public func render(into surface: Surface, row rect: Rect) {
        surface.fill(rect.row(0), style: Style(.bar))
        var pinned = self.pinned
        while !pinned.isEmpty && pinned.map(Self.width).reduce(0, +) > rect.width - 1 { pinned.removeLast() }
        let reserved = pinned.map(Self.width).reduce(0, +)
        var x = rect.x + 1
        var shown: [KeyHint] = []
        for hint in hints {
            if x + Self.width(hint) + reserved > rect.maxX + 1 { break }
            shown.append(hint)
            x += Self.width(hint)
        }
        x = rect.x + 1
        for hint in shown + pinned {
            x = surface.write(hint.key, x: x, y: rect.y, style: Style(.bar, [.bold]), clip: rect)
            x = surface.write(" " + hint.label, x: x, y: rect.y, style: Style(.bar), clip: rect)
            x = surface.write("  ", x: x, y: rect.y, style: Style(.bar), clip: rect)
        }
    }
}
