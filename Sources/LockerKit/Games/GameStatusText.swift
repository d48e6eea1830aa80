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

    /// "you organised it", "you had a place" or "you were on the waitlist": the user's part in
    /// a game that is called off, which nobody is going to any more.
    public static func former(_ part: PlayerPart, _ l: Localizer) -> String {
        switch part {
        case .organiser: return l.t("you organised it")
        case .going: return l.t("you had a place")
        case .waitlisted: return l.t("you were on the waitlist")
        }
    }

    /// The user's part in `game`, with their number when they wait ("number 2 on the
    /// waitlist"), in the past once the game is called off; nil when they have none.
    public static func part(in game: GameListing, _ l: Localizer) -> String? {
        guard let mine = game.myStatus else { return nil }
        if game.status == .cancelled { return former(mine, l) }
        return game.waitlistPosition.map { l.t("number {position} on the waitlist", ["position": String($0)]) } ?? self.mine(mine, l)
    }

    /// A player's name as they typed it, made inert; "(deleted account)" for an account that is gone.
    public static func person(_ name: String, _ l: Localizer) -> String {
        name.isEmpty ? l.t("(deleted account)") : TerminalText.inert(name)
    }

    /// The roster as lines, for the tab and the command line: who is going — the organiser and
    /// the players they bring first, so the count is the game's own "5/22 going" — then the
    /// waitlist in the order it moves up. Without the game, only the bookings are counted.
    /// `withTimes` adds when each booking was made.
    public static func roster(_ roster: GameRoster, of game: GameListing?, withTimes: Bool = false,
                              _ l: Localizer) -> (going: [String], waitlist: [String]) {
        var going = [l.t("Going ({count}):", ["count": String((game?.players ?? 0) + roster.going.count)])]
        if let game {
            let organiser = person(game.organiser, l)
            going.append("  " + (game.players > 1
                ? l.n("{name} (organiser, and {count} player they bring)", "{name} (organiser, and {count} players they bring)",
                      count: game.players - 1, ["name": organiser])
                : l.t("{name} (organiser)", ["name": organiser])))
        }
        going += roster.going.map { "  " + person($0.name, l) + (withTimes ? "  " + MeasureText.dateTime(Instant.parse($0.since)) : "") }
        let waitlist = [l.t("Waitlist ({count}):", ["count": String(roster.waitlisted.count)])]
            + roster.waitlisted.enumerated().map { "  \($0.offset + 1). " + person($0.element.name, l) }
        return (going, waitlist)
    }

    /// Why a game is off: the organiser's words, made inert, or that their account was deleted.
    public static func reason(_ reason: String, _ l: Localizer) -> String {
        reason.isEmpty ? l.t("the organiser deleted their account") : TerminalText.inert(reason)
    }
}
