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

    public static let dark = Theme(name: .dark, usesColor: true) { role, colors in colored(role, light: false, rich: colors >= 256) }
    public static let light = Theme(name: .light, usesColor: true) { role, colors in colored(role, light: true, rich: colors >= 256) }

    /// A role's look in the dark or the light theme, on a terminal of 256 colours (`rich`) or of
    /// 8 or 16. The two themes are side by side, so a role is compared and changed in one line:
    /// `pick(dark on 256, dark on 8, light on 256, light on 8)`.
    static func colored(_ role: Role, light: Bool, rich: Bool) -> Look {
        func pick(_ dark256: Look, _ dark8: Look, _ light256: Look, _ light8: Look) -> Look {
            light ? (rich ? light256 : light8) : (rich ? dark256 : dark8)
        }
        let dim = Look(-1, -1, [.dim]), reverse = Look(-1, -1, [.reverse])
        switch role {
        case .text: return Look()
        case .title: return Look(-1, -1, [.bold])
        case .muted: return pick(Look(245), dim, Look(243), dim)
        case .accent: return pick(Look(80), Look(6), Look(25), Look(4))
        case .key: return pick(Look(221, -1, [.bold]), Look(3, -1, [.bold]), Look(124, -1, [.bold]), Look(1, -1, [.bold]))
        case .good: return pick(Look(114), Look(2), Look(28), Look(2))
        case .warn: return pick(Look(214), Look(3), Look(130), Look(5))
        case .bad: return pick(Look(203), Look(1), Look(160), Look(1))
        case .info: return pick(Look(75), Look(4), Look(25), Look(4))
        case .selection: return pick(Look(-1, 238, [.bold]), reverse, Look(-1, 253, [.bold]), reverse)
        case .tabActive: return pick(Look(16, 80, [.bold]), Look(0, 6, [.bold]), Look(231, 25, [.bold]), Look(7, 4, [.bold]))
        case .tabInactive: return pick(Look(250, 236), Look(), Look(236, 253), Look())
        case .bar: return pick(Look(252, 236), reverse, Look(236, 253), reverse)
        case .match: return pick(Look(16, 221), Look(0, 3), Look(16, 220), Look(0, 3))
        case .border: return pick(Look(240), dim, Look(248), dim)
        case .active: return pick(Look(16, 114, [.bold]), Look(0, 2, [.bold]), Look(231, 28, [.bold]), Look(7, 2, [.bold]))
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
