import FoundationEssentials

/// The Games tab: who is logged in, their upcoming games, the games near a place, and the intents
/// (sign up, log in, search, book, cancel, create, edit, roster, export). Every request runs on a
/// background thread through `BackgroundWork`; while one is in flight `busy` names it ("Booking…")
/// and Esc (`cancelRequest`) stops waiting. Changes other players make arrive through the live
/// feed and refresh the lists without a key. Refusals become `message`, in the interface language.
public final class GamesViewModel: ViewModel, AttentionSource {
    public let tab = Tab.games
    public let localizer: Localizer
    private let client: GamesClient
    private let work: BackgroundWork
    private let now: () -> Double

    public private(set) var user: String?
    public private(set) var upcoming: [GameListing] = []
    /// The place last searched, as typed: a postcode ("3977") or a position ("-38.03,145.34");
    /// empty before the first search.
    public private(set) var searchedPlace = ""
    public private(set) var grounds: [GroundListing] = []
    public private(set) var nearby: [GameListing] = []
    /// The roster shown for a game the user organises (`w`), until dismissed.
    public private(set) var roster: (game: GameListing, roster: GameRoster)?
    /// The last outcome to show (a success or a refusal), in the interface language.
    @Expiring public private(set) var message: String?
    /// When `message` goes away by itself.
    public var messageExpiry: Date? { $message.expiresAt }
    public private(set) var started = false
    /// True once the first answer (who is logged in) came back, or failed.
    public private(set) var sessionKnown = false
    /// What is being asked of the games store right now ("Booking…"), or nil.
    public private(set) var busy: String?
    /// Where the games are, as the live feed last said: the server's address, or nil for the
    /// games file on this computer. Unknown (`storeKnown` false) until the feed has spoken.
    public private(set) var server: String?
    public private(set) var storeKnown = false
    /// Since when the server cannot be reached (the feed keeps trying), nil while it can.
    public private(set) var unreachableSince: Double?
    /// Whether the request on its way is a form's (log in, sign up, new game, change a game):
    /// its answer is then `formAccepted` or `formRefused`.
    private var formAwaitingAnswer = false
    private let outcomeObservers = Observers<GamesOutcome>()

    private var request: BackgroundJob?
    /// The live feed's reads of both lists: one running and one next, however many changes come.
    private lazy var quietRefresh = SingleJob<GamesMessage>(work) { [weak self] result in
        if case .success(let message) = result { self?.update(message) }
    }
    /// The live feed's echoes of the user's own changes, not yet seen: the answer to the request
    /// already put the changed game in the lists, so its echo need not read them again.
    private var expectedEchoes: [(kind: GamesChange.Kind, game: Int64, until: Double)] = []
    /// How long an own change's echo is waited for (the feed answers within a second or two;
    /// an expected echo that never comes must not hide another player's change for long).
    static let echoWait: Double = 5
    /// Other players' changes to the user's own games, waiting for the lists read after them:
    /// each becomes one notice (someone joined, left, a place came free, the game was changed
    /// or called off). The game as it was before is kept to tell what changed.
    private var noticesDue: [(kind: GamesChange.Kind, before: GameListing)] = []
    private var watching = false

    public init(localizer: Localizer, client: GamesClient, work: BackgroundWork,
                now: @escaping () -> Double = { Date().timeIntervalSince1970 }) {
        self.localizer = localizer
        self.client = client
        self.work = work
        self.now = now
        super.init()
    }

    public var currentTime: Double { now() }

    /// Registers `callback` for every outcome that moves the tab (logged in, a form refused, a
    /// roster opened…), called before the observers of `observe` hear of the change. Keep the
    /// token: the observation lasts as long as it does.
    public func observeOutcomes(_ callback: @escaping (GamesOutcome) -> Void) -> ObservationToken { outcomeObservers.add(callback) }

    private func emit(_ outcome: GamesOutcome) { outcomeObservers.notify(outcome) }

    /// Reads the session and the upcoming games, once: the shell calls it when keys pause after
    /// start-up (for the reminder line) or when the tab is shown, whichever comes first.
    public func start() {
        guard !started else { return }
        started = true
        readSession()
    }

