import LockerKit
import TerminalUI

/// Draws an `AttentionLine` on one row: an info banner, or a bold reversed warning when urgent.
/// Only draws; the shell decides when the bell rings.
enum AttentionBar {
    static func render(_ line: AttentionLine, into surface: Surface, row: Rect) {
        Banner(line.text, kind: line.urgent ? .warning : .info).render(into: surface, row: row)
        if line.urgent { surface.highlight(x: row.x, y: row.y, width: row.width, style: Style(.warn, [.bold, .reverse])) }
    }
}
