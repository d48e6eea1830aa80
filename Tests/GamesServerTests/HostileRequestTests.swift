import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import XCTest
@testable import LockerGames
@testable import LockerKit

/// What strangers and crowds sent the server when it was attacked from outside (issue 42), on
/// both stores: values at the edges of their types, log-ins racing a password change, racing
/// creations, guesses from many addresses, a list too long for one answer, a club behind one
/// address. Each is sent as a client would send it, over HTTP.
extension GamesContractTests {
    func testNumbersAtTheEdgesOfTheirTypesAreRefusedByNameAndTheServerStaysUp() async throws {
        let token = try await account("edges")
        let start = startsIn(hours: 30)
        let headers = [("Authorization", "Bearer " + token), ("Content-Type", "application/json")]
        let cases: [(String, String)] = [
            (#""players": -9223372036854775808, "capacity": 4"#, "players"),
            (#""players": 2, "capacity": -9223372036854775809"#, "capacity"),
            (#""players": 2, "capacity": 4, "minimum": -9.223372036854775808e18"#, "minimum"),
            (#""players": 2, "capacity": 9223372036854775807"#, "capacity"),
            (#""players": 2, "capacity": 4294967298"#, "capacity"),
            (#""players": 2, "capacity": 18446744073709551616"#, "capacity"),
            (#""players": 2, "capacity": 2147483648"#, "capacity"),
            (#""players": 2, "capacity": 4.5"#, "capacity"),
            (#""players": 2, "players": -9223372036854775808, "capacity": 4"#, "players"),
            (#""players": 2, "capacity": 99999999999999999999999999999999999999"#, "capacity"),
        ]
        for (fields, field) in cases {
            let body = #"{"ground": "casey-fields", "startsAt": "\#(start)", \#(fields)}"#
            let (status, answer, _) = try await raw(.POST, "/v1/games", body: body, headers: headers)
            XCTAssertEqual(status, 422, body)
            XCTAssertTrue(answer.contains(#""field":"\#(field)""#), "\(body) → \(answer)")
        }
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: start, players: 1), idempotencyKey: nil, token: token)
        for capacity in ["-9223372036854775808", "1e400", "-0.5", "true", "\"4\""] {
            let (status, answer, _) = try await raw(.PATCH, "/v1/games/\(game.id)", body: #"{"capacity": \#(capacity)}"#, headers: headers)
            XCTAssertEqual(status, 422, capacity)
            XCTAssertTrue(answer.contains(#""field":""#), answer)
        }
        for path in ["/v1/games/-9223372036854775808", "/v1/games/9223372036854775808", "/v1/games/0"] {
            let (status, _, _) = try await raw(.GET, path)
            XCTAssertTrue([404, 422].contains(status), "\(path): \(status)")
        }
        // One URL per game: a sign or a leading zero is no spelling of its number.
        for path in ["/v1/games/+\(game.id)", "/v1/games/0\(game.id)"] {
            let (status, answer, _) = try await raw(.GET, path)
            XCTAssertEqual(status, 422, "\(path): \(answer)")
            XCTAssertTrue(answer.contains(#""field":"id""#), answer)
        }
        let (plain, _, _) = try await raw(.GET, "/v1/games/\(game.id)")
        XCTAssertEqual(plain, 200)
        // 24:00 is the end of a day on some clocks, and no time a game starts at.
        let midnight = #"{"ground": "casey-fields", "startsAt": "2027-02-01T24:00:00Z", "players": 1}"#
        let (status, answer, _) = try await raw(.POST, "/v1/games", body: midnight, headers: headers)
        XCTAssertEqual(status, 422)
        XCTAssertTrue(answer.contains(#""field":"startsAt""#), answer)
        // JSON that Foundation's parser would take but RFC 8259 does not: a comma before a
        // closing brace, a byte-order mark it would silently drop from a name, UTF-16.
        for body in [#"{"name": "comma", "password": "long enough pass",}"#, "{\"name\": \"\u{FEFF}bom\", \"password\": \"long enough pass\"}"] {
            let (status, answer, _) = try await raw(.POST, "/v1/accounts", body: body, headers: [("Content-Type", "application/json")])
            XCTAssertEqual(status, 422, body)
            XCTAssertTrue(answer.contains(#""field":"body""#), answer)
        }
        var utf16 = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/accounts")
        utf16.method = .POST
        utf16.body = .bytes(ByteBuffer(bytes: Array(#"{"name": "wide", "password": "long enough pass"}"#.data(using: .utf16)!)))
        let wide = try await HTTPClient.shared.execute(utf16, timeout: .seconds(10))
        XCTAssertEqual(wide.status.code, 422)
        let fraction = #"{"ground": "casey-fields", "startsAt": "2027-02-01T10:00:00.1234567891Z", "players": 1}"#
        let (fractionStatus, _, _) = try await raw(.POST, "/v1/games", body: fraction, headers: headers)
        XCTAssertEqual(fractionStatus, 422, "a fraction of a second has at most 9 digits")
        // The trap came seconds after the answer: the server must still be there.
        try await Task.sleep(nanoseconds: 500_000_000)
        let (health, _, _) = try await raw(.GET, "/healthz")
        XCTAssertEqual(health, 200)
    }

    func testALogInRacingAPasswordChangeOrADeletionGetsNoTokenThatOutlivesIt() async throws {
        for round in 0..<3 {
            let name = "racer\(round)"
            let owner = try await api.signUp(Credentials(name: name, password: "password-\(name)")).token
            // Eight log-ins with the old password, each from its own address, while the owner
            // changes it (or, in the last round, deletes the account).
            async let tokens: [String] = withTaskGroup(of: String?.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try? await self.service.login(Credentials(name: name, password: "password-\(name)"), source: "198.51.100.\(index)").token
                    }
                }
                return await group.reduce(into: []) { if let token = $1 { $0.append(token) } }
            }
            if round < 2 {
                try await api.changePassword(PasswordChange(current: "password-\(name)", new: "renewed-\(name)"), token: owner)
            } else {
                try await api.deleteAccount(password: "password-\(name)", token: owner)
            }
            for token in await tokens {
                await refuses(.notLoggedIn) { _ = try await self.api.account(token: token) }
                await refuses(.notLoggedIn) {
                    _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 40), players: 1),
                                                  idempotencyKey: nil, token: token)
                }
            }
        }
    }

    func testRacingCreationsByOneAccountHoldTheHourlyLimit() async throws {
        let token = try await account("burst")
        let made = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<30 {
                group.addTask {
                    let game = NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 50 + Double(index)), players: 1)
                    return (try? await self.api.create(game, idempotencyKey: nil, token: token)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(made, GamesLimits.gamesPerHour)
    }

    func testGuessesFromManyAddressesHoldTheNameButNotItsOwnersDevice() async throws {
        let first = try await api.signUp(Credentials(name: "owner", password: "password-owner"))
        let device = try XCTUnwrap(first.device)
        // A stranger guesses from 35 addresses, three times each: past the name's free failures.
        for address in 0..<35 {
            for _ in 0..<3 {
                _ = try? await service.login(Credentials(name: "owner", password: "not the password"), source: "203.0.113.\(address)")
            }
        }
        // A device token is what a log-in gives; a sign-up that names one is refused.
        let (signUp, answer, _) = try await raw(.POST, "/v1/accounts", body: #"{"name": "newcomer", "password": "long enough pass", "device": "\#(device)"}"#)
        XCTAssertEqual(signUp, 422)
        XCTAssertTrue(answer.contains(#""field":"device""#), answer)
        // From a new device, the owner is held by the name-wide count, and told so.
        do {
            _ = try await service.login(Credentials(name: "owner", password: "password-owner"), source: "192.0.2.1")
            XCTFail("the name-wide count holds a device it does not know")
        } catch GamesError.locked(_, let count) {
            XCTAssertEqual(count, .name)
            XCTAssertFalse(GamesError.locked(until: clock.now + 30, by: count).message(.english).contains("from here"))
        }
        // From the device it signed up on, the owner gets in, and keeps the same device token.
        let again = try await service.login(Credentials(name: "owner", password: "password-owner", device: device), source: "192.0.2.1")
        XCTAssertEqual(again.device, device)
        // A device token of another name, or made up, counts as none.
        do {
            _ = try await service.login(Credentials(name: "owner", password: "password-owner", device: String(repeating: "a", count: 32)),
                                        source: "192.0.2.2")
            XCTFail("a made-up device token is no device")
        } catch GamesError.locked(_, let count) {
            XCTAssertEqual(count, .name)
        }
    }

    func testALongListComesInPagesAndTheClientReadsEveryOne() async throws {
        var made: [Int64] = []
        for batch in 0..<12 {
            let token = try await account("pager\(batch)")
            for index in 0..<10 {
                let game = NewGame(ground: "casey-fields", startsAt: startsIn(hours: 100 + Double(index * 12 + batch)), players: 1)
                made.append(try await api.create(game, idempotencyKey: nil, token: token).id)
            }
        }
        var seen: [Int64] = []
        var next: String? = "/v1/games?near=3977&limit=50"
        var pages = 0
        while let path = next {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            request.method = .GET
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let games = try JSONDecoder().decode([GameListing].self, from: Data(buffer: try await response.body.collect(upTo: 1 << 22)))
            XCTAssertLessThanOrEqual(games.count, 50)
            seen += games.map(\.id)
            next = response.headers.first(name: "Link").flatMap(GamesHTTPClient.nextPage)
            pages += 1
            XCTAssertLessThan(pages, 10)
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(Set(seen), Set(made))
        XCTAssertEqual(seen.count, made.count, "no game twice")
        api.pageSize = 7
        let all = try await api.games(near: .postcode("3977"), token: nil)
        XCTAssertEqual(all.map(\.id), seen, "the client follows every page, in start order")
        for (query, field) in [("limit=0", "limit"), ("limit=501", "limit"), ("limit=-9223372036854775808", "limit"),
                               ("cursor=zz", "cursor"), ("cursor=7ff0000000000000-1", "cursor"), ("cursor=1-0", "cursor")] {
            let (status, answer, _) = try await raw(.GET, "/v1/games?near=3977&" + query)
            XCTAssertEqual(status, 422, query)
            XCTAssertTrue(answer.contains(#""field":"\#(field)""#), "\(query): \(answer)")
        }
        // Without a token the answer is 401 whatever the page parameters say.
        let (anonymous, _, _) = try await raw(.GET, "/v1/me/games?limit=100&cursor=0")
        XCTAssertEqual(anonymous, 401)
    }

    func testSixtyPlayersBehindOneAddressAllBookWithTheDefaultLimits() async throws {
        let organiser = try await account("club")
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 20), players: 1, capacity: 50),
                                        idempotencyKey: nil, token: organiser)
        var players: [(GamesHTTPClient, HTTPClient, String)] = []
        for index in 0..<60 {
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let client = try GamesHTTPClient(url: "http://127.0.0.1:\(port)", http: http)
            players.append((client, http, try await service.signUp(Credentials(name: "member\(index)", password: "password-member")).token))
        }
        let booked = await withTaskGroup(of: String?.self) { group in
            for (client, _, token) in players {
                group.addTask {
                    do {
                        _ = try await client.book(game.id, idempotencyKey: UUID().uuidString, token: token)
                        return nil
                    } catch {
                        return String(describing: error)
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        for (_, http, _) in players { try await http.shutdown() }
        XCTAssertEqual(booked, [], "every booking succeeds, retried when turned away")
        let after = try await api.game(game.id, token: organiser)
        XCTAssertEqual(after.going + after.waitlisted, 60)
    }
}