    /// True while the session could not be read because the games server could not be reached:
    /// the saved session is kept (nobody is logged out), the live feed watches for the server,
    /// and the session is read again as soon as it answers, or at once with `retrySession()`.
    public private(set) var sessionPending = false
    /// Whether the request on its way is the reading of the session.
    private var readingSession = false

    private func readSession() {
        readingSession = true
        perform(localizer.t("Reading your games…")) { client in
            let name: String
            do { name = try client.send(.whoAmI).account() } catch GamesError.notLoggedIn { return .session(name: nil, upcoming: []) }
            return .session(name: name, upcoming: try client.send(.upcoming).games())
        }
    }

    /// Reads the session again now (`r` while the server could not be reached at start).
    public func retrySession() {
        guard sessionPending, waitingReason == nil else { return }
        readSession()
    }

    // MARK: Accounts

    /// Checks the form first (same rules as the server) so mistakes are told at once: a mistake
    /// the store need not see is `formRefused` at once.
    public func signUp(name: String, password: String, confirmation: String) {
        guard GamesLimits.isValidUsername(name) else { return refuse(.badUsername) }
        guard GamesLimits.isValidPassword(password) else { return refuse(.badPassword) }
        guard password == confirmation else { return refuse(.passwordsDiffer) }
        return enter(localizer.t("Signing up…")) { try $0.send(.signUp(name: name, password: password)).account() }
    }

    public func login(name: String, password: String) {
        enter(localizer.t("Logging in…")) { try $0.send(.login(name: name, password: password)).account() }
    }

    private func enter(_ label: String, _ call: @escaping @Sendable (GamesClient) throws -> String) {
        perform(label, submitting: true) { client in
            let name = try call(client)
            return .entered(name: name, upcoming: try client.send(.upcoming).games())
        }
    }

    public func logout() {
        perform(localizer.t("Logging out…")) { client in
            _ = try client.send(.logout)
            return .loggedOut
        }
    }

    // MARK: Games

    /// Reads the lists again (the `r` key).
    public func refresh() {
        let read = readLists()
        perform(localizer.t("Refreshing…")) { .refreshed(try read($0)) }
    }

    /// The call that reads both lists again, for a background thread.
    private func readLists() -> @Sendable (GamesClient) throws -> GamesLists {
        let place = Place(searchedPlace)
        return { client in
            GamesLists(upcoming: try client.send(.upcoming).games(), near: try place.map { try client.send(.search(place: $0.text)).found() })
        }
    }

    private func show(_ lists: GamesLists) {
        upcoming = lists.upcoming
        if let near = lists.near { grounds = near.grounds; nearby = near.games }
    }

    /// Searches near a postcode ("3977") or a position ("-38.03,145.34").
    public func search(postcode text: String) {
        let code = text.filter { !$0.isWhitespace }
        guard let place = Place(code) else {
            return fail(localizer.t("“{postcode}” is not a postcode: write 4 digits, like 3977.", ["postcode": TerminalText.inert(code)]))
        }
        perform(localizer.t("Searching near {place}…", ["place": code])) { client in
            let found = try client.send(.search(place: place.text)).found()
            return .searched(place: code, grounds: found.grounds, games: found.games)
        }
    }

    public func book(_ game: GameListing) {
        perform(localizer.t("Booking…")) { .booked(try $0.send(.book(game: game.id)).game()) }
    }

    /// Gives up a seat or leaves the waitlist.
    public func cancel(_ game: GameListing) {
        perform(localizer.t("Cancelling your booking…")) { .unbooked(try $0.send(.cancelBooking(game: game.id)).game()) }
    }

    /// Calls off a game the user organises; a reason is required (players see it).
    public func cancelGame(_ game: GameListing, reason: String) {
        let text = reason.trimmingSpaces
        guard !text.isEmpty else { return fail(GamesError.reasonMissing.message(localizer)) }
        perform(localizer.t("Calling the game off…")) { .calledOff(try $0.send(.cancelGame(game: game.id, reason: text)).game()) }
    }

