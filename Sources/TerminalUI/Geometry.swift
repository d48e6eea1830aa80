/// A position on the screen, in cells (x = column, y = row, both from 0).
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// A terminal size in cells.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}

/// A rectangle of cells. Widgets draw inside the rectangle they are given and never outside it.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y
        self.width = max(0, width); self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// This rectangle shrunk by `dx` columns and `dy` rows on every side.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The top `rows` rows, and what is left below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let r = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: r), Rect(x: x, y: y + r, width: width, height: height - r))
    }

    /// The left `columns` columns, and what is right of them.
    public func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let c = min(max(0, columns), width)
        return (Rect(x: x, y: y, width: c, height: height), Rect(x: x + c, y: y, width: width - c, height: height))
    }

    /// A rectangle of the given size centred in this one (clamped to fit).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

    /// One row of this rectangle.
    public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: 1) }
}
