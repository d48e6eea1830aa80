import Foundation
import XCTest
@testable import LockerKit

/// A client in memory: what the view-model asks for, and canned answers.
final class FakeGamesClient: GamesClient {
    var user: String?
    var games: [GameListing] = []
    var calls: [String] = []
    var refuse: String?

    func check() throws { if let refuse { throw GamesClientError(refuse) } }
    func currentUser() throws -> String? { user }
    func signUp(name: String, password: String) throws { calls.append("signUp \(name)"); try check() }
    func login(name: String, password: String) throws { calls.append("login \(name)"); try check(); user = name }
    func logout() throws { calls.append("logout"); user = nil }
    func upcoming() throws -> [GameListing] { games }
    func grounds(place: String) throws -> [GroundListing] {
        [GroundListing(id: "casey-fields", name: "Casey Fields", suburb: "Cranbourne East", postcode: place, approximate: false, distanceMeters: 2420)]
    }
    func games(place: String) throws -> [GameListing] { games }
    func book(_ id: Int64) throws { calls.append("book \(id)"); try check() }
    func cancel(_ id: Int64) throws { calls.append("cancel \(id)") }
    func cancelGame(_ id: Int64, reason: String) throws { calls.append("cancelGame \(id) \(reason)") }
    func create(ground: String, localTime: String, players: Int, capacity: Int, minimum: Int?, note: String?) throws -> GameListing {
        calls.append("create \(ground) \(localTime) \(players)/\(capacity)")
        try check()
        return game(id: 9, startsAt: "2099-01-01T10:00:00Z")
    }
    func exportCalendar(_ id: Int64, to path: String) throws { calls.append("ics \(id) \(path)") }

    func game(id: Int64, startsAt: String, status: String = "open") -> GameListing {
        GameListing(id: id, ground: "casey-fields", groundName: "Casey Fields", suburb: "Cranbourne East", startsAt: startsAt,
                    capacity: 22, players: 3, going: 1, waitlisted: 0, status: status, myStatus: "going", organiser: "org",
                    note: nil, cancelReason: nil, map: "https://www.openstreetmap.org/?mlat=-38.12&mlon=145.30")
    }
}

final class GamesViewModelTests: XCTestCase {
    func testSignUpIsCheckedBeforeAskingTheDatabase() {
        let client = FakeGamesClient()
        let model = GamesViewModel(localizer: .english, client: client, now: { 0 })
        model.signUp(name: "al", password: "longenough", confirmation: "longenough")
        XCTAssertEqual(model.message?.isError, true)
        model.signUp(name: "alice", password: "short", confirmation: "short")
        XCTAssertEqual(model.message?.text, "A password needs at least 8 characters.")
        model.signUp(name: "alice", password: "longenough", confirmation: "longenougj")
        XCTAssertEqual(model.message?.text, "The two passwords differ; type them again.")
        XCTAssertEqual(client.calls, [])
        model.signUp(name: "alice", password: "longenough", confirmation: "longenough")
        XCTAssertEqual(client.calls, ["signUp alice", "login alice"])
        XCTAssertEqual(model.user, "alice")
    }

    func testRefusalsBecomeTheMessage() {
        let client = FakeGamesClient()
        client.user = "alice"
        let model = GamesViewModel(localizer: .english, client: client, now: { 0 })
        model.start()
        client.refuse = "This game was cancelled."
        model.book(client.game(id: 4, startsAt: "2099-01-01T10:00:00Z"))
        XCTAssertEqual(model.message?.text, "This game was cancelled.")
        XCTAssertEqual(model.message?.isError, true)
        model.search(postcode: "39")
        XCTAssertEqual(model.message?.text, "“39” is not a postcode: write 4 digits, like 3977.")
        client.refuse = nil
        model.search(postcode: "-38.03,145.34")
        XCTAssertEqual(model.postcode, "-38.03,145.34", "a position works as well as a postcode")
        XCTAssertEqual(model.grounds.first?.postcode, "-38.03,145.34")
    }

    func testTheOrganiserCallsAGameOffWithAReason() {
        let client = FakeGamesClient()
        client.user = "org"
        let model = GamesViewModel(localizer: .english, client: client, now: { 0 })
        model.start()
        let game = client.game(id: 5, startsAt: "2099-01-01T10:00:00Z")
        model.cancelGame(game, reason: "   ")
        XCTAssertEqual(model.message?.text, "Say why the game is off: the players will see it.")
        model.cancelGame(game, reason: "Rain all day")
        XCTAssertEqual(client.calls.last, "cancelGame 5 Rain all day")
        XCTAssertEqual(model.message?.text, "Game 5 is cancelled.")
    }

    func testTodayAndUrgentReminders() throws {
        let now = try XCTUnwrap(FastTime.parse(string: "2026-11-21T09:30:00Z"))
        setenv("TZ", "UTC", 1); tzset()
        let client = FakeGamesClient()
        client.user = "alice"
        client.games = [client.game(id: 1, startsAt: "2026-11-21T10:15:00Z"), client.game(id: 2, startsAt: "2026-11-21T18:00:00Z"),
                        client.game(id: 3, startsAt: "2026-11-22T10:00:00Z"), client.game(id: 4, startsAt: "2026-11-21T12:00:00Z", status: "cancelled")]
        let model = GamesViewModel(localizer: .english, client: client, now: { now })
        model.start()
        XCTAssertEqual(model.todaysGames().map(\.id), [1, 2], "today only, cancelled games left out")
        XCTAssertEqual(model.urgentGame()?.id, 1, "within the hour")
        XCTAssertEqual(model.relative(now + 45 * 60), "in 45 minutes")
        XCTAssertEqual(model.relative(now + 3 * 3600), "in 3 hours")
        XCTAssertEqual(model.relative(now - 1), "started")
    }
}