    /// Creates a game at a ground found by the last search; `localTime` is "2026-12-05T10:00" on
    /// the ground's clock. Returns false when the form has a mistake the server need not see.
    /// A mistake the store need not see is `formRefused` at once.
    public func create(ground: String, localTime: String, players: Int, capacity: Int, minimum: Int?, note: String?) {
        guard WallTime.parse(localTime) != nil else { return refuse(.badTime) }
        let game = NewGame(ground: ground, startsAt: localTime, players: players, capacity: capacity, minimum: minimum, note: note)
        return perform(localizer.t("Creating the game…"), submitting: true) { .created(try $0.send(.create(game: game)).game()) }
    }

    /// Changes a game the user organises; players beyond a lowered capacity go to the head of
    /// the waitlist.
    public func edit(_ game: GameListing, localTime: String?, capacity: Int?, note: String?) {
        if let localTime, WallTime.parse(localTime) == nil { return refuse(.badTime) }
        guard localTime != nil || capacity != nil || note != nil else {
            // Nothing to send: the form closes, as after a save.
            $message.confirm(localizer.t("Nothing changed."))
            emit(.formAccepted)
            notifyChanged()
            return
        }
        let changes = GameChanges(startsAt: localTime, capacity: capacity, note: note)
        return perform(localizer.t("Saving the game…"), submitting: true) { .edited(try $0.send(.edit(game: game.id, changes: changes)).game()) }
    }

    /// Who is going and who waits, for a game the user organises.
    public func showRoster(_ game: GameListing) {
        guard game.myStatus == .organiser else { return fail(GamesError.notOrganiser.message(localizer)) }
        perform(localizer.t("Reading the roster…")) { .roster(game, try $0.send(.roster(game: game.id)).roster()) }
    }

    public func closeRoster() {
        roster = nil
        emit(.rosterClosed)
        notifyChanged()
    }

    /// Writes the game's .ics into `directory`.
    public func exportCalendar(_ game: GameListing, directory: String) {
        let path = directory + "/game-\(game.id).ics"
        perform(localizer.t("Writing {file}…", ["file": path])) { client in
            _ = try client.send(.exportCalendar(game: game.id, path: path))
            return .exported(path: path)
        }
    }

    /// Esc while a request is in flight: stop waiting for it. What the store already did stays
    /// done; the lists are read again to show it.
    public func cancelRequest() {
        guard let request else { return }
        request.cancel()
        work.start({ [client] _ in client.cancelInFlight() }) { _ in }
        self.request = nil
        busy = nil
        formAwaitingAnswer = false
        message = localizer.t("Stopped waiting. If the games store already did it, the lists show it in a moment.")
        notifyChanged()
        refreshQuietly()
    }


    // MARK: Live

    /// Starts the live feed once logged in: a change at a listed game or a searched ground reads
    /// the lists again (quietly, without the busy line).
    private func follow() {
        guard !watching else { return }
        watching = true
        // A background job like any request: asking may (re)start the helper process.
        let onChange = work.channel { [weak self] (event: GamesFeedEvent) in self?.update(.feed(event)) }
        work.start({ [client] _ in client.watch(onChange) }) { _ in }
    }

    private func changeArrived(_ change: GamesChange) {
        guard user != nil else { return }
        let time = now()
        expectedEchoes.removeAll { $0.until < time }
        // The user's own change, already shown from the request's answer: one echo is skipped.
        // A second player's same change at the same moment still refreshes: the echo it takes
        // the place of comes later and reads the lists then.
        if let echo = expectedEchoes.firstIndex(where: { $0.kind == change.kind && $0.game == change.game }) {
            expectedEchoes.remove(at: echo)
            return
        }
        let relevant = change.kind == .reload || grounds.contains { $0.id == change.ground } || upcoming.contains { $0.id == change.game }
            || nearby.contains { $0.id == change.game }
        if let mine = upcoming.first(where: { $0.id == change.game }), change.kind != .reload, change.kind != .created {
            noticesDue.append((change.kind, mine))
        }
        if relevant { refreshQuietly() }
    }

    private func refreshQuietly() {
        let read = readLists()
        quietRefresh.request { [client] _ in .quietlyRead(try read(client)) }
    }

    /// Notes that the live feed will echo the user's own change to `game`.
    private func expectEcho(_ kind: GamesChange.Kind, _ game: GameListing) {
        expectedEchoes.append((kind, game.id, now() + Self.echoWait))
    }

