/// A yes/no question, asked on the status line's rows.
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
    /// The keys that say yes, besides the first letter of the yes button (either case).
    public static let yesKeys: [Key] = [.character("y"), .character("Y")]
    /// The keys that say no, besides the first letter of the no button.
    public static let noKeys: [Key] = [.character("n"), .character("N"), .escape]
    /// The keys that light the other button, and the one that presses the lit one.
    public static let chooseKeys: [Key] = [.left, .right, .tab, .backTab]
    public static let pressKeys: [Key] = [.enter]

    public mutating func handle(_ key: Key) -> Answer? {
        if Self.chooseKeys.contains(key) {
            yesSelected.toggle()
            return nil
        }
        if Self.pressKeys.contains(key) { return yesSelected ? .yes : .no }
        if Self.yesKeys.contains(key) { return .yes }
        if Self.noKeys.contains(key) { return .no }
        guard case .character(let c) = key else { return nil }
        let lower = Character(c.lowercased())
        if lower == yesLabel.lowercased().first { return .yes }
        if lower == noLabel.lowercased().first { return .no }
        return nil
    }

    /// Draws the question on the bottom rows of `area`, where the status line is (every
    /// question of the app is asked there, where the eye already is): a rule above it, the
    /// question (wrapped, three rows at most) and the two buttons at the end of its last row.
    public func render(into surface: Surface, area: Rect) {
        let yes = "[ \(yesLabel) ]", no = "[ \(noLabel) ]"
        let buttonsWidth = yes.displayWidth + 1 + no.displayWidth
        let question = message.isEmpty ? title : title + " " + message
        let lines = Array(WordWrap.wrap(question, width: max(10, area.width - buttonsWidth - 4)).prefix(3))
        let rows = Rect(x: area.x, y: area.maxY - lines.count, width: area.width, height: lines.count)
        surface.fill(Rect(x: area.x, y: rows.y - 1, width: area.width, height: lines.count + 1))
        surface.repeatGlyph(surface.glyphs.horizontal, x: area.x, y: rows.y - 1, count: area.width, style: Style(.accent))
        for (i, line) in lines.enumerated() {
            surface.write(line, x: rows.x + 1, y: rows.y + i, style: Style(.accent, [.bold]), clip: rows)
        }
        let y = rows.maxY - 1
        let yesX = max(rows.x + 1, rows.maxX - buttonsWidth - 1)
        let noX = yesX + yes.displayWidth + 1
        surface.write(yes, x: yesX, y: y, style: yesSelected ? Style(.selection, [.bold]) : Style(.text, [.bold]), clip: rows)
        surface.write(no, x: noX, y: y, style: yesSelected ? Style(.text, [.bold]) : Style(.selection, [.bold]), clip: rows)
        surface.parkCursor(x: (yesSelected ? yesX : noX) + 2, y: y)
    }
}
