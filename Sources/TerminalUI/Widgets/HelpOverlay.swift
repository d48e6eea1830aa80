/// A titled group of key hints in the help overlay ("Global keys", "This screen").
public struct HelpSection: Hashable, Sendable {
    public var title: String
    public var hints: [KeyHint]
    /// Text under the title, after the hints: one wrapped paragraph each (the About page).
    public var paragraphs: [String]
    public init(title: String, hints: [KeyHint], paragraphs: [String] = []) {
        self.title = title
        self.hints = hints
        self.paragraphs = paragraphs
    }
}

/// The `?` / F1 overlay: a framed, scrollable list of key sections over the current screen.
public struct HelpOverlay {
    public var title: String
    public var sections: [HelpSection]
    public var closeHint: String

    public init(title: String, sections: [HelpSection], closeHint: String) {
        self.title = title
        self.sections = sections
        self.closeHint = closeHint
    }

    /// The overlay content as lines for a given inner width.
    public func lines(width: Int) -> [TextLine] {
        // The key column fits the longest keys, up to a third of the width (16 at the least),
        // so "↑ ↓ PgUp PgDn Home End" is whole wherever the overlay has room for it.
        let keyWidth = min(max(16, width / 3), (sections.flatMap(\.hints).map { $0.key.displayWidth }.max() ?? 4) + 2)
        var lines: [TextLine] = []
        for section in sections {
            if !lines.isEmpty { lines.append(TextLine("")) }
            lines.append(TextLine(section.title, Style(.title, [.bold])))
            for hint in section.hints {
                let wrapped = WordWrap.wrap(hint.label, width: max(8, width - keyWidth - 2))
                // Keys are never cut: keys wider than their column (two columns kept before the
                // text) take a line of their own.
                let keyAlone = hint.key.displayWidth + 2 > keyWidth
                if keyAlone {
                    for part in WordWrap.wrap(hint.key, width: max(8, width - 2)) { lines.append(TextLine("  " + part)) }
                }
                for (i, part) in wrapped.enumerated() {
                    let key = i == 0 && !keyAlone ? hint.key : ""
                    lines.append(TextLine("  " + key.padded(toWidth: keyWidth) + part))
                }
            }
            for (i, paragraph) in section.paragraphs.enumerated() {
                if i > 0 || !section.hints.isEmpty { lines.append(TextLine("")) }
                for part in WordWrap.wrap(paragraph, width: max(8, width - 2), hangingIndent: false) { lines.append(TextLine("  " + part)) }
            }
        }
        return lines
    }

    /// Where the overlay goes in `area` and its lines: the text's rows are `inner`.
    public struct Layout: Equatable {
        public var box: Rect
        public var inner: Rect
        public var lines: [TextLine]
    }

    public func layout(in area: Rect) -> Layout {
        let width = min(area.width - 4, 76)
        var content = lines(width: width - 4)
        // Text that scrolls gives its last column to the text view's scroll bar.
        if content.count + 4 > area.height - 2 { content = lines(width: width - 5) }
        let height = min(area.height - 2, content.count + 4)
        let box = area.centered(width: width, height: height)
        return Layout(box: box, inner: Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 3), lines: content)
    }

    /// Renders centred in `area`, scrolled to `state`'s offset; `state` holds the lines of
    /// `layout(in: area)` (see `TextViewState.setLines`).
    public func render(_ state: TextViewState, layout: Layout, into surface: Surface) {
        let box = layout.box
        surface.fill(box)
        surface.drawBox(box, title: title)
        // A scroll bar takes the box's right border, so the box keeps one right edge (the text
        // was wrapped a column narrower for it).
        let text = Rect(x: layout.inner.x, y: layout.inner.y, width: box.x + box.width - layout.inner.x, height: layout.inner.height)
        TextView().render(state, into: surface, rect: text)
        surface.write(closeHint.truncated(toWidth: box.width - 4, ellipsis: surface.glyphs.ellipsis), x: box.x + 2, y: box.maxY - 2, style: Style(.muted))
    }
}
