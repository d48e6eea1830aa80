/// vi's moves beside the arrows, as htop, lazygit, tig and less take them: `j` `k` a line,
/// `g` `G` the top and the bottom, Ctrl-D Ctrl-U half a page. Lists and texts understand them
/// (`ListState`, `TextViewState`); a mode's key table names them where they act, so the
/// footer, the help and KEYS.md show them. A mode where one of these letters already acts
/// (the Rules tab's `g`, a quiz question's `j`) keeps it and leaves it out.
public enum ViMoves {
    /// The keys, top and bottom included.
    public static let keys: [Key] = [.character("j"), .character("k"), .character("g"), .character("G"), .control("d"), .control("u")]
    /// Without `g` (a mode where `g` does something else; `G` still goes to the bottom).
    public static let keysButG: [Key] = keys.filter { $0 != .character("g") }

    /// The move `key` stands for: `j` ↓, `k` ↑, `g` Home, `G` End; any other key as it is
    /// (Ctrl-D and Ctrl-U are half pages, which each widget makes of its own height).
    public static func arrow(for key: Key) -> Key {
        switch key {
        case .character("j"): return .down
        case .character("k"): return .up
        case .character("g"): return .home
        case .character("G"): return .end
        default: return key
        }
    }
}
