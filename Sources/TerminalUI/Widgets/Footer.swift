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
        let widths = hints.map(Self.width)
        var pinned = self.pinned
        var pinnedWidth = pinned.reduce(0) { $0 + Self.width($1) }
        while let last = pinned.last, pinnedWidth > rect.width - 1 {
            pinnedWidth -= Self.width(last)
            pinned.removeLast()
        }
        var room = rect.width - pinnedWidth
        var kept = [Bool](repeating: false, count: hints.count)
        for index in hints.indices.sorted(by: { (hints[$0].rank, $0) < (hints[$1].rank, $1) }) {
            guard widths[index] <= room else { break }
            kept[index] = true
            room -= widths[index]
        }
        // The row is filled in the bar's style: each hint is its key and, one blank on, its label.
        var x = rect.x + 1
        for hint in hints.indices.filter({ kept[$0] }).map({ hints[$0] }) + pinned {
            x = surface.write(hint.key, x: x, y: rect.y, style: Style(.bar, [.bold]), clip: rect)
            x = surface.write(hint.label, x: x + 1, y: rect.y, style: Style(.bar), clip: rect) + 2
        }
    }
}
