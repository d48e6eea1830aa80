import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import XCTest
@testable import LockerGames
@testable import LockerKit

/// What one hostile address must not be able to do to the server (issue 25), on the socket
/// level: starve it of connections, hold them with trickled bytes, make it read an oversized
/// body. The store does not matter here (SQLite); `GamesContractTests` covers the rest on both.
final class ConnectionLimitTests: XCTestCase {
    var server: TestServer!
    var port: Int { server.port }

    override func setUp() async throws {
        server = try await TestServer.start { options, _ in
            options.maxConnections = 40
            options.maxConnectionsPerAddress = 4
            options.idleTimeoutSeconds = 1
            options.requestSeconds = 1
        }
    }

    override func tearDown() async throws {
        await server.stop()
    }

    func healthz(from source: String) -> String {
        guard let socket = RawSocket(port: port, source: source) else { return "no connection" }
        socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return socket.receive(seconds: 1).text
    }

    func testOneAddressHoldingEverySocketItCanDoesNotStarveAnother() throws {
        // 127.0.0.2 opens as many sockets as it likes and keeps them idle or trickling.
        var held: [RawSocket] = []
        for index in 0..<60 {
            guard let socket = RawSocket(port: port, source: "127.0.0.2") else { continue }
            if index % 2 == 0 { socket.send("GET /healthz HTTP/1.1\r\nHo") }
            held.append(socket)
        }
        let started = Date()
        let answer = healthz(from: "127.0.0.3")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), answer)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        // Beyond its four, the first address's sockets were closed: at once, or, for the few
        // waiting to be told 503, when their head did not come within the refusal time.
        let deadline = Date().addingTimeInterval(Double(ConnectionLimits.refusalSeconds) + 1)
        let closed = held.filter { $0.closes(within: max(0.05, deadline.timeIntervalSinceNow)) }.count
        XCTAssertGreaterThanOrEqual(closed, 56, "at most 4 connections per address are kept")
    }

    /// A server of this suite's limits but patient timeouts, for what must not race them on a busy machine.
    func patientServer() async throws -> TestServer {
        try await TestServer.start { options, _ in
            options.maxConnections = 40
            options.maxConnectionsPerAddress = 4
        }
    }

    func testARequestOverItsAddresssCapIsAnswered503WithRetryAfterNotReset() async throws {
        let server = try await patientServer()
        defer { Task { await server.stop() } }
        let port = server.port
        // Four connections each in the middle of a request (a body announced, not yet sent):
        // none is idle, so none is closed to make room. Each waits for its "100 Continue",
        // which says the server has read the head and counts the connection as busy.
        let held = (0..<4).compactMap { _ in RawSocket(port: port, source: "127.0.0.4") }
        XCTAssertEqual(held.count, 4)
        for socket in held {
            socket.send("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
            XCTAssertTrue(socket.receive(seconds: 5, until: "\r\n\r\n").text.hasPrefix("HTTP/1.1 100"))
        }
        guard let over = RawSocket(port: port, source: "127.0.0.4") else { return XCTFail("no connection") }
        over.send("POST /v1/games/1/booking HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let answer = over.receive(seconds: 2)
        XCTAssertTrue(answer.text.hasPrefix("HTTP/1.1 503"), answer.text)
        XCTAssertTrue(answer.text.contains("Retry-After: 1"), answer.text)
        XCTAssertTrue(answer.text.contains("\"reason\":\"busy\""), answer.text)
        XCTAssertTrue(over.closes(within: 1), "the refused connection is closed once answered")
    }

    func testAnAddressAtItsCapGivesUpAnIdleConnectionForANewOne() async throws {
        let server = try await patientServer()
        defer { Task { await server.stop() } }
        let port = server.port
        let idle = (0..<4).compactMap { _ in RawSocket(port: port, source: "127.0.0.7") }
        XCTAssertEqual(idle.count, 4)
        for socket in idle { socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") }
        for socket in idle { XCTAssertTrue(socket.receive(seconds: 0.3).text.hasPrefix("HTTP/1.1 200")) }
        guard let fresh = RawSocket(port: port, source: "127.0.0.7") else { return XCTFail("no connection") }
        fresh.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(fresh.receive(seconds: 1).text.hasPrefix("HTTP/1.1 200"))
        XCTAssertEqual(idle.filter { $0.closes(within: 0.3) }.count, 1, "one idle connection made room")
    }

    func testAnHTTP10RequestWithoutKeepAliveIsClosedOnceAnswered() async throws {
        let server = try await patientServer()
        defer { Task { await server.stop() } }
        guard let socket = RawSocket(port: server.port, source: "127.0.0.5") else { return XCTFail("no connection") }
        socket.send("GET /healthz HTTP/1.0\r\n\r\n")
        let answer = socket.receive(seconds: 10)
        XCTAssertTrue(answer.text.contains(" 200 "), answer.text)
        XCTAssertTrue(answer.closed, "closed after its answer, not at the idle timeout (30 s)")
    }

    func testALiveFeedWhoseClientHangsUpGivesItsSlotBackAtOnce() async throws {
        let server = try await patientServer()
        defer { Task { await server.stop() } }
        let port = server.port
        // Four streams per address (signed out); ten in a row, each hung up after its head.
        for index in 0..<10 {
            guard let socket = RawSocket(port: port, source: "127.0.0.6") else { return XCTFail("no connection") }
            socket.send("GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = socket.receive(seconds: 2).text
            XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), "stream \(index): \(head.prefix(80))")
            shutdown(socket.descriptor, Int32(SHUT_WR))
            XCTAssertTrue(socket.closes(within: 5), "stream \(index) is closed once its client stops sending")
        }
    }

    func testATrickledHeadIsCutOffByTheIdleTimeout() {
        guard let socket = RawSocket(port: port) else { return XCTFail("no connection") }
        let started = Date()
        var closed = false
        for byte in "GET /healthz HTTP/1.1\r\nHost: slow\r\n" {
            if !socket.send(String(byte)) || socket.closes(within: 0.2) { closed = true; break }
        }
        XCTAssertTrue(closed, "a head sent a byte every 0.2 s is never finished")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testATrickledBodyIsCutOffByTheRequestDeadline() {
        guard let socket = RawSocket(port: port) else { return XCTFail("no connection") }
        socket.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
        let started = Date()
        var closed = false
        for _ in 0..<40 {
            if !socket.send(" ") || socket.closes(within: 0.2) { closed = true; break }
        }
        XCTAssertTrue(closed, "a body sent a byte every 0.2 s is cut off")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testAnOversizedBodyIsRefusedBeforeItIsSent() {
        guard let socket = RawSocket(port: port) else { return XCTFail("no connection") }
        socket.send("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n")
        let (text, closed) = socket.receive(seconds: 1)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 413"), text)
        XCTAssertTrue(text.contains("application/problem+json") && text.contains("\"too_large\""), text)
        XCTAssertTrue(closed)
    }

    func testARequestThatCannotBeParsedGetsAProblemDocument() {
        guard let socket = RawSocket(port: port) else { return XCTFail("no connection") }
        socket.send("GET / HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n")
        let (text, _) = socket.receive(seconds: 1)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 400"), text)
        XCTAssertTrue(text.contains("application/problem+json") && text.contains("\"bad_request\""), text)
        // As every object of the API, with its keys sorted (the guard's own answers were not).
        let body = String(text[(text.range(of: "\r\n\r\n")?.upperBound ?? text.endIndex)...])
        let keys = body.matches(of: #/"([A-Za-z_]+)":/#).map { String($0.1) }
        XCTAssertFalse(keys.isEmpty, body)
        XCTAssertEqual(keys, keys.sorted(), body)
    }

    /// The live feed's events are objects of the API too: their keys come sorted, not in a
    /// different order for each request.
    func testTheLiveFeedsEventsHaveTheirKeysSorted() throws {
        let change = GamesChange(sequence: 4895, kind: .unbooked, game: 22, ground: "casey-fields")
        let text = String(decoding: try XCTUnwrap(GamesServer.sortedJSON(change)), as: UTF8.self)
        let keys = text.matches(of: #/"([A-Za-z_]+)":/#).map { String($0.1) }
        XCTAssertEqual(keys, keys.sorted(), text)
    }
}

/// Behind a reverse proxy: its X-Forwarded-For names the player, and only its.
final class TrustedProxyTests: XCTestCase {
    func serve(trusting proxies: [String]) async throws -> TestServer {
        try await TestServer.start { options, _ in
            options.accountRequestsPerMinute = 10_000
            options.trustedProxies = try TrustedProxies(proxies)
        }
    }

    func login(_ port: Int, forwardedFor: String) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/sessions")
        request.method = .POST
        request.headers.add(name: "X-Forwarded-For", value: forwardedFor)
        request.body = .bytes(ByteBuffer(string: #"{"name":"victim","password":"a wrong guess"}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return Int(response.status.code)
    }

    func testATrustedProxysForwardedAddressIsThePlayersAndNoOneElsesIs() async throws {
        // Trusted: the guesser behind the proxy waits, another player behind it does not.
        var server = try await serve(trusting: ["127.0.0.0/8"])
        for _ in 0..<3 { _ = try await login(server.port, forwardedFor: "198.51.100.1") }
        var guesser = try await login(server.port, forwardedFor: "198.51.100.1")
        var other = try await login(server.port, forwardedFor: "203.0.113.8, 198.51.100.2")
        XCTAssertEqual([guesser, other], [423, 401], "each forwarded address has its own counter")
        await server.stop()
        // Not trusted: the header is ignored, and every request is the peer's.
        server = try await serve(trusting: [])
        for _ in 0..<3 { _ = try await login(server.port, forwardedFor: "198.51.100.1") }
        guesser = try await login(server.port, forwardedFor: "198.51.100.1")
        other = try await login(server.port, forwardedFor: "198.51.100.2")
        XCTAssertEqual([guesser, other], [423, 423], "a header anyone can write changes nothing")
        await server.stop()
    }
}

/// `/metrics` answers the addresses the club allowed, as a trusted proxy names them, and no one else.
final class MetricsAccessTests: XCTestCase {
    func metrics(_ port: Int, forwardedFor: String?) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics")
        if let forwardedFor { request.headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    func testOnlyTheAllowedAddressesReadTheMetrics() async throws {
        let server = try await TestServer.start { options, _ in
            options.trustedProxies = try TrustedProxies(["127.0.0.1"])
            options.metricsAllow = try AddressNetworks(["10.0.0.0/8"])
        }
        let (refused, problem) = try await metrics(server.port, forwardedFor: nil)
        XCTAssertEqual(refused, 403, "loopback is not allowed here")
        XCTAssertTrue(problem.contains("\"reason\":\"metrics\""), problem)
        XCTAssertFalse(problem.contains("locker_games_"), "nothing of the metrics")
        let (stranger, _) = try await metrics(server.port, forwardedFor: "203.0.113.9")
        XCTAssertEqual(stranger, 403, "a forwarded address outside the allowed networks")
        let (allowed, text) = try await metrics(server.port, forwardedFor: "10.1.2.3")
        XCTAssertEqual(allowed, 200)
        XCTAssertTrue(text.contains("locker_games_refusals_total{limit=\"metrics_address\"} 2\n"), text)
        await server.stop()
    }
}

/// Addresses: which proxies are believed, what is this machine.
final class ClientAddressTests: XCTestCase {
    func testOnlyATrustedProxyNamesTheClient() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "::1"])
        XCTAssertEqual(proxies.client(peer: "203.0.113.5", forwardedFor: ["198.51.100.1"]), "203.0.113.5", "anyone else's header is ignored")
        XCTAssertEqual(proxies.client(peer: "10.1.2.3", forwardedFor: ["198.51.100.1"]), "198.51.100.1")
        XCTAssertEqual(proxies.client(peer: "10.1.2.3", forwardedFor: ["6.6.6.6, 198.51.100.1, 10.9.9.9"]), "198.51.100.1",
                       "the right-most hop nobody trusted added; what the client wrote before it is not believed")
        XCTAssertEqual(proxies.client(peer: "::1", forwardedFor: ["not an address"]), "unreadable:not an address",
                       "a hop that is no address is not the proxy's: it must not borrow the proxy's rights")
        XCTAssertEqual(proxies.client(peer: "::1", forwardedFor: ["10.9.9.9:5555"]), "unreadable:10.9.9.9:5555")
        XCTAssertThrowsError(try TrustedProxies(["10.0.0.0/"]))
        XCTAssertEqual(proxies.client(peer: "10.1.2.3", forwardedFor: []), "10.1.2.3")
        XCTAssertThrowsError(try TrustedProxies(["10.0.0.0/33"]))
        XCTAssertThrowsError(try TrustedProxies(["proxy.example.org"]))
    }

    func testLoopbackIsDecidedFromTheAddressNotItsSpelling() {
        for host in ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LOCALHOST"] {
            XCTAssertTrue(IPAddress.isLoopback(host), host)
        }
        for host in ["127.0.0.1.example.org", "127.evil.com", "localhost.example.org", "128.0.0.1", "::2", "example.org"] {
            XCTAssertFalse(IPAddress.isLoopback(host), host)
        }
        XCTAssertThrowsError(try GamesHTTPClient(url: "http://127.0.0.1.example.org:8787")) { error in
            XCTAssertEqual(error as? GamesError, .insecureServer("127.0.0.1.example.org"))
        }
        XCTAssertNoThrow(try GamesHTTPClient(url: "http://127.0.0.1:8787"))
    }

    /// https:// to a server that speaks plain HTTP is said in words (no TLS library's error
    /// dump), and in French when the interface is.
    func testHTTPSToAPlainServerIsSaidInWords() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        do {
            _ = try await GamesHTTPClient(url: "https://127.0.0.1:\(server.port)").grounds(near: .postcode("3977"))
            XCTFail("a plain server answered https")
        } catch {
            XCTAssertEqual(error as? GamesError, .unreachable(.notHTTPS(host: "127.0.0.1")))
            let french = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .fr)
            let text = (error as? GamesError)?.message(french) ?? ""
            XCTAssertFalse(text.contains("SSL") || text.contains("handshake"), text)
            XCTAssertTrue(text.hasPrefix("Le serveur des matchs"), text)
        }
        XCTAssertEqual(Unreachable(wire: Unreachable.refused(address: "http://x:1").wire), .refused(address: "http://x:1"))
        XCTAssertEqual(Unreachable(wire: Unreachable.noAnswerWithin(seconds: 10).wire), .noAnswerWithin(seconds: 10))
    }

    /// A server that is not there is said at once, in words, not after the time limit.
    func testARefusedOrUnknownServerIsSaidAtOnce() async throws {
        for (url, expected) in [("http://127.0.0.1:9", GamesError.unreachable(.refused(address: "http://127.0.0.1:9"))),
                                ("https://no-such-host.invalid:8787", GamesError.unreachable(.unknownName(host: "no-such-host.invalid")))] {
            let started = Date()
            do {
                _ = try await GamesHTTPClient(url: url).grounds(near: .postcode("3977"))
                XCTFail("\(url) answered")
            } catch {
                XCTAssertEqual(error as? GamesError, expected)
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 1, url)
        }
    }
}

/// The same on both stores (these run in `SQLiteContractTests` and `PostgresContractTests`).
extension GamesContractTests {
    func testAGuesserSlowsOnlyThemselvesNotTheOwner() async throws {
        _ = try await account("victim")
        // One wrong guess a second from one address for two minutes; the owner logs in from
        // another address every ten seconds meanwhile, at once every time.
        var checked = 0, refused = 0
        for second in 0..<120 {
            do {
                _ = try await service.login(Credentials(name: "victim", password: "a wrong guess"), source: "203.0.113.66")
                XCTFail("a wrong password")
            } catch GamesError.wrongCredentials {
                checked += 1
            } catch GamesError.locked {
                refused += 1
            }
            if second % 10 == 0 {
                let session = try await service.login(Credentials(name: "victim", password: "password-victim"), source: "198.51.100.4")
                XCTAssertEqual(session.name, "victim", "second \(second)")
            }
            clock.now += 1
        }
        XCTAssertLessThanOrEqual(checked, 10, "the guesser's waits double: few guesses are checked")
        XCTAssertEqual(checked + refused, 120)
    }

    func testRacingGuessesAreCheckedAtMostTheFreeNumberOfTimes() async throws {
        _ = try await account("target")
        let service = self.service!
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        _ = try await service.login(Credentials(name: "target", password: "a wrong guess"), source: "203.0.113.77")
                        return "in"
                    } catch GamesError.wrongCredentials {
                        return "checked"
                    } catch GamesError.locked {
                        return "refused"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        XCTAssertEqual(outcomes.filter { $0 == "checked" }.count, GamesLimits.pairThrottle.free, "\(outcomes)")
        XCTAssertEqual(outcomes.filter { $0 == "refused" }.count, 20 - GamesLimits.pairThrottle.free, "\(outcomes)")
    }

    func testControlCharactersAndOversizedTextAreRefusedByField() async throws {
        let token = try await account("careful")
        let auth = [("Authorization", "Bearer " + token), ("Content-Type", "application/json")]
        let start = startsIn(hours: 48)
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: start, players: 1), idempotencyKey: nil, token: token)
        let cases: [(HTTPMethod, String, String, String)] = [
            (.POST, "/v1/accounts", #"{"name":"alice\u0000x","password":"long enough pass"}"#, "name"),
            (.POST, "/v1/sessions", #"{"name":"alice\u0000x","password":"long enough pass"}"#, "name"),
            (.POST, "/v1/sessions", #"{"name":"careful","password":"password-careful\u0000junk"}"#, "password"),
            (.POST, "/v1/sessions", "{\"name\":\"\(String(repeating: "a", count: 5000))\",\"password\":\"long enough pass\"}", "name"),
            (.POST, "/v1/accounts", "{\"name\":\"emoji\",\"password\":\"\(String(repeating: "😀", count: 128))\"}", "password"),
            (.POST, "/v1/sessions", "{\"name\":\"careful\",\"password\":\"\(String(repeating: "😀", count: 128))\"}", "password"),
            (.POST, "/v1/games", "{\"ground\":\"casey\\u0000fields\",\"startsAt\":\"\(start)\",\"players\":1}", "ground"),
            (.POST, "/v1/games", "{\"ground\":\"casey-fields\",\"startsAt\":\"\(start)\",\"players\":1,\"note\":\"a\\u0000b\"}", "note"),
            (.POST, "/v1/games", "{\"ground\":\"casey-fields\",\"startsAt\":\"\(start)\",\"players\":1,\"note\":\"a\\u0085b\"}", "note"),
            (.POST, "/v1/games", "{\"ground\":\"casey-fields\",\"startsAt\":\"\(start)\",\"players\":1,\"note\":\"abc\\u202Eevil\"}", "note"),
            (.PATCH, "/v1/games/\(game.id)", #"{"note":"line\none"}"#, "note"),
            (.POST, "/v1/games/\(game.id)/cancellation", #"{"reason":"rain\u007F"}"#, "reason"),
            (.PUT, "/v1/me/password", #"{"current":"password-careful\u0000","new":"another long one"}"#, "current"),
        ]
        for (method, path, body, field) in cases {
            let (status, text, type) = try await raw(method, path, body: body, headers: auth)
            XCTAssertEqual(status, 422, "\(path) \(body.prefix(80)): \(text)")
            XCTAssertEqual(type, "application/problem+json")
            XCTAssertTrue(text.contains("\"field\":\"\(field)\""), "\(path) \(body.prefix(80)): \(text)")
        }
        // Nothing was cut and stored, and the password with junk after a NUL never logs in.
        let stored = try await api.game(game.id, token: nil)
        XCTAssertNil(stored.note)
        XCTAssertEqual(stored.status, .open)
        await refuses(.badPassword) { _ = try await self.service.login(Credentials(name: "careful", password: "password-careful\u{0}junk")) }
    }

    func testEveryAccountCanBeDeletedNotOnlyTheFirst() async throws {
        for name in ["first-to-go", "second-to-go", "third-to-go"] {
            let token = try await account(name)
            try await api.deleteAccount(password: "password-\(name)", token: token)
            await refuses(.wrongCredentials) { _ = try await self.api.login(Credentials(name: name, password: "password-\(name)")) }
        }
        _ = try await account("second-to-go")   // a deleted name is free again
    }

    func testADeletionRacingASeatReleaseLeavesNoSeatFreeWhilePlayersWait() async throws {
        let organiser = try await account("racehost")
        for round in 0..<6 {
            let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: Double(20 + round)), players: 1, capacity: 3),
                                            idempotencyKey: nil, token: organiser)
            let leaver = try await account("leaver\(round)"), quitter = try await account("quitter\(round)")
            let waiter = try await account("waiter\(round)")
            for token in [leaver, quitter, waiter] { _ = try await api.book(game.id, idempotencyKey: nil, token: token) }
            let api = self.api!
            async let deletion: Void = api.deleteAccount(password: "password-leaver\(round)", token: leaver)
            async let release = api.cancelBooking(game.id, token: quitter)
            _ = try await (deletion, release)
            let after = try await api.game(game.id, token: waiter)
            XCTAssertEqual(after.myStatus, .going, "round \(round): two seats freed, the one waiting player has one")
            XCTAssertEqual(after.going, 1)
            XCTAssertEqual(after.waitlisted, 0)
        }
    }

    func testAFeedFarBehindIsToldToReloadAndNothingIsLostInBetween() async throws {
        // 1,100 changes a sleeping laptop missed.
        try await database.transaction { db in
            for game in 1...1100 {
                try await db.query("INSERT INTO gamesChange (at, kind, gameId, groundId) VALUES (?, 'edited', ?, 'casey-fields')", [self.clock.now, game])
            }
        }
        let first = try await collect(service.changes(after: 1), count: 1, seconds: 5)
        XCTAssertEqual(first.first?.kind, .reload, "more than \(GamesChange.catchUpLimit) behind: one reload, not a silent gap")
        XCTAssertEqual(first.first?.sequence, 1100)
        // Within the limit, every missed change comes, in order, and then the live ones, none twice.
        let resumed = service.changes(after: 1100 - 500)
        let writer = Task {
            for game in 0..<50 {
                try await self.database.transaction { db in
                    try await db.recordChange(RecordedChange(kind: .booked, game: Int64(game), ground: "casey-fields", at: self.clock.now))
                }
            }
        }
        let sequences = try await collect(resumed, count: 550, seconds: 10).map(\.sequence)
        try await writer.value
        XCTAssertEqual(sequences, Array(601...1150), "every change after 600 exactly once, in order")
    }

    /// The first `count` changes of `stream`, or what came within `seconds`.
    func collect(_ stream: AsyncThrowingStream<GamesChange, Error>, count: Int, seconds: Double) async throws -> [GamesChange] {
        let reader = Task {
            var all: [GamesChange] = []
            for try await change in stream {
                all.append(change)
                if all.count >= count { break }
            }
            return all
        }
        let timer = Task {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            reader.cancel()
        }
        defer { timer.cancel() }
        return try await reader.value
    }

    func testTheContractsSmallPrint() async throws {
        let token = try await account("precise")
        let auth = [("Authorization", "Bearer " + token), ("Content-Type", "application/json")]
        func create(_ members: String) async throws -> (Int, String, String?) {
            try await raw(.POST, "/v1/games", body: "{\"ground\":\"casey-fields\",\"players\":1,\(members)}", headers: auth)
        }
        let start = startsIn(hours: 48)
        // The member at fault is named, whatever is wrong with it.
        for (members, field) in [("\"startsAt\":\"\(start)\",\"capacity\":3.5", "capacity"), ("\"startsAt\":\"\(start)\",\"capacity\":true", "capacity"),
                                 ("\"startsAt\":\"\(start)\",\"minimum\":2.5", "minimum"),
                                 ("\"startsAt\":\"2027-03-01T10:00:00+15:00\"", "startsAt"), ("\"startsAt\":\"2027-03-01T10:00:00-14:30\"", "startsAt")] {
            let (status, text, _) = try await create(members)
            XCTAssertTrue(status == 422 && text.contains("\"field\":\"\(field)\""), "\(members): \(text)")
        }
        let (okStatus, okText, _) = try await create("\"startsAt\":\"2027-01-20T10:00:00+14:00\"")
        XCTAssertEqual(okStatus, 201, "+14:00 exists (Kiribati): \(okText)")
        // Places are decimal degrees, nothing else Double would read.
        for near in ["0x10,5", "1e1,5", "inf,5", "nan,nan", "-38.1,145.3e0"] {
            let (status, text, _) = try await raw(.GET, "/v1/grounds?near=" + near)
            XCTAssertTrue(status == 422 && text.contains("\"field\":\"postcode\""), "\(near): \(text)")
        }
        let (placeStatus, _, _) = try await raw(.GET, "/v1/grounds?near=-38.12,145.31")
        XCTAssertEqual(placeStatus, 200)
        // A query written as forms write it: + is a space, %2B a plus sign.
        let (plusStatus, plusText, _) = try await raw(.GET, "/v1/grounds?near=+3977+")
        XCTAssertEqual(plusStatus, 200, plusText)
        let (signStatus, signText, _) = try await raw(.GET, "/v1/grounds?near=-38.12,%2B145.31")
        XCTAssertEqual(signStatus, 200, signText)
        // A method the path lacks: 405, the methods it has, a problem document.
        let (status, text, type) = try await raw(.PUT, "/v1/games")
        XCTAssertEqual(status, 405, text)
        XCTAssertEqual(type, "application/problem+json")
        XCTAssertTrue(text.contains("\"reason\":\"method\""), text)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/games/7")
        request.method = .PUT
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        XCTAssertEqual(response.status.code, 405)
        XCTAssertEqual(response.headers.first(name: "Allow"), "DELETE, GET, PATCH")
        // The live feed's reload event reads back as one.
        XCTAssertEqual(GamesHTTPClient.change(fromEvent: "id: 1200\nevent: reload\ndata: {}"), .reload(at: 1200))
    }

    func testEventStreamsAreLimitedPerAccount() async throws {
        let token = try await account("streamer")
        var open: [HTTPClientResponse] = []
        for _ in 0..<4 {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events")
            request.headers.add(name: "Authorization", value: "Bearer " + token)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
            XCTAssertEqual(response.status, .ok)
            open.append(response)
        }
        let (status, text, _) = try await raw(.GET, "/v1/events", headers: [("Authorization", "Bearer " + token)])
        XCTAssertEqual(status, 429, text)
        XCTAssertTrue(text.contains("rate_limited") && text.contains("\"reason\":\"streams\""), text)
        let (badStatus, badText, _) = try await raw(.GET, "/v1/events?after=0x10")
        XCTAssertEqual(badStatus, 422, badText)
        _ = open
    }
}

/// PostgreSQL that cannot be reached is said within seconds, not after the pool's minute.
final class PostgresOutageTests: XCTestCase {
    func testAStoreThatCannotBeReachedIsSaidWithinSeconds() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let started = Date()
        do {
            // Port 9 (discard): nothing listens there on a test machine.
            _ = try await PostgresGamesDatabase(url: "postgres://locker@127.0.0.1:9/locker", logger: logger)
            XCTFail("nothing listens there")
        } catch {
            XCTAssertEqual(error as? GamesError, .storeUnreachable)
            XCTAssertEqual((error as? GamesError)?.problem.status, 503)
            XCTAssertFalse((error as? GamesError)?.message(.english).contains("ConnectionPool") ?? true)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 7)
    }
}
