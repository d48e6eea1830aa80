/// The words for a game's status and for the user's part in it, shared by the Games tab and the
/// command line.
public enum GameStatusText {
    /// "open", "full", "needs players" or "cancelled".
    public static func status(_ status: GameStatus, _ l: Localizer) -> String {
        switch status {
        case .cancelled: return l.t("cancelled", context: "game status")
        case .full: return l.t("full", context: "game status")
        case .needsPlayers: return l.t("needs players")
        case .open: return l.t("open", context: "game status")
        }
    }

    /// "you organise it", "you are going" or "you are on the waitlist".
    public static func mine(_ part: PlayerPart, _ l: Localizer) -> String {
        switch part {
        case .organiser: return l.t("you organise it")
        case .going: return l.t("you are going")
        case .waitlisted: return l.t("you are on the waitlist")
        }
    }

    /// The user's part in `game`, with their number when they wait ("number 2 on the
    /// waitlist"); nil when they have none.
    public static func part(in game: GameListing, _ l: Localizer) -> String? {
        guard let mine = game.myStatus else { return nil }
        return game.waitlistPosition.map { l.t("number {position} on the waitlist", ["position": String($0)]) } ?? self.mine(mine, l)
    }

    /// A player's name as they typed it, made inert; "(deleted account)" for an account that is gone.
    public static func person(_ name: String, _ l: Localizer) -> String {
        name.isEmpty ? l.t("(deleted account)") : TerminalText.inert(name)
    }

    /// Why a game is off: the organiser's words, made inert, or that their account was deleted.
    public static func reason(_ reason: String, _ l: Localizer) -> String {
        reason.isEmpty ? l.t("the organiser deleted their account") : TerminalText.inert(reason)
    }
}
