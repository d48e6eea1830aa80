/// One thing a key does on a screen, declared once (in the manner of lazygit's `Binding`): the
/// screen's `handle`, the footer, the help overlay and docs/KEYS.md all read it.
public struct KeyBinding {
    /// Whether a key triggers this binding.
    public let matches: (Key) -> Bool
    /// The keys the binding names, when it is for a fixed set (nil for one that takes whatever
    /// is typed).
    public private(set) var keys: [Key]?
    /// The keys as written in the help overlay and in KEYS.md ("↑ ↓ PgUp PgDn"). Worked out
    /// when asked (tables are made for every key; the help reads their labels only when shown).
    public var label: String { Self.label(writtenLabel, keys) }
    /// A label written by hand, for keys no list names.
    private let writtenLabel: String?
    /// What the keys do, in the interface language.
    public let help: String
    /// The footer's short form, nil when the binding is not shown there.
    public let footer: KeyHint?
    /// Runs the intent for the key; false when it does nothing now, so the key falls through to
    /// the next binding or to the shell.
    public let action: (Key) -> Bool
    /// Why the binding cannot act now, or nil when it can (lazygit's `GetDisabledReason`): the
    /// key then does not run the action, and the shell shows the reason in the status line.
    public var disabledReason: (() -> String?)?

    /// The footer rank of a binding that is more (or less) important than its place in the table
    /// says: the footer keeps hints from the lowest rank up. Unranked bindings rank 10 × their
    /// place (0, 10, 20 …).
    public private(set) var footerRank: Int?

    /// The binding, ranked `rank` for the footer.
    public func ranked(_ rank: Int) -> KeyBinding {
        var binding = self
        binding.footerRank = rank
        return binding
    }

    /// The binding, with `reason` saying when it cannot act.
    public func disabled(when reason: @escaping () -> String?) -> KeyBinding {
        var binding = self
        binding.disabledReason = reason
        return binding
    }

    /// A binding for a fixed set of keys, named in the help and KEYS.md as they are listed
    /// (`Key.label`), so no key it takes can be left out. `footer` is the footer's short label
    /// (`footerKeys` writes the keys shorter there, "↑↓"); leave it nil for keys only help describes.
    public init(_ keys: [Key], help: String, footer: String? = nil, footerKeys: String? = nil, action: @escaping (Key) -> Bool) {
        self.init(matching: { keys.contains($0) }, names: keys, writtenLabel: nil, help: help, footer: footer,
                  footerKeys: footerKeys, action: action)
    }

    /// A binding whose intent always takes the key.
    public init(_ keys: [Key], help: String, footer: String? = nil, footerKeys: String? = nil, perform: @escaping () -> Void) {
        self.init(keys, help: help, footer: footer, footerKeys: footerKeys) { _ in perform(); return true }
    }

    /// A binding for keys `matching` recognises beyond the `names` it is written with (a box's
    /// closing keys, that also take any key once its content is gone): those count as the
    /// mode's own, as a fixed set's do.
    public init(matching: @escaping (Key) -> Bool, names: [Key], help: String, footer: String? = nil, footerKeys: String? = nil,
                action: @escaping (Key) -> Bool) {
        self.init(matching: matching, names: names, writtenLabel: nil, help: help, footer: footer, footerKeys: footerKeys,
                  action: action)
    }

    /// A binding for keys no list can name (any digit, "a … f"), written as `label` says.
    public init(matching: @escaping (Key) -> Bool, _ label: String, help: String, footer: String? = nil, footerKeys: String? = nil,
                action: @escaping (Key) -> Bool) {
        self.init(matching: matching, names: nil, label: label, help: help, footer: footer, footerKeys: footerKeys, action: action)
    }

    /// A binding with every part given (a copy of another one; an empty `label` keeps it out of
    /// the help and KEYS.md).
    public init(matching: @escaping (Key) -> Bool, names: [Key]?, label: String, help: String, footer: String? = nil,
                footerKeys: String? = nil, action: @escaping (Key) -> Bool) {
        self.init(matching: matching, names: names, writtenLabel: label, help: help, footer: footer, footerKeys: footerKeys, action: action)
    }

    private init(matching: @escaping (Key) -> Bool, names: [Key]?, writtenLabel: String?, help: String, footer: String?,
                 footerKeys: String?, action: @escaping (Key) -> Bool) {
        self.matches = matching
        self.keys = names
        self.writtenLabel = writtenLabel
        self.help = help
        self.action = action
        self.footer = footer.map { KeyHint(footerKeys ?? Self.label(writtenLabel, names), $0) }
    }