    /// Puts a changed game into both lists (added to "your games" when it is now yours).
    private func apply(_ game: GameListing) {
        if let index = nearby.firstIndex(where: { $0.id == game.id }) { nearby[index] = game }
        else if grounds.contains(where: { $0.id == game.ground }) { nearby.append(game); nearby.sort { ($0.start, $0.id) < ($1.start, $1.id) } }
        if let index = upcoming.firstIndex(where: { $0.id == game.id }) {
            if game.myStatus == nil { upcoming.remove(at: index) } else { upcoming[index] = game }
        } else if game.myStatus != nil {
            upcoming.append(game)
            upcoming.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        }
    }

    // MARK: Reminders

    /// Local midnight to midnight, as last worked out (`todaysGames`).
    private var today: Range<Double>?

    /// The user's games that start today (local time), not cancelled.
    public func todaysGames() -> [GameListing] {
        guard !upcoming.isEmpty else { return [] }
        let current = now()
        // Every frame asks: mktime re-reads the time zone each call, so today is kept until it ends.
        let day = today.flatMap { $0.contains(current) ? $0 : nil } ?? LocalTime.dayRange(containing: current)
        today = day
        return upcoming.filter { day.contains($0.start) && $0.status != .cancelled && $0.start > current - 3 * 3600 }
    }

    /// A game today that starts within the next 60 minutes.
    public func urgentGame() -> GameListing? {
        let current = now()
        return todaysGames().first { $0.start > current && $0.start - current <= 3600 }
    }

    /// The reminder line for today's games ("Cricket today: 10:15 Casey Fields (in 45
    /// minutes)"), urgent when one starts within the hour; nil when there is none.
    public func attention() -> AttentionLine? {
        let today = todaysGames()
        guard !today.isEmpty else { return nil }
        let games = today.map { game in
            GameTimeText.clock(game) + " " + TerminalText.inert(game.groundName) + " " + GameTimeText.note(game, relative: relative(game.start), localizer)
        }.joined(separator: " · ")
        let urgent = urgentGame()
        return AttentionLine(text: localizer.t("Cricket today: {games}", ["games": games]), urgent: urgent != nil,
                             bellID: urgent.map { "game-\($0.id)" })
    }

    /// Relative times move on every half minute while a game is today.
    public var attentionRefresh: Int? { todaysGames().isEmpty ? nil : 30_000 }

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

    // MARK: Requests

    private func fail(_ text: String) {
        message = text
        notifyChanged()
    }

    /// A form refused before it is sent: the reason shows and the form goes to the field.
    private func refuse(_ error: GamesError) {
        message = error.message(localizer)
        emit(.formRefused(error))
        notifyChanged()
    }

    /// Why another request cannot be sent now (one is on its way), or nil.
    public var waitingReason: String? {
        guard request != nil else { return nil }
        return localizer.t("Still waiting for: {request} (Esc stops waiting).", ["request": busy ?? ""])
    }

    /// Runs `call` off the UI thread; its message (or its refusal) goes through `update` on the
    /// UI thread. One request at a time: another intent meanwhile is told to wait. With
    /// `submitting`, the request is a form's: a refusal is `formRefused`.
    private func perform(_ label: String, submitting: Bool = false,
                         _ call: @escaping @Sendable (GamesClient) throws -> GamesMessage) {
        if let waiting = waitingReason { return fail(waiting) }
        formAwaitingAnswer = submitting
        busy = label
        message = nil
        notifyChanged()
        request = work.start({ [client] _ in try call(client) }) { [weak self] result in
            guard let self else { return }
            request = nil
            busy = nil
            sessionKnown = true
            let message: GamesMessage
            switch result {
            case .success(let answer): message = answer
            case .failure(let error): message = .refused(error as? GamesError ?? .serverFailed)
            }
            let wasForm = formAwaitingAnswer
            formAwaitingAnswer = false
            // A form's refusal names the field at fault; its acceptance is the answer's own
            // outcome (logged in, game created, game changed).
            if wasForm, case .refused(let error) = message { emit(.formRefused(error)) }
            update(message)
        }
    }

    // MARK: Results

