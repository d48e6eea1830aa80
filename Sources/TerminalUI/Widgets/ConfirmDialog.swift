/// A centred yes/no question drawn over the screen.
///
/// Keys: ← → Tab switch the button, Enter confirms the lit one, Esc answers no, and the first
/// letter of either label (as well as `y` / `n`) answers directly.
public struct ConfirmDialog: Equatable, Sendable {
    public var title: String
    public var message: String
    public var yesLabel: String
    public var noLabel: String
    /// Whether "yes" is the lit button (default: no, the safe answer).
    public var yesSelected = false

    public enum Answer: Equatable { case yes, no }

    public init(title: String, message: String, yesLabel: String, noLabel: String) {
        self.title = title
        self.message = message
        self.yesLabel = yesLabel
        self.noLabel = noLabel
    }

    /// The keys `handle` answers, for a footer; `choose` names ← → (light the other button).
    public func footerHints(choose: String) -> [KeyHint] {
        [KeyHint("y", yesLabel), KeyHint("n Esc", noLabel), KeyHint("←→", choose)]
    }

    /// Feeds a key; returns the answer once there is one.
    public mutating func handle(_ key: Key) -> Answer? {
        switch key {
        case .left, .right, .tab, .backTab:
            yesSelected.toggle()
        case .enter:
            return yesSelected ? .yes : .no
        case .escape:
            return .no
        case .character(let c):
            let lower = Character(c.lowercased())
            if lower == "y" || lower == yesLabel.lowercased().first { return .yes }
            if lower == "n" || lower == noLabel.lowercased().first { return .no }
        default:
            break
        }
        return nil
    }

    public func render(into surface: Surface, area: Rect) {
        let textWidth = min(area.width - 6, max(30, message.displayWidth))
        let lines = WordWrap.wrap(message, width: max(10, textWidth))
        let box = area.centered(width: textWidth + 4, height: lines.count + 5)
        surface.fill(box)
        surface.drawBox(box, title: title)
        for (i, line) in lines.enumerated() where i < box.height - 4 {
            surface.write(line, x: box.x + 2, y: box.y + 1 + i, clip: box.inset(dx: 1, dy: 1))
        }
        let yes = " \(yesLabel) ", no = " \(noLabel) "
        let buttonsWidth = yes.displayWidth + 2 + no.displayWidth
        let y = box.maxY - 2
        var x = box.x + max(2, (box.width - buttonsWidth) / 2)
        let yesStyle = yesSelected ? Style(.selection, [.bold]) : Style(.text, [.bold])
        let noStyle = yesSelected ? Style(.text, [.bold]) : Style(.selection, [.bold])
        let yesX = x
        x = surface.write("[" + yes + "]", x: x, y: y, style: yesStyle, clip: box)
        let noX = x + 1
        surface.write("[" + no + "]", x: noX, y: y, style: noStyle, clip: box)
        surface.parkCursor(x: yesSelected ? yesX + 1 : noX + 1, y: y)
    }
}