    /// The label written by hand, else the keys' own.
    private static func label(_ written: String?, _ keys: [Key]?) -> String { written ?? Key.label(of: keys ?? []) }

    /// A field's typing: any character `characters` stands for ("a–z 0–9"), and `keys`, the
    /// keys that edit the line (`TextFieldState.editingKeys`), named one by one.
    public static func typing(_ characters: String = "a–z 0–9", keys: [Key] = TextFieldState.editingKeys, help: String,
                              action: @escaping (Key) -> Bool) -> KeyBinding {
        KeyBinding(matching: { _ in true }, characters + " " + Key.label(of: keys), help: help, action: action)
    }

    /// Typing into `field`, a copy held in a screen's mode: each key edits the copy and gives it
    /// to `put`, which puts it back in the mode.
    public static func editing(_ field: TextFieldState, _ characters: String = "a–z 0–9", help: String,
                               put: @escaping (TextFieldState) -> Void) -> KeyBinding {
        typing(characters, help: help) { key in
            var edited = field
            _ = edited.handle(key)
            put(edited)
            return true
        }
    }

    /// A binding that only documents keys a widget handles itself (the global conventions, a
    /// question's answers); `handle` never matches it.
    public static func described(_ keys: [Key], help: String, footer: String? = nil, footerKeys: String? = nil) -> KeyBinding {
        KeyBinding(matching: { _ in false }, names: keys, label: Key.label(of: keys), help: help, footer: footer, footerKeys: footerKeys) { _ in false }
    }

    /// A line of the help that is not keys ("—": a screen with none; "…": keys wait).
    public static func described(_ text: String, help: String, footer: String? = nil, footerKeys: String? = nil) -> KeyBinding {
        KeyBinding(matching: { _ in false }, text, help: help, footer: footer, footerKeys: footerKeys) { _ in false }
    }
}

extension Key {
    /// Keys as the help and KEYS.md write them: their labels, one space apart.
    public static func label(of keys: [Key]) -> String { keys.map(\.label).filter { !$0.isEmpty }.joined(separator: " ") }
}

/// The bindings of one mode of a screen ("Penalties", "Searching"), under a translated title.
public struct KeyTable {
    /// A stable name for KEYS.md's generated blocks ("penalties", "games-form").
    public let id: String
    public let title: String
    public let bindings: [KeyBinding]

    public init(id: String, title: String, _ bindings: [KeyBinding]) {
        self.id = id
        self.title = title
        self.bindings = bindings
    }

    /// Runs the first binding that matches `key`, can act now and takes it. Returns whether one did.
    public func handle(_ key: Key) -> Bool {
        for binding in bindings where binding.matches(key) {
            if binding.disabledReason?() != nil { continue }
            if binding.action(key) { return true }
        }
        return false
    }

    /// Whether one of the table's bindings names `key` itself (whether or not it can act now):
    /// a mode that closes with q takes q, a form's line that takes any typed key does not.
    public func binds(_ key: Key) -> Bool { bindings.contains { $0.keys?.contains(key) ?? false } }

    /// Why `key` does nothing now: the reason of the first binding for it that cannot act.
    public func disabledReason(for key: Key) -> String? {
        for binding in bindings where binding.matches(key) {
            if let reason = binding.disabledReason?() { return reason }
        }
        return nil
    }

    /// The footer's hints, in the table's order; a binding that cannot act now is left out.
    public var footerHints: [KeyHint] {
        bindings.enumerated().compactMap { place, binding in
            guard binding.disabledReason?() == nil, var hint = binding.footer else { return nil }
            hint.rank = binding.footerRank ?? place * 10
            return hint
        }
    }

    /// The bindings the help and KEYS.md describe: all but those with no label, which only
    /// handle keys that `described` lines name.
    private var describedBindings: [KeyBinding] { bindings.filter { !$0.label.isEmpty } }

    /// The table as a section of the help overlay.
    public var helpSection: HelpSection {
        HelpSection(title: title, hints: describedBindings.map { KeyHint($0.label, $0.help) })
    }

    /// The table as KEYS.md shows it (a Markdown table; `|` in a label or text escaped).
    public var markdown: String {
        func cell(_ text: String) -> String { text.replacing("|", with: "\\|") }
        var lines = ["| key | action |", "|---|---|"]
        for binding in describedBindings { lines.append("| \(cell(binding.label)) | \(cell(binding.help)) |") }
        return lines.joined(separator: "\n")
    }
}
