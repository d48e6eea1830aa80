import Foundation
import LockerKit
import XCTest

/// The Games tab's requests, as they travel to the real helper (`locker-games games bridge`):
/// each kind of `GamesRequest` once, written with its case's name, answered by the helper over a
/// games file of its own.
final class GamesBridgeTests: XCTestCase {
    /// The kinds of request. A new case of `GamesRequest` does not compile in `kind(of:)` until it
    /// is named here, and then `testEveryRequestIsAnsweredByTheRealHelper` fails until it is sent.
    enum Kind: CaseIterable {
        case whoAmI, signUp, login, logout, upcoming, search, book, cancelBooking, cancelGame, create, edit, roster, exportCalendar
    }

    static func kind(of request: GamesRequest) -> Kind {
        switch request {
        case .whoAmI: return .whoAmI
        case .signUp: return .signUp
        case .login: return .login
        case .logout: return .logout
        case .upcoming: return .upcoming
        case .search: return .search
        case .book: return .book
        case .cancelBooking: return .cancelBooking
        case .cancelGame: return .cancelGame
        case .create: return .create
        case .edit: return .edit
        case .roster: return .roster
        case .exportCalendar: return .exportCalendar
        }
    }

    /// On the pipe a request is one object whose only key is its case's name.
    func testARequestIsWrittenWithItsCaseName() throws {
        let requests: [GamesRequest] = [.whoAmI, .signUp(name: "sam", password: "password-sam"), .book(game: 42),
                                        .create(game: NewGame(ground: "casey-fields", startsAt: "2099-01-01T10:00", players: 2)),
                                        .edit(game: 42, changes: GameChanges(capacity: 12)), .exportCalendar(game: 42, path: "/tmp/g.ics")]
        for request in requests {
            let line = GamesBridgeLine.ask(id: 7, request: request)
            let data = try JSONEncoder().encode(line)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let ask = try XCTUnwrap(object["ask"] as? [String: Any], String(decoding: data, as: UTF8.self))
            let body = try XCTUnwrap(ask["request"] as? [String: Any])
            XCTAssertEqual(Array(body.keys), ["\(Self.kind(of: request))"], String(decoding: data, as: UTF8.self))
            XCTAssertEqual(try JSONDecoder().decode(GamesBridgeLine.self, from: data), line)
        }
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(GamesBridgeLine.abort(request: 7)), as: UTF8.self), #"{"abort":{"request":7}}"#)
    }

    func testEveryRequestIsAnsweredByTheRealHelper() throws {
        guard let helper = LockerBinary.url?.deletingLastPathComponent().appendingPathComponent("locker-games"),
              FileManager.default.isExecutableFile(atPath: helper.path) else { throw XCTSkip("locker-games is not built") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-bridge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let client = BridgeGamesClient(program: helper.path, arguments: { ["--data-dir", data.path, "--lang", "en"] })
        var sent = Set<Kind>()
        func send(_ request: GamesRequest) throws -> GamesAnswer {
            sent.insert(Self.kind(of: request))
            return try client.send(request)
        }

        XCTAssertThrowsError(try send(.whoAmI)) { XCTAssertEqual($0 as? GamesError, .notLoggedIn) }
        XCTAssertEqual(try send(.signUp(name: "organiser", password: "password-organiser")), .account(name: "organiser"))
        XCTAssertEqual(try send(.whoAmI), .account(name: "organiser"))
        XCTAssertEqual(try send(.upcoming), .games(list: []))
        let ground = try XCTUnwrap(try send(.search(place: "3977")).found().grounds.first)
        let day = Date(timeIntervalSinceNow: 10 * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: ground.timeZone) ?? .current
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        let start = String(format: "%04d-%02d-%02dT10:00", parts.year!, parts.month!, parts.day!)
        let game = try send(.create(game: NewGame(ground: ground.id, startsAt: start, players: 2, capacity: 10))).game()
        XCTAssertEqual(game.myStatus, .organiser)
        XCTAssertEqual(try send(.edit(game: game.id, changes: GameChanges(capacity: 12))).game().capacity, 12)
        XCTAssertEqual(try send(.logout), .done)
        XCTAssertEqual(try send(.signUp(name: "player", password: "password-player")), .account(name: "player"))
        XCTAssertEqual(try send(.book(game: game.id)).game().myStatus, .going)
        XCTAssertNil(try send(.cancelBooking(game: game.id)).game().myStatus)
        XCTAssertEqual(try send(.logout), .done)
        XCTAssertEqual(try send(.login(name: "organiser", password: "password-organiser")), .account(name: "organiser"))
        XCTAssertEqual(try send(.roster(game: game.id)).roster().game, game.id)
        let ics = data.appendingPathComponent("game.ics")
        XCTAssertEqual(try send(.exportCalendar(game: game.id, path: ics.path)), .done)
        XCTAssertTrue(try String(contentsOf: ics, encoding: .utf8).contains("BEGIN:VEVENT"))
        XCTAssertEqual(try send(.cancelGame(game: game.id, reason: "Rain all day")).game().status, .cancelled)
        XCTAssertThrowsError(try send(.book(game: game.id)), "a refusal comes back as its error")

        XCTAssertEqual(sent, Set(Kind.allCases), "every kind of request went to the helper")
    }
}
