import LockerKit
import TerminalUI

/// What the Games tab is doing: one value whose cases carry their own state. The keys, the
/// footer, `capturesText`, the help and the drawing all derive from it; keys assign it, and the
/// view-model's answers move it through `GamesMode.next(_:after:)`.
indirect enum GamesMode: Equatable {
    /// Logged out, or the session not known yet: the log-in / sign-up form.
    case account(Form)
    /// The session could not be read at start because the server could not be reached: the
    /// tab says so and waits for it (the session is kept); `r` tries again at once.
    case awaitingServer
    /// Your games and the games near a place.
    case list
    /// One game in full (Enter), by id so that live changes show in it.
    case details(gameID: Int64)
    /// `n`: a new game at one of the grounds found.
    case create(Form, grounds: [GroundListing])
    /// `e` on a game you organise: its time, capacity and note.
    case change(Form, game: GameListing, over: GamesMode)
    /// `b`, `c` on a seat, `o`: the status line asks first.
    case confirm(GamesQuestion, ConfirmDialog, over: GamesMode)
    /// `x`: the reason a game is called off, typed above the lists.
    case reason(GameListing, TextFieldState, over: GamesMode)
    /// `p`: a postcode or a position, typed above the lists.
    case postcode(TextFieldState, over: GamesMode)
    /// `w`: who is going and who waits (the roster is the view-model's answer).
    case roster(over: GamesMode)

    /// The mode a passing one (a question, a typed line, the roster, a form) returns to.
    var underneath: GamesMode {
        switch self {
        case .confirm(_, _, let over), .reason(_, _, let over), .postcode(_, let over), .roster(let over), .change(_, _, let over):
            return over.underneath
        case .create: return .list
        default: return self
        }
    }

    /// The mode of a tab opened on a view-model that may already have answered.
    static func start(loggedIn: Bool, awaitingServer: Bool, rosterShown: Bool) -> GamesMode {
        let mode: GamesMode = loggedIn ? .list : awaitingServer ? .awaitingServer : .account(GamesForms.account())
        return loggedIn && rosterShown ? .roster(over: mode) : mode
    }

    /// Where the tab goes after an answer: the one place an outcome moves the mode.
    ///
    /// Logging in (or a session read that finds someone logged in) opens the lists; logging out
    /// (or finding nobody) shows the account form, keeping one already on screen; a form
    /// accepted closes, a form refused stays with everything typed and its focus on the field
    /// at fault; the roster opens over whatever is shown and closes back to it; a game that left
    /// the lists closes everything open on it.
    static func next(_ mode: GamesMode, after outcome: GamesOutcome) -> GamesMode {
        switch (outcome, mode) {
        case (.sessionRead(loggedIn: true), _), (.loggedIn, _):
            return .list
        case (.sessionRead(loggedIn: false), .account):
            return mode
        case (.sessionRead(loggedIn: false), _), (.loggedOut, _):
            return .account(GamesForms.account())
        case (.serverAwaited, _):
            return .awaitingServer
        case (.formAccepted, .create):
            return .list
        case (.formAccepted, .change(_, _, let over)):
            return over
        case (.formRefused(let error), .account(var form)):
            form.state.focus(row: GamesForms.accountRow(for: error))
            return .account(form)
        case (.formRefused(let error), .create(var form, let grounds)):
            form.state.focus(row: GamesForms.createRow(for: error))
            return .create(form, grounds: grounds)
        case (.formRefused(let error), .change(var form, let game, let over)):
            form.state.focus(row: GamesForms.changeRow(for: error))
            return .change(form, game: game, over: over)
        case (.formAccepted, _), (.formRefused, _):
            return mode
        case (.rosterOpened, .roster):
            return mode
        case (.rosterOpened, _):
            return .roster(over: mode)
        case (.rosterClosed, .roster(let over)):
            return over
        case (.rosterClosed, _):
            return mode
        case (.gameGone(let id), _):
            return mode.closing(game: id)
        }
    }

    /// This mode with everything open on game `id` closed (a question, a typed reason, a
    /// change, its details).
    private func closing(game id: Int64) -> GamesMode {
        switch self {
        case .details(let shown) where shown == id:
            return .list
        case .change(_, let game, let over) where game.id == id,
             .reason(let game, _, let over) where game.id == id,
             .confirm(.book(let game), _, let over) where game.id == id,
             .confirm(.giveUp(let game), _, let over) where game.id == id:
            return over.closing(game: id)
        case .change(let form, let game, let over):
            return .change(form, game: game, over: over.closing(game: id))
        case .confirm(let question, let dialog, let over):
            return .confirm(question, dialog, over: over.closing(game: id))
        case .reason(let game, let field, let over):
            return .reason(game, field, over: over.closing(game: id))
        case .postcode(let field, let over):
            return .postcode(field, over: over.closing(game: id))
        case .roster(let over):
            return .roster(over: over.closing(game: id))
        case .account, .awaitingServer, .list, .details, .create:
            return self
        }
    }
}

/// What the status line asks before the Games tab acts.
enum GamesQuestion: Equatable {
    case book(GameListing)
    /// Give up a seat (the first player waiting takes it).
    case giveUp(GameListing)
    case logOut
}
