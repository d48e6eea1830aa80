import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

private final class CannedGamesClient: GamesClient, @unchecked Sendable {
    var user: String?
    /// The user's part in the one game (the footer walk organises it).
    var part: PlayerPart? = .going
    var listing: GameListing {
        GameListing(id: 7, ground: "casey-fields", groundName: "Casey Fields", suburb: "Cranbourne East",
                    startsAt: "2026-11-21T10:15:00Z", timeZone: localStart.isEmpty ? "UTC" : "Australia/Melbourne", localStart: localStart, capacity: 22, players: 3, going: 5, waitlisted: waiting, status: status,
                    myStatus: part, organiser: part == .organiser ? "sam" : "org", note: note, cancelReason: nil,
                    map: "https://www.openstreetmap.org/?mlat=-38.1206&mlon=145.3092", approximate: approximate)
    }
    var approximate = false
    var status = GameStatus.open
    var waiting = 0
    var note = "Bring\u{1B}[2J a bat"
    /// The start on the ground's clock ("" leaves it out, and the times show in UTC).
    var localStart = ""
    private(set) var cancelled = false
    var ground: GroundListing {
        GroundListing(id: "casey-fields", name: "Casey Fields", suburb: "Cranbourne East", postcode: "3977",
                      approximate: approximate, distanceMeters: 2420, timeZone: "Australia/Melbourne")
    }
    /// A refusal the next sign-up or log-in gets from the store.
    var accountRefusal: GamesError?
    private(set) var loggedOut = false
    func send(_ request: GamesRequest) throws -> GamesAnswer {
        switch request {
        case .whoAmI:
            guard let user else { throw GamesError.notLoggedIn }
            return .account(name: user)
        case .signUp(let name, _):
            if let accountRefusal { throw accountRefusal }
            user = name
            return .account(name: name)
        case .login(let name, _):
            user = name
            return .account(name: name)
        case .logout:
            user = nil
            loggedOut = true
            return .done
        case .upcoming: return .games(list: [listing])
        case .search: return .found(grounds: [ground], games: [listing])
        case .cancelBooking:
            cancelled = true
            return .game(listing: listing)
        case .book, .cancelGame, .create, .edit: return .game(listing: listing)
        case .roster(let id): return .roster(list: GameRoster(game: id, going: [.init(name: "sam", since: "")], waitlisted: []))
        case .exportCalendar: return .done
        }
    }
    func cancelInFlight() {}
    func watch(_ onEvent: @escaping @Sendable (GamesFeedEvent) -> Void) {}
}