    /// Every result of the background — a request's answer, the live feed's change, its quiet
    /// read of the lists — comes through here, on the UI thread (Bubble Tea's `Update(msg)`).
    public func update(_ incoming: GamesMessage) {
        let listedBefore = listedIDs
        // A request is news of the server too: one that timed out or was refused at the door
        // marks it unreachable (a hung server keeps the live feed's connection open and
        // silent), and any answer clears the mark.
        switch incoming {
        case .refused(let error) where error.meansServerAway && server != nil:
            if unreachableSince == nil { unreachableSince = now() }
        case .refused, .feed: break
        default: unreachableSince = nil
        }
        switch incoming {
        case .session(let name, let games):
            readingSession = false
            sessionPending = false
            user = name
            upcoming = games
            if name != nil { follow() }
            emit(.sessionRead(loggedIn: name != nil))
        case .entered(let name, let games):
            user = name
            upcoming = games
            $message.confirm(localizer.t("Logged in as {name}.", ["name": TerminalText.inert(name)]))
            follow()
            emit(.loggedIn)
        case .loggedOut:
            user = nil
            upcoming = []
            nearby = []
            roster = nil
            $message.confirm(localizer.t("Logged out."))
            emit(.loggedOut)
        case .refreshed(let lists):
            show(lists)
            message = nil
        case .quietlyRead(let lists):
            show(lists)
            if let notice = notices(after: lists) { message = notice }
        case .searched(let place, let found, let games):
            searchedPlace = place
            grounds = found
            nearby = games
            message = nil
        case .booked(let game):
            changed(game, .booked, game.myStatus == .waitlisted ? localizer.t("Game {id} is full: you are on the waitlist.", ["id": String(game.id)])
                                                                : localizer.t("You are going to game {id}.", ["id": String(game.id)]))
        case .unbooked(let game):
            let waited = upcoming.first { $0.id == game.id }?.myStatus == .waitlisted
            changed(game, .unbooked, waited ? localizer.t("You left the waitlist of game {id}.", ["id": String(game.id)])
                                            : localizer.t("Your booking for game {id} is cancelled.", ["id": String(game.id)]))
        case .calledOff(let game):
            changed(game, .cancelled, localizer.t("Game {id} is cancelled.", ["id": String(game.id)]))
        case .created(let game):
            changed(game, .created, localizer.t("Game {id} created.", ["id": String(game.id)]))
            emit(.formAccepted)
        case .edited(let game):
            changed(game, .edited, localizer.t("Game {id} changed.", ["id": String(game.id)]))
            emit(.formAccepted)
        case .roster(let game, let list):
            roster = (game, list)
            emit(.rosterOpened)
        case .exported(let path):
            $message.confirm(localizer.t("Wrote {file}.", ["file": path]))
        case .feed(.change(let change)):
            changeArrived(change)
            return
        case .feed(.reachable(let address)):
            let wasAway = unreachableSince != nil
            server = address
            storeKnown = true
            unreachableSince = nil
            // Back after an outage: what changed meanwhile is read at once, and an error about
            // the outage gives way to the news that it is over.
            if sessionPending {
                readSession()
            } else if wasAway {
                $message.confirm(localizer.t("The games server answers again."))
                refreshQuietly()
            }
        case .feed(.unreachable(let address)):
            server = address
            storeKnown = true
            if unreachableSince == nil { unreachableSince = now() }
        case .refused(let error):
            message = error.message(localizer)
            if readingSession {
                readingSession = false
                // The server away at start: wait for it, keeping the session, instead of
                // showing the log-in form as if nobody were logged in.
                if error.meansServerAway {
                    sessionPending = true
                    if unreachableSince == nil { unreachableSince = now() }
                    follow()
                    emit(.serverAwaited)
                }
            }
        }
        // A game no longer in either list (given up, or gone from the place searched) closes
        // whatever was open on it.
        if user != nil {
            for id in listedBefore.subtracting(listedIDs).sorted() {
                if roster?.game.id == id {
                    roster = nil
                    emit(.rosterClosed)
                }
                emit(.gameGone(id))
            }
        }
        notifyChanged()
    }

    /// The ids of the games in either list.
    private var listedIDs: Set<Int64> { Set(upcoming.map(\.id)).union(nearby.map(\.id)) }

