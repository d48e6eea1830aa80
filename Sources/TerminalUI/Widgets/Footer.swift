/// A key and what it does, as shown in the footer and in help.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: String
    /// The footer keeps hints by rank, lowest first (a mode's own hints rank 0, 10, 20 … in the
    /// order declared unless a binding says otherwise, `KeyBinding.ranked`).
    public var rank: Int
    public init(_ key: String, _ label: String, rank: Int = 0) { self.key = key; self.label = label; self.rank = rank }
}

/// The bottom row: the keys that matter on the current screen, in the order given. When they do
/// not all fit, the hints of the highest rank give way first (as htop's bar keeps its actions);
/// `pinned` hints (help, quit) end the row and are the last to go.
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
        var room = rect.width - pinned.map(Self.width).reduce(0, +)
        var kept = Set<Int>()
        for index in hints.indices.sorted(by: { (hints[$0].rank, $0) < (hints[$1].rank, $1) }) {
            guard Self.width(hints[index]) <= room else { break }
            kept.insert(index)
            room -= Self.width(hints[index])
        }
        let shown = hints.indices.filter(kept.contains).map { hints[$0] }
        var x = rect.x + 1
        for hint in shown + pinned {
            x = surface.write(hint.key, x: x, y: rect.y, style: Style(.bar, [.bold]), clip: rect)
            x = surface.write(" " + hint.label, x: x, y: rect.y, style: Style(.bar), clip: rect)
            x = surface.write("  ", x: x, y: rect.y, style: Style(.bar), clip: rect)
        }
    }
}
