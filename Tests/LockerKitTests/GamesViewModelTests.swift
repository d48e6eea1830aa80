import Foundation
import XCTest
@testable import LockerKit

/// A client in memory: what the view-model asks for, and canned answers.
final class FakeGamesClient: GamesClient, @unchecked Sendable {
    var user: String?
    var games: [GameListing] = []
    var calls: [String] = []
    var refuse: GamesError?
    /// Called with each change the live feed would bring.
    var feed: (@Sendable (GamesFeedEvent) -> Void)?
    var watcher: (@Sendable (GamesChange) -> Void)? { feed.map { feed in { @Sendable change in feed(.change(change)) } } }

    func check() throws { if let refuse { throw refuse } }
    private func enter(_ call: String, _ name: String) throws -> GamesAnswer {
        calls.append("\(call) \(name)")
        try check()
        user = name
        return .account(name: name)
    }
    func send(_ request: GamesRequest) throws -> GamesAnswer {
        switch request {
        case .whoAmI:
            guard let user else { throw GamesError.notLoggedIn }
            return .account(name: user)
        case .signUp(let name, _):
            return try enter("signUp", name)
        case .login(let name, _):
            return try enter("login", name)
        case .logout:
            calls.append("logout")
            user = nil
            return .done
        case .upcoming:
            return .games(list: games)
        case .search(let place):
            calls.append("search \(place)")
            return .found(grounds: [GroundListing(id: "casey-fields", name: "Casey Fields", suburb: "Cranbourne East", postcode: place,
                                                  approximate: false, distanceMeters: 2420)], games: games)
        case .book(let id):
            calls.append("book \(id)")
            try check()
            return .game(listing: game(id: id, startsAt: "2099-01-01T10:00:00Z"))
        case .cancelBooking(let id):
            calls.append("cancel \(id)")
            return .game(listing: game(id: id, startsAt: "2099-01-01T10:00:00Z", mine: nil))
        case .cancelGame(let id, let reason):
            calls.append("cancelGame \(id) \(reason)")
            return .game(listing: game(id: id, startsAt: "2099-01-01T10:00:00Z", status: .cancelled, mine: .organiser))
        case .create(let new):
            calls.append("create \(new.ground) \(new.players)/\(new.capacity)")
            try check()
            return .game(listing: game(id: 9, startsAt: new.startsAt, mine: .organiser))
        case .edit(let id, let changes):
            calls.append("edit \(id) \(changes.capacity.map(String.init) ?? "-")")
            return .game(listing: game(id: id, startsAt: "2099-01-01T10:00:00Z", mine: .organiser))
        case .roster(let id):
            return .roster(list: GameRoster(game: id, going: [.init(name: "bo", since: "2026-11-20T10:00:00Z")], waitlisted: []))
        case .exportCalendar(let id, let path):
            calls.append("ics \(id) \(path)")
            return .done
        }
    }
    func cancelInFlight() {}
    func watch(_ onEvent: @escaping @Sendable (GamesFeedEvent) -> Void) { feed = onEvent }

    func game(id: Int64, startsAt: String, status: GameStatus = .open, mine: PlayerPart? = .going) -> GameListing {
        GameListing(id: id, ground: "casey-fields", groundName: "Casey Fields", suburb: "Cranbourne East", startsAt: startsAt,
                    capacity: 22, players: 3, going: 1, waitlisted: 0, status: status, myStatus: mine, organiser: "org",
                    note: nil, cancelReason: nil, map: "https://www.openstreetmap.org/?mlat=-38.12&mlon=145.30")
    }
}

final class GamesViewModelTests: XCTestCase {
    let work = BackgroundWork()

    func model(_ client: FakeGamesClient, now: Double = 0) -> GamesViewModel {
        GamesViewModel(localizer: .english, client: client, work: work, now: { now })
    }