    /// What other players changed in the user's games, now that the lists show it: one line,
    /// the latest change first when several came together.
    private func notices(after lists: GamesLists) -> String? {
        defer { noticesDue = [] }
        let lines = noticesDue.reversed().compactMap { due -> String? in
            let id = String(due.before.id)
            guard let after = lists.upcoming.first(where: { $0.id == due.before.id }) else {
                return due.kind == .cancelled ? localizer.t("Game {id} was called off.", ["id": id]) : nil
            }
            if due.before.myStatus == .waitlisted && after.myStatus == .going {
                return localizer.t("A place came free in game {id}: you are going.", ["id": id])
            }
            let places = localizer.t("{going}/{capacity} going", ["going": String(after.seatsUsed), "capacity": String(after.capacity)])
            // A booking that took no seat went to the waitlist; a leaving with players waiting may
            // have freed a seat for the first of them, so the waitlist is counted too.
            switch due.kind {
            case .booked where after.waitlisted > due.before.waitlisted && after.seatsUsed == due.before.seatsUsed:
                return localizer.n("Someone joined the waitlist of game {id}: {count} waiting.", "Someone joined the waitlist of game {id}: {count} waiting.",
                                   count: after.waitlisted, ["id": id])
            case .booked: return localizer.t("Someone joined game {id}: {places}.", ["id": id, "places": places])
            case .unbooked where due.before.waitlisted > 0:
                return localizer.n("Someone left game {id}: {places}, {count} waiting.", "Someone left game {id}: {places}, {count} waiting.",
                                   count: after.waitlisted, ["id": id, "places": places])
            case .unbooked: return localizer.t("Someone left game {id}: {places}.", ["id": id, "places": places])
            case .edited: return localizer.t("Game {id} was changed by its organiser.", ["id": id])
            case .cancelled:
                return after.cancelReason.map { localizer.t("Game {id} was called off: {reason}", ["id": id, "reason": GameStatusText.reason($0, localizer)]) }
                    ?? localizer.t("Game {id} was called off.", ["id": id])
            case .created, .reload: return nil
            }
        }
        guard let first = lines.first else { return nil }
        return lines.count == 1 ? first : first + " " + localizer.n("({count} more change)", "({count} more changes)", count: lines.count - 1)
    }

    /// The answer to the user's own change: shown at once, its live-feed echo expected.
    private func changed(_ game: GameListing, _ kind: GamesChange.Kind, _ text: String) {
        expectEcho(kind, game)
        apply(game)
        $message.confirm(text)
    }
}

/// Your games, and the grounds and games near the searched place (when there is one).
public struct GamesLists: Sendable {
    public var upcoming: [GameListing]
    public var near: (grounds: [GroundListing], games: [GameListing])?
}

/// What the background brings back to the Games tab, through `GamesViewModel.update`.
public enum GamesMessage: Sendable {
    case session(name: String?, upcoming: [GameListing])
    case entered(name: String, upcoming: [GameListing])
    case loggedOut
    case refreshed(GamesLists)
    /// The lists read again after a live change, without the busy line.
    case quietlyRead(GamesLists)
    case searched(place: String, grounds: [GroundListing], games: [GameListing])
    case booked(GameListing)
    case unbooked(GameListing)
    case calledOff(GameListing)
    case created(GameListing)
    case edited(GameListing)
    case roster(GameListing, GameRoster)
    case exported(path: String)
    /// The live feed: a change (another player's, or the echo of the user's own), or the
    /// store reachable again or no longer.
    case feed(GamesFeedEvent)
    case refused(GamesError)
}

/// What an answer did that moves the Games tab from one mode to another, one per answer
/// (`GamesViewModel.observeOutcomes`); the screen's next mode is a pure function of its mode
/// and this.
public enum GamesOutcome: Equatable, Sendable {
    /// Who is logged in was read (at start, or once the server answers again).
    case sessionRead(loggedIn: Bool)
    /// The session could not be read because the server cannot be reached: it is kept, and
    /// read again as soon as the server answers.
    case serverAwaited
    case loggedIn
    case loggedOut
    /// The form sent (a new game, a change) was accepted, or had nothing to send.
    case formAccepted
    /// The form sent (log in, sign up, new game, change) was refused; the error names the field.
    case formRefused(GamesError)
    case rosterOpened
    case rosterClosed
    /// A game left both lists.
    case gameGone(Int64)
}
