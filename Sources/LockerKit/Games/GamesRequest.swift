import FoundationEssentials

/// One thing the Games tab asks of the games store. The tab's client sends it, the helper
/// process (`locker-games games bridge`) answers it, and on the pipe between them it is written
/// with its case's name (`{"book":{"game":42}}`). Adding a request is one case here: the
/// helper's `switch` does not compile until it answers it.
public enum GamesRequest: Codable, Equatable, Sendable {
    /// Who is logged in (`account`; refused `notLoggedIn` when nobody is).
    case whoAmI
    case signUp(name: String, password: String)
    case login(name: String, password: String)
    case logout
    /// The logged-in user's games to come.
    case upcoming
    /// The grounds near a place ("3977" or "-38.03,145.34") and their games (`found`).
    case search(place: String)
    case book(game: Int64)
    case cancelBooking(game: Int64)
    case cancelGame(game: Int64, reason: String)
    case create(game: NewGame)
    case edit(game: Int64, changes: GameChanges)
    case roster(game: Int64)
    /// Writes the game's .ics at `path` (`done`).
    case exportCalendar(game: Int64, path: String)
}

/// What the store answers to a `GamesRequest`; a refusal is thrown as a `GamesError` instead.
public enum GamesAnswer: Codable, Equatable, Sendable {
    /// The account's name (`whoAmI`, `signUp`, `login`).
    case account(name: String)
    /// Done, with nothing to show (`logout`, `exportCalendar`).
    case done
    case games(list: [GameListing])
    case found(grounds: [GroundListing], games: [GameListing])
    case game(listing: GameListing)
    case roster(list: GameRoster)

    /// The account's name; `badResponse` when the answer is another kind.
    public func account() throws -> String {
        guard case .account(let name) = self else { throw GamesError.badResponse }
        return name
    }

    public func games() throws -> [GameListing] {
        guard case .games(let list) = self else { throw GamesError.badResponse }
        return list
    }

    public func found() throws -> (grounds: [GroundListing], games: [GameListing]) {
        guard case .found(let grounds, let games) = self else { throw GamesError.badResponse }
        return (grounds, games)
    }

    public func game() throws -> GameListing {
        guard case .game(let listing) = self else { throw GamesError.badResponse }
        return listing
    }

    public func roster() throws -> GameRoster {
        guard case .roster(let list) = self else { throw GamesError.badResponse }
        return list
    }
}