    func testSignUpIsCheckedBeforeAskingTheStore() {
        let client = FakeGamesClient()
        let model = model(client)
        model.signUp(name: "al", password: "longenough", confirmation: "longenough")
        XCTAssertNotNil(model.message)
        model.signUp(name: "alice", password: "short", confirmation: "short")
        XCTAssertEqual(model.message, "A password has 8 to 200 characters and no control characters.")
        model.signUp(name: "alice", password: "long\u{0}enough", confirmation: "long\u{0}enough")
        XCTAssertNotNil(model.message, "a NUL in a password is refused")
        model.signUp(name: "-alice", password: "longenough", confirmation: "longenough")
        XCTAssertNotNil(model.message, "a name cannot start with a dash (it would read as an option)")
        model.signUp(name: "alice", password: "longenough", confirmation: "longenougj")
        XCTAssertEqual(model.message, "The two passwords differ; type them again.")
        XCTAssertEqual(client.calls, [])
        model.signUp(name: "alice", password: "longenough", confirmation: "longenough")
        XCTAssertEqual(model.busy, "Signing up…", "the request is on its way; the UI thread is free")
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(client.calls, ["signUp alice"])
        XCTAssertEqual(model.user, "alice")
        XCTAssertNil(model.busy)
    }

    func testRefusalsBecomeTheMessageInTheUsersLanguage() {
        let client = FakeGamesClient()
        client.user = "alice"
        let model = model(client)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        client.refuse = .gameCancelled
        model.book(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.message, "This game was cancelled.")
        XCTAssertNotNil(model.message)
        model.search(postcode: "39")
        XCTAssertEqual(model.message, "“39” is not a postcode: write 4 digits, like 3977.")
        client.refuse = nil
        model.search(postcode: "-38.03,145.34")
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.searchedPlace, "-38.03,145.34", "a position works as well as a postcode")
        let french = GamesViewModel(localizer: Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .fr),
                                    client: client, work: work, now: { 0 })
        client.refuse = .unreachable(.noAnswerWithin(seconds: 10))
        french.book(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertNotEqual(french.message?.hasPrefix("The games server"), true, "translated: \(french.message ?? "")")
    }

    func testOneRequestAtATimeAndEscStopsWaiting() {
        let client = FakeGamesClient()
        client.user = "alice"
        let model = model(client)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        model.book(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        model.book(client.game(id: 5, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertEqual(model.message, "Still waiting for: Booking… (Esc stops waiting).")
        model.cancelRequest()
        XCTAssertNil(model.busy)
        XCTAssertTrue(model.message?.hasPrefix("Stopped waiting.") == true)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertFalse(model.message?.hasPrefix("You are going") == true, "a result nobody waits for is dropped")
    }

    func testResultsComeInTheResponseAndLiveChangesRefresh() {
        let client = FakeGamesClient()
        client.user = "alice"
        let model = model(client)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        model.search(postcode: "3977")
        XCTAssertTrue(work.waitUntilIdle())
        model.book(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.upcoming.map(\.id), [4], "the booked game joins your games from the booking's own answer")
        XCTAssertEqual(client.calls, ["search 3977", "book 4"], "no second round of requests")
        client.games = [client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"), client.game(id: 6, startsAt: "2099-01-02T10:00:00Z")]
        let watcher = try! XCTUnwrap(client.watcher, "the live feed is followed once logged in")
        watcher(GamesChange(sequence: 9, kind: .created, game: 6, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.nearby.map(\.id), [4, 6], "another player's new game shows without a key")
    }

    /// The live feed echoes the user's own booking; the booking's answer already showed it, so
    /// the echo reads nothing again. Another player's booking of the same game still does.
    func testTheUsersOwnChangeIsNotReadTwice() {
        let client = FakeGamesClient()
        client.user = "alice"
        var clock = 1000.0
        let model = GamesViewModel(localizer: .english, client: client, work: work, now: { clock })
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        model.search(postcode: "3977")
        XCTAssertTrue(work.waitUntilIdle())
        model.book(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertTrue(work.waitUntilIdle())
        let watcher = try! XCTUnwrap(client.watcher)
        watcher(GamesChange(sequence: 10, kind: .booked, game: 4, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(client.calls, ["search 3977", "book 4"], "the echo of the user's own booking reads nothing")
        watcher(GamesChange(sequence: 11, kind: .booked, game: 4, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(client.calls, ["search 3977", "book 4", "search 3977"], "another player's booking reads the lists")
        model.cancel(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertTrue(work.waitUntilIdle())
        clock += GamesViewModel.echoWait + 1
        watcher(GamesChange(sequence: 12, kind: .unbooked, game: 4, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(client.calls.last, "search 3977", "an echo that never came stops being waited for")
    }

    /// A server that stops answering without closing anything (hung) keeps the live feed silent:
    /// a request that times out marks it unreachable, and the next answer clears the mark.
    func testARequestThatTimesOutMarksTheServerUnreachableUntilOneIsAnswered() throws {
        let client = FakeGamesClient()
        client.user = "org"
        let model = model(client, now: 1_000)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        let feed = try XCTUnwrap(client.feed)
        feed(.reachable(server: "http://127.0.0.1:8787"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertNil(model.unreachableSince)
        let game = client.game(id: 4, startsAt: "2099-01-01T10:00:00Z")
        client.refuse = .unreachable(.noAnswerWithin(seconds: 10))
        model.book(game)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.unreachableSince, 1_000)
        client.refuse = nil
        model.book(game)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertNil(model.unreachableSince, "it answered")
    }

    /// Issue 26, item 11: another player's change to one of the user's games says so once.
    func testOtherPlayersChangesToYourGamesAreNoticed() {
        let client = FakeGamesClient()
        client.user = "org"
        var game = client.game(id: 5, startsAt: "2099-01-01T10:00:00Z", mine: .organiser)
        client.games = [game]
        let model = model(client)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        let watcher = try! XCTUnwrap(client.watcher)
        game.going = 2
        client.games = [game]
        watcher(GamesChange(sequence: 1, kind: .booked, game: 5, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.message, "Someone joined game 5: 5/22 going.")
        // Full: a booking goes to the waitlist, and the notice says so; a leaving with players
        // waiting counts them too.
        game.capacity = 5
        game.waitlisted = 1
        client.games = [game]
        watcher(GamesChange(sequence: 11, kind: .booked, game: 5, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.message, "Someone joined the waitlist of game 5: 1 waiting.")
        game.waitlisted = 0
        client.games = [game]
        watcher(GamesChange(sequence: 12, kind: .unbooked, game: 5, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.message, "Someone left game 5: 5/5 going, 0 waiting.")
        game.status = .cancelled
        game.cancelReason = "Rain"
        client.games = [game]
        watcher(GamesChange(sequence: 2, kind: .cancelled, game: 5, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.message, "Game 5 was called off: Rain")
        // A player on the waitlist hears that a place came free.
        var waiting = client.game(id: 6, startsAt: "2099-01-02T10:00:00Z", mine: .waitlisted)
        client.games = [waiting]
        model.refresh()
        XCTAssertTrue(work.waitUntilIdle())
        waiting.myStatus = .going
        client.games = [waiting]
        watcher(GamesChange(sequence: 3, kind: .unbooked, game: 6, ground: "casey-fields"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.message, "A place came free in game 6: you are going.")
    }

    /// Issue 26, item 4: the live feed's word on the server becomes the tab's state.
    func testTheFeedSaysWhenTheServerCannotBeReached() {
        let client = FakeGamesClient()
        client.user = "org"
        var clock = 1000.0
        let model = GamesViewModel(localizer: .english, client: client, work: work, now: { clock })
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        let feed = try! XCTUnwrap(client.feed)
        XCTAssertFalse(model.storeKnown)
        feed(.reachable(server: "https://games.example.org"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.server, "https://games.example.org")
        XCTAssertNil(model.unreachableSince)
        feed(.unreachable(server: "https://games.example.org"))
        XCTAssertTrue(work.waitUntilIdle())
        clock += 30
        feed(.unreachable(server: "https://games.example.org"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.unreachableSince, 1000, "since the first word of it")
        client.calls = []
        feed(.reachable(server: "https://games.example.org"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertNil(model.unreachableSince)
        XCTAssertEqual(client.calls, [], "nothing searched yet: only the user's games are read again")
    }

    func testTheOrganiserCallsAGameOffEditsItAndSeesTheRoster() {
        let client = FakeGamesClient()
        client.user = "org"
        let model = model(client)
        var outcomes: [GamesOutcome] = []
        let token = model.observeOutcomes { outcomes.append($0) }
        defer { token.cancel() }
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(outcomes, [.sessionRead(loggedIn: true)])
        let game = client.game(id: 5, startsAt: "2099-01-01T10:00:00Z", mine: .organiser)
        model.cancelGame(game, reason: "   ")
        XCTAssertEqual(model.message, "Say why the game is off: the players will see it.")
        model.cancelGame(game, reason: "Rain all day")
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(client.calls.last, "cancelGame 5 Rain all day")
        XCTAssertEqual(model.message, "Game 5 is cancelled.")
        model.edit(game, localTime: nil, capacity: 12, note: nil)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(client.calls.last, "edit 5 12")
        XCTAssertEqual(outcomes.last, .formAccepted)
        model.edit(game, localTime: "tomorrow", capacity: nil, note: nil)
        XCTAssertEqual(outcomes.last, .formRefused(.badTime), "refused before it is sent")
        model.showRoster(game)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.roster?.roster.going.map(\.name), ["bo"])
        XCTAssertEqual(outcomes.last, .rosterOpened)
        model.closeRoster()
        XCTAssertEqual(outcomes.last, .rosterClosed)
        model.showRoster(client.game(id: 6, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertEqual(model.message, "Only the organiser can change or cancel the game.")
    }

    func testTodayAndUrgentReminders() throws {
        let now = try XCTUnwrap(FastTime.parse(string: "2026-11-21T09:30:00Z"))
        setenv("TZ", "UTC", 1); tzset()
        let client = FakeGamesClient()
        client.user = "alice"
        client.games = [client.game(id: 1, startsAt: "2026-11-21T10:15:00Z"), client.game(id: 2, startsAt: "2026-11-21T18:00:00Z"),
                        client.game(id: 3, startsAt: "2026-11-22T10:00:00Z"), client.game(id: 4, startsAt: "2026-11-21T12:00:00Z", status: .cancelled)]
        let model = model(client, now: now)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.todaysGames().map(\.id), [1, 2], "today only, cancelled games left out")
        XCTAssertEqual(model.urgentGame()?.id, 1, "within the hour")
        XCTAssertEqual(model.relative(now + 45 * 60), "in 45 minutes")
        XCTAssertEqual(model.relative(now + 3 * 3600), "in 3 hours")
        XCTAssertEqual(model.relative(now - 1), "started")
        XCTAssertEqual(model.attention()?.text, "Cricket today: 10:15 Casey Fields (in 45 minutes) · 18:00 Casey Fields (in 8 hours)")
    }

    /// The reminder names the ground's zone when the user's clock differs, in one bracket (issue 26).
    func testTheReminderSaysWhoseClockInOneBracket() throws {
        let now = try XCTUnwrap(FastTime.parse(string: "2026-11-21T09:30:00Z"))
        setenv("TZ", "UTC", 1); tzset()
        let client = FakeGamesClient()
        client.user = "alice"
        client.games = [GameListing(id: 9, ground: "pioneers", groundName: "Pioneers Park", suburb: "Berwick", startsAt: "2026-11-21T10:15:00Z",
                                    timeZone: "Australia/Melbourne", localStart: "2026-11-21T21:15:00+11:00", capacity: 22, players: 3,
                                    going: 1, waitlisted: 0, status: .open, myStatus: .going, organiser: "org", note: nil, cancelReason: nil, map: "")]
        let model = model(client, now: now)
        model.start()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.attention()?.text, "Cricket today: 21:15 Pioneers Park (Melbourne time, in 45 minutes)")
        XCTAssertEqual(GameTimeText.when(client.games[0], relative: "in 17 days", .english), "2026-11-21 21:15 (Melbourne time, in 17 days)")
        XCTAssertEqual(GameTimeText.when(client.games[0], relative: "in 17 days", .english, userOffset: { _ in 39_600 }), "2026-11-21 21:15 (in 17 days)")
    }
}
