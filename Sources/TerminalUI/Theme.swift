/// How roles look on screen: a foreground/background colour pair and attributes.
///
/// Colours are curses colour numbers; -1 is the terminal's own default (so the user's background
/// shows through, `use_default_colors`). The mono theme uses no colour at all, only attributes,
/// which is also what `NO_COLOR` selects.
public struct Theme: Sendable {
    public enum Name: String, CaseIterable, Sendable {
        case dark, light, mono
    }

    public struct Look: Hashable, Sendable {
        public var foreground: Int
        public var background: Int
        public var attributes: TextAttributes
        public init(_ foreground: Int = -1, _ background: Int = -1, _ attributes: TextAttributes = []) {
            self.foreground = foreground; self.background = background; self.attributes = attributes
        }
        public var usesColor: Bool { foreground != -1 || background != -1 }
    }

    public let name: Name
    /// Whether colours are used at all.
    public let usesColor: Bool
    private let resolve: @Sendable (Role, Int) -> Look

    /// The look of a role on a terminal with `colorCount` colours.
    public func look(for style: Style, colorCount: Int) -> Look {
        var look = resolve(style.role, colorCount)
        look.attributes.formUnion(style.attributes)
        if !usesColor || colorCount < 8 {
            look.foreground = -1
            look.background = -1
            if colorCount < 8 && usesColor { look.attributes.formUnion(Theme.monoAttributes(style.role)) }
        }
        return look
    }

    public static func named(_ name: Name) -> Theme {
        switch name {
        case .dark: return .dark
        case .light: return .light
        case .mono: return .mono
        }
    }

    /// Attributes that carry each role's meaning without colour.
    static func monoAttributes(_ role: Role) -> TextAttributes {
        switch role {
        case .text, .border, .info, .heat: return []
        case .muted: return [.dim]
        case .accent, .title, .key, .good: return [.bold]
        case .warn: return [.underline]
        case .bad: return [.bold, .underline]
        case .selection, .tabActive: return [.reverse, .bold]
        case .tabInactive: return []
        case .bar: return []
        case .match: return [.underline, .bold]
        case .active: return [.reverse, .bold]
        }
    }

    public static let mono = Theme(name: .mono, usesColor: false) { role, _ in
        Look(-1, -1, monoAttributes(role))
    }

    public static let dark = Theme(name: .dark, usesColor: true) { role, colors in
        let rich = colors >= 256
        switch role {
        case .text: return Look()
        case .muted: return rich ? Look(245) : Look(-1, -1, [.dim])
        case .accent: return rich ? Look(80) : Look(6)
        case .title: return Look(-1, -1, [.bold])
        case .key: return rich ? Look(221, -1, [.bold]) : Look(3, -1, [.bold])
        case .good: return rich ? Look(114) : Look(2)
        case .warn: return rich ? Look(214) : Look(3)
        case .bad: return rich ? Look(203) : Look(1)
        case .info: return rich ? Look(75) : Look(4)
        case .selection: return rich ? Look(-1, 238, [.bold]) : Look(-1, -1, [.reverse])
        case .tabActive: return rich ? Look(16, 80, [.bold]) : Look(0, 6, [.bold])
        case .tabInactive: return rich ? Look(250, 236) : Look(-1, -1)
        case .bar: return rich ? Look(252, 236) : Look(-1, -1, [.reverse])
        case .match: return rich ? Look(16, 221) : Look(0, 3)
        case .border: return rich ? Look(240) : Look(-1, -1, [.dim])
        case .active: return rich ? Look(16, 114, [.bold]) : Look(0, 2, [.bold])
        case .heat(let band): return Look(heatColor(band, rich: rich))
        }
    }

    public static let light = Theme(name: .light, usesColor: true) { role, colors in
        let rich = colors >= 256
        switch role {
        case .text: return Look()
        case .muted: return rich ? Look(243) : Look(-1, -1, [.dim])
        case .accent: return rich ? Look(25) : Look(4)
        case .title: return Look(-1, -1, [.bold])
        case .key: return rich ? Look(124, -1, [.bold]) : Look(1, -1, [.bold])
        case .good: return rich ? Look(28) : Look(2)
        case .warn: return rich ? Look(130) : Look(5)
        case .bad: return rich ? Look(160) : Look(1)
        case .info: return rich ? Look(25) : Look(4)
        case .selection: return rich ? Look(-1, 253, [.bold]) : Look(-1, -1, [.reverse])
        case .tabActive: return rich ? Look(231, 25, [.bold]) : Look(7, 4, [.bold])
        case .tabInactive: return rich ? Look(236, 253) : Look(-1, -1)
        case .bar: return rich ? Look(236, 253) : Look(-1, -1, [.reverse])
        case .match: return rich ? Look(16, 220) : Look(0, 3)
        case .border: return rich ? Look(248) : Look(-1, -1, [.dim])
        case .active: return rich ? Look(231, 28, [.bold]) : Look(7, 2, [.bold])
        case .heat(let band): return Look(heatColor(band, rich: rich))
        }
    }

    /// Blue → green → yellow → orange → red.
    static func heatColor(_ band: Int, rich: Bool) -> Int {
        let richColors = [33, 41, 220, 208, 196]
        let basic = [4, 2, 3, 5, 1]
        let index = min(max(band, 0), 4)
        return rich ? richColors[index] : basic[index]
    }
}