final class GamesScreenTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func render(_ screen: GamesScreen, _ width: Int, _ height: Int) -> MemorySurface {
        let surface = MemorySurface(width: width, height: height)
        let context = RenderContext(localizer: .english, glyphs: .unicode)
        screen.layout(surface.bounds, context: context)
        screen.render(into: surface, rect: surface.bounds, context: context)
        return surface
    }

    /// A sign-up the store refuses (issue 26, item 3) keeps the form with every value typed,
    /// both passwords included, and puts the focus on the field at fault with the reason.
    func testARefusedSignUpKeepsEveryValueAndFocusesTheName() throws {
        let client = CannedGamesClient()
        client.accountRefusal = .usernameTaken
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work)
        let screen = GamesScreen(viewModel: games, exportDirectory: "/tmp")
        games.start()
        XCTAssertTrue(work.waitUntilIdle())
        _ = screen.handle(.right)   // sign up
        _ = screen.handle(.tab)
        for c in "sam" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.tab)
        for c in "secret-123" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.tab)
        for c in "secret-123" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.enter)
        XCTAssertTrue(work.waitUntilIdle())
        let text = render(screen, 80, 21).text
        let bullets = String(repeating: "•", count: 10)
        XCTAssertTrue(text.contains("sign up"), text)
        XCTAssertTrue(text.contains("▶Username") && text.contains("sam"), text)
        XCTAssertEqual(text.components(separatedBy: bullets).count - 1, 2, "both passwords are kept:\n\(text)")
        XCTAssertNotNil(games.message, "the reason is said")
    }

    func testLoggedOutFormThenUpcomingWithTheReminder() throws {
        setenv("TZ", "UTC", 1); tzset()
        let now = 1_795_253_400.0   // 2026-11-21 09:30 UTC
        let client = CannedGamesClient()
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work, now: { now })
        let screen = GamesScreen(viewModel: games, exportDirectory: "/tmp")
        XCTAssertTrue(render(screen, 80, 21).text.contains("Reading your games…"))
        XCTAssertFalse(games.started, "the shell starts the session (see testTheReminderShowsAboveEveryTabOnceLoaded)")
        games.start()
        XCTAssertTrue(work.waitUntilIdle())
        let form = render(screen, 80, 21)
        XCTAssertTrue(form.text.contains("Username"), form.text)
        assertGolden(form, "games-login-en-80x24")
        XCTAssertFalse(screen.capturesText, "on the first line the global keys (tabs, help, quit) still work")
        _ = screen.handle(.tab)
        XCTAssertTrue(screen.capturesText, "typing goes to the username field")
        for c in "sam" { _ = screen.handle(.character(c)) }
        _ = screen.handle(.tab)
        for c in "secret-123" { _ = screen.handle(.character(c)) }
        XCTAssertFalse(render(screen, 80, 21).text.contains("secret-123"), "masked")
        _ = screen.handle(.enter)
        XCTAssertTrue(render(screen, 80, 21).text.contains("Logging in…") || screen.status(.english)?.hasPrefix("Logging in…") == true)
        XCTAssertTrue(work.waitUntilIdle())
        let surface = render(screen, 120, 37)
        XCTAssertTrue(surface.text.contains("Cricket today: 10:15 Casey Fields (in 45 minutes)"), surface.text)
        XCTAssertEqual(games.attention()?.urgent, true, "within the hour: bold, and the shell rings the bell")
        XCTAssertTrue(surface.text.contains("Bring\u{FFFD}[2J"), "shared text is inert")
        assertGolden(surface, "games-en-120x40")
    }

    func testTheReminderShowsAboveEveryTabOnceLoaded() throws {
        setenv("TZ", "UTC", 1); tzset()
        let now = 1_795_253_400.0   // 2026-11-21 09:30 UTC, 45 minutes before the game
        let client = CannedGamesClient()
        client.user = "sam"
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work, now: { now })
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shell-reminder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shellModel = ShellViewModel(localizer: .english, repository: JSONRepository<Settings>(url: dir.appendingPathComponent("settings.json")),
                                        choices: StartupChoices(language: .en), writable: true)
        let shell = Shell(viewModel: shellModel, screens: BlankScreen.filling([]), attention: [games], glyphs: .unicode)
        shell.background = work
        XCTAssertEqual(shell.idleTimeout, 1000, "the games are read once keys pause")
        let before = MemorySurface(width: 80, height: 24)
        shell.render(into: before)
        XCTAssertFalse(before.text.contains("Cricket today"), "nothing is read before the pause")
        shell.tick(now: Date().addingTimeInterval(0.5))
        XCTAssertFalse(games.started, "half a second after a key is not yet a pause")
        shell.tick(now: Date().addingTimeInterval(1.1))
        XCTAssertTrue(work.waitUntilIdle())
        let after = MemorySurface(width: 80, height: 24)
        shell.render(into: after)
        XCTAssertEqual(after.lines[1].trimmingCharacters(in: .whitespaces), "! Cricket today: 10:15 Casey Fields (in 45 minutes)")
        XCTAssertTrue(shell.takeBell(), "the urgent line rings the bell")
        shell.tick()
        XCTAssertFalse(shell.takeBell(), "once")
        XCTAssertEqual(shell.idleTimeout, 30_000, "redrawn every 30 s while a game is today")
        // On the Games tab the selected game's map link is in the status line, as an OSC 8 link too.
        let withTab = Shell(viewModel: shellModel, screens: BlankScreen.filling([GamesScreen(viewModel: games, exportDirectory: "/tmp")]),
                            attention: [games], glyphs: .unicode)
        shellModel.select(.games)
        let linked = MemorySurface(width: 100, height: 24)
        withTab.render(into: linked)
        let link = try XCTUnwrap(linked.hyperlinks.first)
        XCTAssertEqual(link.url, "https://www.openstreetmap.org/?mlat=-38.1206&mlon=145.3092")
        XCTAssertTrue(linked.lines[link.y].contains(link.url))
    }

    /// A shell view-model whose settings live in a new temporary folder (removed by the caller).
    func temporaryShellModel() -> (ShellViewModel, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("games-shell-\(UUID().uuidString)")
        return (ShellViewModel(localizer: .english, repository: JSONRepository<Settings>(url: dir.appendingPathComponent("settings.json")),
                               choices: StartupChoices(language: .en), writable: true), dir)
    }

    /// Tab from the password goes back to the account form's first line, where `q` is a quit:
    /// with a name and password typed, it asks first (it quit at once, and they were lost).
    func testQuittingFromTheAccountFormsFirstLineAsksWhenSomethingIsTyped() {
        let games = GamesViewModel(localizer: .english, client: CannedGamesClient(), work: BackgroundWork())
        let (shellModel, dir) = temporaryShellModel()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shell = Shell(viewModel: shellModel, screens: BlankScreen.filling([GamesScreen(viewModel: games, exportDirectory: "/tmp")]), glyphs: .unicode)
        shellModel.select(.games)
        let size = Size(width: 80, height: 24)
        XCTAssertEqual(shell.handle(.character("q"), size: size), .quit, "nothing typed: q quits")
        let again = Shell(viewModel: shellModel, screens: BlankScreen.filling([GamesScreen(viewModel: games, exportDirectory: "/tmp")]), glyphs: .unicode)
        for key in [Key.enter] + "newplayer".map(Key.character) + [.tab] + "my secret quiz".map(Key.character) + [.tab] {
            _ = again.handle(key, size: size)
        }
        XCTAssertNotEqual(again.handle(.character("q"), size: size), .quit)
        XCTAssertTrue(again.isAskingToQuit, "typed name and password: q asks first")
    }

    func testTheShellStartsTheGamesSoonerOnTheirOwnTab() {
        let games = GamesViewModel(localizer: .english, client: CannedGamesClient(), work: BackgroundWork())
        let (shellModel, dir) = temporaryShellModel()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shell = Shell(viewModel: shellModel, screens: BlankScreen.filling([]), attention: [games], glyphs: .unicode)
        shellModel.select(.games)
        XCTAssertEqual(shell.idleTimeout, 250, "a quarter second on the tab itself, not a full one")
        shell.tick(now: Date().addingTimeInterval(0.1))
        XCTAssertFalse(games.started, "not while keys come quickly")
        shell.tick(now: Date().addingTimeInterval(0.3))
        XCTAssertTrue(games.started)
    }

    /// The Games tab's footer walk (issue 29, item 3): in every mode (log-in form, lists, details,
    /// booking question, new-game and change forms, typed lines, roster), each key the footer
    /// shows changes the screen or the status line; keys that cannot act are not shown.
    func testEveryGamesFooterKeyActsInEveryMode() throws {
        setenv("TZ", "UTC", 1); tzset()
        var observations: [ObservationToken] = []
        func screen(_ part: PlayerPart?, _ path: [Key], loggedIn: Bool = true) -> (GamesScreen, GamesViewModel, BackgroundWork) {
            let client = CannedGamesClient()
            client.user = loggedIn ? "sam" : nil
            client.part = part
            let work = BackgroundWork()
            let games = GamesViewModel(localizer: .english, client: client, work: work, now: { 1_795_253_400 })
            let screen = GamesScreen(viewModel: games, exportDirectory: NSTemporaryDirectory())
            // As the shell does: the screen follows its view-model's changes.
            if let token = screen.observeChanges({}) { observations.append(token) }
            games.start()
            _ = work.waitUntilIdle()
            for key in path {
                _ = screen.handle(key)
                _ = work.waitUntilIdle()
            }
            return (screen, games, work)
        }
        func look(_ screen: GamesScreen) -> String {
            let surface = render(screen, 100, 30)
            // The question is drawn by the shell: it is part of what the user sees.
            return surface.text + "|" + (screen.status(.english) ?? "") + "|\(String(describing: surface.cursor))|\(String(describing: screen.question))"
        }
        let p: Key = .character("p")
        let search: [Key] = [p, .character("3"), .character("9"), .character("7"), .character("7"), .enter]
        let modes: [(String, PlayerPart?, [Key], Bool)] = [
            ("log-in form", .going, [], false),
            ("log-in form, username", .going, [.enter], false),
            ("list, playing", .going, [], true),
            ("list, organising", .organiser, [], true),
            ("details, playing", .going, [.enter], true),
            ("details, organising", .organiser, [.enter], true),
            ("booking question", nil, search + [.character("b")], true),
            ("postcode line", .going, [p], true),
            ("new game", .going, search + [.character("n")], true),
            ("change form", .organiser, [.character("e")], true),
            ("reason line", .organiser, [.character("x")], true),
            ("roster", .organiser, [.character("w")], true),
        ]
        var checked = 0
        for (name, part, path, loggedIn) in modes {
            let (shown, _, _) = screen(part, path, loggedIn: loggedIn)
            let hints = shown.activeKeys(.english).footerHints
            XCTAssertFalse(hints.isEmpty, "\(name): a footer")
            for hint in hints {
                let keys = FooterHonestyTests.keys(for: hint, on: .games)
                XCTAssertFalse(keys.isEmpty, "\(name): no key for \(hint)")
                let acts = keys.contains { key in
                    let (fresh, _, work) = screen(part, path, loggedIn: loggedIn)
                    let before = look(fresh)
                    _ = fresh.handle(key)
                    _ = work.waitUntilIdle()
                    return look(fresh) != before
                }
                checked += 1
                XCTAssertTrue(acts, "\(name): the footer shows “\(hint.key) \(hint.label)” but it does nothing")
            }
        }
        XCTAssertGreaterThan(checked, 30)
        // Keys that do not apply to the game say why instead of doing nothing.
        let (playing, games, _) = screen(.going, [])
        XCTAssertFalse(playing.handle(.character("e")))
        XCTAssertEqual(playing.activeKeys(.english).disabledReason(for: .character("e")), "Only the organiser can change or cancel the game.")
        XCTAssertFalse(playing.activeKeys(.english).footerHints.contains { $0.key == "e" })
        let (organising, _, _) = screen(.organiser, [])
        XCTAssertEqual(organising.activeKeys(.english).disabledReason(for: .character("b")), "You organise this game; your place is already counted.")
        XCTAssertFalse(organising.activeKeys(.english).footerHints.contains { $0.key == "b" })
        // In the list too, the keys of the game you organise are in the footer where there is
        // room (it showed them only in the details); they give way first.
        let hints = organising.activeKeys(.english).footerHints
        for key in ["e", "x", "w", "i"] { XCTAssertTrue(hints.contains { $0.key == key }, "\(key): \(hints)") }
        let listsOwn = hints.filter { ["Enter", "p", "n"].contains($0.key) }.map(\.rank).max() ?? 0
        XCTAssertTrue(hints.filter { ["e", "x", "w", "i"].contains($0.key) }.allSatisfy { $0.rank > listsOwn }, "\(hints)")
        _ = games
    }

    /// Issue 26, items 6 and 13: giving up a seat and logging out ask first in the status line;
    /// the details say when a ground's position (and its map link) is only the suburb's centre.
    func testGivingUpASeatAndLoggingOutAskFirst() throws {
        setenv("TZ", "UTC", 1); tzset()
        let client = CannedGamesClient()
        client.user = "sam"
        client.approximate = true
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work, now: { 1_795_253_400 })
        let screen = GamesScreen(viewModel: games, exportDirectory: NSTemporaryDirectory())
        let token = screen.observeChanges {}
        games.start()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(screen.handle(.character("c")))
        XCTAssertEqual(screen.question?.title, "Give up your place in game 7?")
        XCTAssertEqual(screen.question?.message, "2026-11-21 10:15. Your place becomes free for others.", "nobody waits")
        _ = screen.handle(.character("n"))
        client.waiting = 2
        games.refresh()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(screen.handle(.character("c")))
        XCTAssertEqual(screen.question?.message, "2026-11-21 10:15. The first player waiting takes it.")
        XCTAssertEqual(screen.question?.yesSelected, false, "giving up is not the lit answer")
        _ = screen.handle(.character("n"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertFalse(client.cancelled, "n keeps the seat")
        _ = screen.handle(.character("c"))
        _ = screen.handle(.character("y"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(client.cancelled, "y gives it up")
        _ = screen.handle(.character("o"))
        XCTAssertEqual(screen.question?.title, "Log out of the games?")
        _ = screen.handle(.escape)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertFalse(client.loggedOut, "Esc stays logged in")
        _ = screen.handle(.enter)
        let details = render(screen, 120, 30).text
        XCTAssertTrue(details.contains("(approximate: the suburb's centre)"), details)
        _ = token
    }

    /// A Games screen on `client`, started and its session read, observed as the shell does.
    private func started(_ client: CannedGamesClient) -> (GamesScreen, GamesViewModel, BackgroundWork, ObservationToken?) {
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work)
        let screen = GamesScreen(viewModel: games, exportDirectory: NSTemporaryDirectory())
        let token = screen.observeChanges {}
        games.start()
        XCTAssertTrue(work.waitUntilIdle())
        return (screen, games, work, token)
    }

    /// Issue 43, item 5: letters typed into the postcode line show, and the refusal quotes them
    /// (they used to vanish, and the error quoted ""); the `~` before a distance is explained.
    func testThePostcodeLineShowsWhatWasTypedAndTheTildeIsExplained() throws {
        let client = CannedGamesClient()
        client.user = "sam"
        let (screen, games, work, token) = started(client)
        defer { _ = token }
        _ = screen.handle(.character("p"))
        for c in "3977x" { _ = screen.handle(.character(c)) }
        XCTAssertTrue(render(screen, 100, 30).text.contains("3977x"), "what was typed shows")
        _ = screen.handle(.enter)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(games.message, "“3977x” is not a postcode: write 4 digits, like 3977.")
        client.approximate = true
        games.search(postcode: "3977")
        XCTAssertTrue(work.waitUntilIdle())
        let shown = render(screen, 160, 30).text
        XCTAssertTrue(shown.contains("Casey Fields ~2.42 km"), "\n" + shown)
        XCTAssertTrue(shown.contains("(~ position approximate)"), shown)
    }

    /// A called-off game takes no booking and no giving up (the hostile walkthrough gave up a
    /// seat in one, and the count went down): the keys say why instead.
    func testACalledOffGameTakesNoBookingAndNoGivingUp() throws {
        let client = CannedGamesClient()
        client.user = "sam"
        client.status = .cancelled
        let (screen, _, _, token) = started(client)
        defer { _ = token }
        for key in ["c", "b"] {
            XCTAssertEqual(screen.activeKeys(.english).disabledReason(for: .character(Character(key))),
                           "Game 7 is called off: there is nothing to book, give up or change.", key)
        }
        _ = screen.handle(.character("c"))
        XCTAssertNil(screen.question, "no question about giving up a place")
        XCTAssertFalse(client.cancelled)
    }

    /// A booking asked for while another request is on its way is refused at once, with the
    /// reason, instead of opening a question whose answer went nowhere.
    func testKeysThatSendWaitForTheRequestOnItsWay() throws {
        let client = CannedGamesClient()
        client.user = "sam"
        client.part = nil
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work, now: { 1_795_253_400 })
        let screen = GamesScreen(viewModel: games, exportDirectory: NSTemporaryDirectory())
        let token = screen.observeChanges {}
        games.start()
        XCTAssertTrue(work.waitUntilIdle())
        games.refresh()
        XCTAssertNotNil(games.busy)
        XCTAssertFalse(screen.handle(.character("b")))
        XCTAssertNil(screen.question, "no question while the refresh is on its way")
        let reason = screen.activeKeys(.english).disabledReason(for: .character("b"))
        XCTAssertEqual(reason, "Still waiting for: Refreshing… (Esc stops waiting).")
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertTrue(screen.handle(.character("b")))
        XCTAssertEqual(screen.question?.title, "Book game 7?")
        _ = token
    }

    /// Saving the change form untouched sends nothing and says so; a field the server refuses
    /// puts the pointer on that field and names it as the form does.
    func testAnUntouchedChangeSendsNothingAndARefusedFieldIsTheFormsOwn() throws {
        setenv("TZ", "UTC", 1); tzset()
        let client = CannedGamesClient()
        client.user = "sam"
        client.part = .organiser
        client.note = "Bring a bat"
        client.localStart = "2026-11-21T21:15:00+11:00"
        let work = BackgroundWork()
        let games = GamesViewModel(localizer: .english, client: client, work: work, now: { 1_795_253_400 })
        let screen = GamesScreen(viewModel: games, exportDirectory: NSTemporaryDirectory())
        let token = screen.observeChanges {}
        games.start()
        XCTAssertTrue(work.waitUntilIdle())
        _ = screen.handle(.enter)
        _ = screen.handle(.character("e"))
        XCTAssertTrue(render(screen, 120, 30).text.contains("Change game 7"))
        _ = screen.handle(.enter)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(games.message, "Nothing changed.")
        XCTAssertFalse(render(screen, 120, 30).text.contains("Change game 7"), "the form closed")

        XCTAssertEqual(GamesForms.createRow(for: .forbiddenCharacters(field: "note")), GamesForms.CreateRow.note)
        XCTAssertEqual(GamesForms.changeRow(for: .invalid(field: "capacity")), GamesForms.ChangeRow.capacity)
        XCTAssertEqual(GamesError.forbiddenCharacters(field: "note").message(.english),
                       "“Note” holds a control character or a text-direction mark, which the games server does not take.")
        _ = token
    }

    /// Issue 26, item 5: the date row flags a time already past on the ground's clock, and a
    /// value the picker refused, as it is typed.
    func testTheDateRowFlagsThePastAsItIsTyped() {
        let now = 1_795_253_400.0   // 2026-11-21 09:30 UTC, 20:30 in Melbourne (+11:00)
        let melbourne = 11 * 3600
        func picker(_ text: String) -> DateTimePickerState { GamesForms.picker(WallTime.parse(text)!) }
        XCTAssertEqual(GamesForms.dateNote(picker("2026-11-21T20:00"), groundOffset: melbourne, now: now, .english), "in the past")
        XCTAssertNil(GamesForms.dateNote(picker("2026-11-21T21:00"), groundOffset: melbourne, now: now, .english),
                     "21:00 in Melbourne is still to come")
        var refused = picker("2026-12-01T10:00")
        for _ in 0..<2 { _ = refused.handle(.left) }
        for c in "1830" { _ = refused.handle(.character(c)) }
        XCTAssertEqual(GamesForms.dateNote(refused, groundOffset: melbourne, now: now, .english), "not a possible value")
    }

    /// The new-game form proposes tomorrow at 10:00 on the ground's clock: at 23:30 UTC it is
    /// already 10:30 tomorrow in Melbourne, where the user's "tomorrow 10:00" is in the past.
    func testTheNewGameFormProposesTomorrowAtTheGround() {
        let now = 1_795_563_000.0   // 2026-11-24 23:30 UTC, 2026-11-25 10:30 in Melbourne (+11:00)
        let melbourne = GroundListing(id: "casey-fields", name: "Casey Fields", suburb: "Cranbourne East", postcode: "3977",
                                      approximate: false, distanceMeters: 2420, timeZone: "Australia/Melbourne",
                                      utcOffsetSeconds: 11 * 3600)
        let form = GamesForms.create(grounds: [melbourne], now: now)
        let proposed = form.state.dateTime(GamesForms.CreateRow.starts)
        XCTAssertEqual(proposed.map { [$0.year, $0.month, $0.day, $0.hour, $0.minute] }, [2026, 11, 26, 10, 0])
        XCTAssertNil(GamesForms.dateNote(proposed, groundOffset: melbourne.utcOffsetSeconds, now: now, .english),
                     "the proposal is never already past")
    }
}
