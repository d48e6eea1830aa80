import FoundationEssentials

/// The Games tab: who is logged in, their upcoming games, the games near a postcode, and the
/// intents (sign up, log in, search, book, cancel, create, export). Every request goes through a
/// `GamesClient`; refusals become `message`, in the interface language.
public final class GamesViewModel: ViewModel {
    public let localizer: Localizer
    private let client: GamesClient
    private let now: () -> Double

    public private(set) var user: String?
    public private(set) var upcoming: [GameListing] = []
    public private(set) var postcode = ""
    public private(set) var grounds: [GroundListing] = []
    public private(set) var nearby: [GameListing] = []
    /// The last outcome to show (success or refusal).
    public private(set) var message: (text: String, isError: Bool)?
    public private(set) var started = false
    /// The urgent game the bell already rang for (so it rings once, whichever tab shows it).
    public var bellRungFor: Int64?

    public init(localizer: Localizer, client: GamesClient, now: @escaping () -> Double = { Date().timeIntervalSince1970 }) {
        self.localizer = localizer
        self.client = client
        self.now = now
        super.init()
    }

    /// Reads the session and the upcoming games (once, when the tab is first shown).
    public func start() {
        guard !started else { return }
        started = true
        attempt { user = try client.currentUser() }
        if user != nil { refresh() } else { notifyChanged() }
    }

    public var currentTime: Double { now() }

    // MARK: Accounts

    /// Checks the form first (same rules as the database) so mistakes are told at once.
    public func signUp(name: String, password: String, confirmation: String) {
        guard (3...32).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            return fail(localizer.t("A username has 3 to 32 characters: letters, digits, dot, underscore or hyphen."))
        }
        guard password.count >= 8 else { return fail(localizer.t("A password needs at least 8 characters.")) }
        guard password == confirmation else { return fail(localizer.t("The two passwords differ; type them again.")) }
        guard attempt({ try client.signUp(name: name, password: password) }) else { return }
        login(name: name, password: password)
    }

    public func login(name: String, password: String) {
        guard attempt({ try client.login(name: name, password: password) }) else { return }
        user = name
        message = (localizer.t("Logged in as {name}.", ["name": name]), false)
        refresh()
    }

    public func logout() {
        guard attempt({ try client.logout() }) else { return }
        user = nil
        upcoming = []
        nearby = []
        message = (localizer.t("Logged out."), false)
        notifyChanged()
    }

    // MARK: Games

    public func refresh() {
        attempt { upcoming = try client.upcoming() }
        if !postcode.isEmpty { attempt { nearby = try client.games(place: postcode) } }
        notifyChanged()
    }

    /// Searches near a postcode ("3977") or a position ("-38.03,145.34").
    public func search(postcode text: String) {
        let code = text.filter { !$0.isWhitespace }
        let parts = code.split(separator: ",").compactMap { Double($0) }
        let isPosition = parts.count == 2 && (-90...90).contains(parts[0]) && (-180...180).contains(parts[1])
        guard isPosition || (code.count == 4 && code.allSatisfy({ $0.isASCII && $0.isNumber })) else {
            return fail(localizer.t("“{postcode}” is not a postcode: write 4 digits, like 3977.", ["postcode": code]))
        }
        guard attempt({ grounds = try client.grounds(place: code); nearby = try client.games(place: code) }) else { return }
        postcode = code
        message = nil
        notifyChanged()
    }

    public func book(_ game: GameListing) {
        guard attempt({ try client.book(game.id) }) else { return }
        refresh()
        let mine = (upcoming.first { $0.id == game.id })?.myStatus
        message = (mine == "waitlisted" ? localizer.t("Game {id} is full: you are on the waitlist.", ["id": String(game.id)])
                                        : localizer.t("You are going to game {id}.", ["id": String(game.id)]), false)
        notifyChanged()
    }

    public func cancel(_ game: GameListing) {
        guard attempt({ try client.cancel(game.id) }) else { return }
        message = (localizer.t("Your booking for game {id} is cancelled.", ["id": String(game.id)]), false)
        refresh()
    }

    /// Calls off a game the user organises; a reason is required (players see it).
    public func cancelGame(_ game: GameListing, reason: String) {
        let text = reason.trimmingSpaces
        guard !text.isEmpty else { return fail(localizer.t("Say why the game is off: the players will see it.")) }
        guard attempt({ try client.cancelGame(game.id, reason: text) }) else { return }
        message = (localizer.t("Game {id} is cancelled.", ["id": String(game.id)]), false)
        refresh()
    }

    /// Creates a game at a ground found by the last search; `localTime` is "2026-12-05T10:00".
    public func create(ground: String, localTime: String, players: Int, capacity: Int, minimum: Int?, note: String?) -> Bool {
        var created: GameListing?
        guard attempt({ created = try client.create(ground: ground, localTime: localTime, players: players, capacity: capacity, minimum: minimum, note: note) }),
              let created else { return false }
        message = (localizer.t("Game {id} created.", ["id": String(created.id)]), false)
        refresh()
        return true
    }

    /// Writes the game's .ics into `directory`; returns the file's path.
    public func exportCalendar(_ game: GameListing, directory: String) {
        let path = directory + "/game-\(game.id).ics"
        guard attempt({ try client.exportCalendar(game.id, to: path) }) else { return }
        message = (localizer.t("Wrote {file}.", ["file": path]), false)
        notifyChanged()
    }

    // MARK: Reminders

    /// The user's games that start today (local time), not cancelled.
    public func todaysGames() -> [GameListing] {
        let current = now()
        let day = LocalTime.dayRange(containing: current)
        return upcoming.filter { day.contains($0.start) && $0.status != "cancelled" && $0.start > current - 3 * 3600 }
    }

    /// A game today that starts within the next 60 minutes.
    public func urgentGame() -> GameListing? {
        let current = now()
        return todaysGames().first { $0.start > current && $0.start - current <= 3600 }
    }

    /// The reminder line for today's games ("Cricket today: 10:15 Casey Fields (in 45
    /// minutes)"), and the game starting within the hour, if any; nil when there is none.
    public func reminder() -> (text: String, urgent: GameListing?)? {
        let today = todaysGames()
        guard !today.isEmpty else { return nil }
        let games = today.map { game in
            String(WorkoutText.dateTime(game.start).suffix(5)) + " " + TerminalText.inert(game.groundName) + " (" + relative(game.start) + ")"
        }.joined(separator: " · ")
        return (localizer.t("Cricket today: {games}", ["games": games]), urgentGame())
    }

    /// "in 45 min", "in 3 h", "tomorrow", "in 5 days", "started".
    public func relative(_ seconds: Double) -> String {
        let delta = seconds - now()
        if delta <= 0 { return localizer.t("started") }
        let minutes = Int((delta / 60).rounded(.up))
        if minutes < 60 { return localizer.n("in {count} minute", "in {count} minutes", count: minutes) }
        let hours = minutes / 60
        if hours < 24 { return localizer.n("in {count} hour", "in {count} hours", count: hours) }
        return localizer.n("in {count} day", "in {count} days", count: hours / 24)
    }

    // MARK: Helpers

    private func fail(_ text: String) {
        message = (text, true)
        notifyChanged()
    }

    /// Runs a request; a refusal becomes the message. Returns whether it succeeded.
    @discardableResult
    private func attempt(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch let error as GamesClientError {
            fail(error.message)
        } catch {
            fail("\(error)")
        }
        return false
    }
}
