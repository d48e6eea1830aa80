import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import XCTest
@testable import LockerGames
@testable import LockerKit

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A clock the tests move (lockouts, expiring tokens, games in the past).
final class TestClock: @unchecked Sendable {
    var now = 1_800_000_000.0   // 2027-01-15
}

/// The games contract, over HTTP, through the typed client: every test runs against a real
/// server on SQLite (`SQLiteContractTests`) and on PostgreSQL (`PostgresContractTests`).
class GamesContractTests: XCTestCase {
    var clock = TestClock()
    var database: GamesDatabase!
    var service: GamesService!
    var api: GamesHTTPClient!
    var port = 0
    private var server: Task<Void, Error>?
    var logger = Logger(label: "test")

    /// The store under test; nil skips (the base class has none).
    func makeDatabase() async throws -> GamesDatabase? { nil }

    override func setUp() async throws {
        guard let database = try await makeDatabase() else { throw XCTSkip("the contract runs in the SQLite and PostgreSQL subclasses") }
        self.database = database
        logger.logLevel = .critical
        let clock = self.clock
        let suburbs = try SuburbsFile.read(packageRoot.appendingPathComponent("Data/games/suburbs.csv"))
        service = GamesService(database: database, suburbs: suburbs, commonPasswords: ["password1", "qwertyuiop"], now: { clock.now })
        try await service.importGrounds(try GroundsFile.read(packageRoot.appendingPathComponent("Data/games/grounds.csv")))
        (server, port) = try await startServer(service)
        api = try GamesHTTPClient(url: "http://127.0.0.1:\(port)")
    }

    func startServer(_ service: GamesService, accountRate: Int = 10_000) async throws -> (Task<Void, Error>, Int) {
        var options = GamesServerOptions()
        options.port = 0
        options.accountRequestsPerMinute = accountRate
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = try GamesServer.application(service: service, options: options, logger: logger) { continuation.yield($0) }
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw XCTSkip("server did not start") }
        return (task, port)
    }

    override func tearDown() async throws {
        server?.cancel()
        _ = try? await server?.value
        await database?.close()
    }

    // MARK: Helpers

    func account(_ name: String) async throws -> String {
        try await api.signUp(Credentials(name: name, password: "password-\(name)")).token
    }

    func startsIn(hours: Double) -> String { Instant.string(clock.now + hours * 3600) }

    func refuses(_ expected: GamesError, file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? GamesError, expected, file: file, line: line)
        }
    }

    /// A raw request, for what the typed client never sends.
    func raw(_ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = []) async throws -> (Int, String, String?) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes), response.headers.first(name: "Content-Type"))
    }

    // MARK: Accounts

    func testAccountsTokensLockoutAndExpiry() async throws {
        await refuses(.badUsername) { _ = try await self.api.signUp(Credentials(name: "-rm", password: "long enough")) }
        await refuses(.badUsername) { _ = try await self.api.signUp(Credentials(name: "bad name", password: "long enough")) }
        await refuses(.badPassword) { _ = try await self.api.signUp(Credentials(name: "sam", password: "short")) }
        await refuses(.forbiddenCharacters(field: "password")) { _ = try await self.api.signUp(Credentials(name: "sam", password: "nul\u{0}inside")) }
        let token = try await account("sam.k")
        await refuses(.usernameTaken) { _ = try await self.api.signUp(Credentials(name: "SAM.K", password: "another one")) }
        let hash = try await database.transaction { db in try await db.one("SELECT passwordHash, nameKey FROM account", []) }
        XCTAssertTrue(hash?.string("passwordhash")?.hasPrefix("$y$") == true, "yescrypt, never the password")
        let value1 = try await api.account(token: token).name
        XCTAssertEqual(value1, "sam.k")
        let tokens = try await database.transaction { db in try await db.query("SELECT tokenHash FROM session", []) }
        XCTAssertFalse(tokens.contains { $0.string("tokenhash") == token }, "only the token's hash is kept")

        // Failed log-ins slow down the address that makes them (1 s, 2 s, 4 s… after three),
        // and an unknown name answers exactly like a known one.
        for name in ["sam.k", "nobody"] {
            for _ in 0..<GamesLimits.pairThrottle.free {
                await refuses(.wrongCredentials) { _ = try await self.api.login(Credentials(name: name, password: "wrong password")) }
            }
            await refuses(.locked(until: clock.now + 1)) { _ = try await self.api.login(Credentials(name: name, password: "wrong password")) }
            clock.now += 1
            await refuses(.wrongCredentials) { _ = try await self.api.login(Credentials(name: name, password: "wrong password")) }
            await refuses(.locked(until: clock.now + 2)) { _ = try await self.api.login(Credentials(name: name, password: "wrong password")) }
        }
        // The guessing address waits, even with the right password; the owner elsewhere does not.
        await refuses(.locked(until: clock.now + 1), { _ = try await self.api.login(Credentials(name: "sam.k", password: "password-sam.k")) })
        let elsewhere = try await service.login(Credentials(name: "sam.k", password: "password-sam.k"), source: "198.51.100.20")
        XCTAssertEqual(elsewhere.name, "sam.k")
        clock.now += GamesLimits.failureMemorySeconds
        // One address guessing many names waits longer and longer (up to 15 minutes).
        for index in 0..<GamesLimits.addressThrottle.free + 9 {
            await refuses(.wrongCredentials) {
                _ = try await self.service.login(Credentials(name: "guess\(index)", password: "wrong password"), source: "203.0.113.9")
            }
            clock.now += GamesLimits.addressThrottle.cap
        }
        clock.now -= GamesLimits.addressThrottle.cap
        await refuses(.locked(until: clock.now + 512, by: .address)) {
            _ = try await self.service.login(Credentials(name: "sam.k", password: "password-sam.k"), source: "203.0.113.9")
        }
        let second = try await api.login(Credentials(name: "Sam.K", password: "password-sam.k"))
        XCTAssertEqual(second.name, "sam.k", "names are matched without case and answered as created")

        try await api.logout(token: second.token)
        await refuses(.notLoggedIn) { _ = try await self.api.account(token: second.token) }
        let value2 = try await api.account(token: token).name
        XCTAssertEqual(value2, "sam.k", "log-out revokes that token only")
        clock.now += GamesLimits.tokenSeconds + 1
        await refuses(.notLoggedIn) { _ = try await self.api.account(token: token) }
    }

    // MARK: Validation

    func testTheServerValidatesEveryField() async throws {
        let token = try await account("org")
        let auth = [("Authorization", "Bearer " + token)]
        func post(_ body: String) async throws -> (Int, String, String?) { try await raw(.POST, "/v1/games", body: body, headers: auth) }
        let good = #""ground":"casey-fields","players":2,"capacity":10"#
        var (status, text, type) = try await post("{\(good),\"startsAt\":\"\(startsIn(hours: 48))\",\"admin\":true}")
        XCTAssertEqual(status, 422)
        XCTAssertEqual(type, "application/problem+json")
        XCTAssertTrue(text.contains(#""field":"admin""#), text)
        (status, text, _) = try await post("{\(good),\"startsAt\":\"2027-02-30T10:00:00Z\"}")
        XCTAssertTrue(text.contains(#""field":"startsAt""#) && status == 422, "30 February: \(text)")
        (status, text, _) = try await post(#"{"ground":"casey-fields","players":"two","capacity":10,"startsAt":"2027-03-01T10:00:00Z"}"#)
        XCTAssertTrue(text.contains(#""field":"players""#) && status == 422, "wrong type: \(text)")
        (status, _, _) = try await post("{not json")
        XCTAssertEqual(status, 422)
        (status, text, _) = try await post("{\"note\":\"\(String(repeating: "x", count: 20_000))\"}")
        XCTAssertEqual(status, 413, text)
        (status, text, _) = try await raw(.GET, "/v1/me", headers: [("Locker-API-Version", "2")] + auth)
        XCTAssertTrue(status == 400 && text.contains("unsupported_version"), text)
        (status, text, _) = try await raw(.GET, "/v1/nothing-here")
        XCTAssertTrue(status == 404 && text.contains("not_found"), text)

        for capacity in [0, 1, -3, 51, 1_000_000] {
            await refuses(.badCapacity) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 48), players: 1, capacity: capacity), idempotencyKey: nil, token: token) }
        }
        await refuses(.inThePast) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: -1), players: 1), idempotencyKey: nil, token: token) }
        await refuses(.tooFarAhead) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 24 * 800), players: 1), idempotencyKey: nil, token: token) }
        await refuses(.badPlayers) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 2), players: 0), idempotencyKey: nil, token: token) }
        await refuses(.unknownGround("nowhere")) { _ = try await self.api.create(NewGame(ground: "nowhere", startsAt: self.startsIn(hours: 2), players: 1), idempotencyKey: nil, token: token) }
        await refuses(.noteTooLong) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 2), players: 1, note: String(repeating: "é", count: 501)), idempotencyKey: nil, token: token) }
        await refuses(.notLoggedIn) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 2), players: 1), idempotencyKey: nil, token: "0123") }
        let sneaky = "'); DROP TABLE game; -- <b>"
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 2), players: 1, note: sneaky), idempotencyKey: nil, token: token)
        let value3 = try await api.game(game.id, token: nil).note
        XCTAssertEqual(value3, sneaky, "stored as given; shown inert by every client")
        await refuses(.forbiddenCharacters(field: "note")) {
            _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 2), players: 1, note: "\u{1B}[31mred"),
                                          idempotencyKey: nil, token: token)
        }
        await refuses(.noSuchPostcode("3000")) { _ = try await self.api.grounds(near: .postcode("3000")) }
        let near = try await api.grounds(near: .position(latitude: -38.12, longitude: 145.31))
        XCTAssertEqual(near.count, 5)
        XCTAssertEqual(near.first?.id, "casey-fields", "negative latitudes work")
    }

    // MARK: Bookings

    func testBookingWaitlistPromotionRosterAndLeaving() async throws {
        let org = try await account("org")
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 2, capacity: 4), idempotencyKey: nil, token: org)
        XCTAssertEqual(game.myStatus, .organiser)
        await refuses(.organiserCannotBook) { _ = try await self.api.book(game.id, idempotencyKey: nil, token: org) }
        var players: [String] = []
        for name in ["ann", "ben", "cat", "dan"] { players.append(try await account(name)) }
        var parts: [PlayerPart?] = []
        for token in players { parts.append(try await api.book(game.id, idempotencyKey: nil, token: token).myStatus) }
        XCTAssertEqual(parts, [.going, .going, .waitlisted, .waitlisted], "the answer says which")
        let full = try await api.game(game.id, token: nil)
        XCTAssertEqual(full.status, .full)
        XCTAssertEqual(full.waitlisted, 2)
        await refuses(.notOrganiser) { _ = try await self.api.roster(game.id, token: players[0]) }
        let changed = try await api.cancelBooking(game.id, token: players[0])
        XCTAssertNil(changed.myStatus)
        XCTAssertEqual(changed.going, 2, "cat moved up in the same transaction")
        var roster = try await api.roster(game.id, token: org)
        XCTAssertEqual(roster.going.map(\.name), ["ben", "cat"])
        XCTAssertEqual(roster.waitlisted.map(\.name), ["dan"])
        _ = try await api.cancelBooking(game.id, token: players[3])
        roster = try await api.roster(game.id, token: org)
        XCTAssertEqual(roster.waitlisted, [], "dan left the waitlist")
        await refuses(.notBooked) { _ = try await self.api.cancelBooking(game.id, token: players[3]) }
        let upcoming = try await api.upcoming(token: players[1])
        XCTAssertEqual(upcoming.map(\.id), [game.id])
        XCTAssertEqual(upcoming.first?.myStatus, .going)

        _ = try await api.cancelGame(game.id, reason: "Ground closed", token: org)
        await refuses(.gameCancelled) { _ = try await self.api.book(game.id, idempotencyKey: nil, token: players[0]) }
        let later = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 1), players: 1), idempotencyKey: nil, token: org)
        _ = try await api.book(later.id, idempotencyKey: nil, token: players[0])
        clock.now += 2 * 3600
        await refuses(.gameStarted) { _ = try await self.api.cancelBooking(later.id, token: players[0]) }
        await refuses(.gameStarted) { _ = try await self.api.cancelGame(later.id, reason: "late", token: org) }
        await refuses(.gameStarted) { _ = try await self.api.book(later.id, idempotencyKey: nil, token: players[1]) }
    }

    func testLoweringTheCapacityMovesTheLatestToTheHeadOfTheWaitlist() async throws {
        let org = try await account("org")
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 1, capacity: 4), idempotencyKey: nil, token: org)
        for name in ["ann", "ben", "cat", "dan", "eve"] {
            let token = try await account(name)
            _ = try await api.book(game.id, idempotencyKey: nil, token: token)
            clock.now += 1
        }
        let edited = try await api.edit(game.id, GameChanges(capacity: 2, note: "Smaller ground"), token: org)
        XCTAssertEqual(edited.capacity, 2)
        XCTAssertEqual(edited.note, "Smaller ground")
        let roster = try await api.roster(game.id, token: org)
        XCTAssertEqual(roster.going.map(\.name), ["ann"])
        XCTAssertEqual(roster.waitlisted.map(\.name), ["ben", "cat", "dan", "eve"], "ben and cat first, in booking order")
        let raised = try await api.edit(game.id, GameChanges(capacity: 4), token: org)
        XCTAssertEqual(raised.going, 3, "free seats go to the waitlist in order")
        await refuses(.notOrganiser) { _ = try await self.api.edit(game.id, GameChanges(capacity: 2), token: try await self.account("zed")) }
        let crowded = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 6, capacity: 8), idempotencyKey: nil, token: org)
        await refuses(.badPlayers) { _ = try await self.api.edit(crowded.id, GameChanges(capacity: 5), token: org) }
    }

    func testRetriedRequestsWithOneIdempotencyKeyHappenOnce() async throws {
        let org = try await account("org")
        let new = NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 1, capacity: 3)
        let first = try await api.create(new, idempotencyKey: "create-1", token: org)
        let again = try await api.create(new, idempotencyKey: "create-1", token: org)
        XCTAssertEqual(first.id, again.id)
        let value4 = try await api.upcoming(token: org).count
        XCTAssertEqual(value4, 1)
        let ann = try await account("ann")
        async let a = api.book(first.id, idempotencyKey: "book-1", token: ann)
        async let b = api.book(first.id, idempotencyKey: "book-1", token: ann)
        let (x, y) = try await (a, b)
        XCTAssertEqual(x.going, 1)
        XCTAssertEqual(y.going, 1, "one booking")
        await refuses(.invalid(field: "Idempotency-Key")) { _ = try await self.api.book(first.id, idempotencyKey: String(repeating: "k", count: 200), token: ann) }
    }

    func testConcurrentBookersNeverOverbook() async throws {
        let org = try await account("org")
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 12, capacity: 22), idempotencyKey: nil, token: org)
        var tokens: [String] = []
        for index in 0..<30 { tokens.append(try await account("player\(index)")) }
        let parts = try await withThrowingTaskGroup(of: PlayerPart?.self) { group in
            for token in tokens { group.addTask { try await self.api.book(game.id, idempotencyKey: UUID().uuidString, token: token).myStatus } }
            return try await group.reduce(into: [PlayerPart?]()) { $0.append($1) }
        }
        XCTAssertEqual(parts.filter { $0 == .going }.count, 10)
        XCTAssertEqual(parts.filter { $0 == .waitlisted }.count, 20)
        let final = try await api.game(game.id, token: nil)
        XCTAssertEqual(final.seatsUsed, 22)
        XCTAssertEqual(final.waitlisted, 20)
    }

    // MARK: Live

    func testChangesArriveLive() async throws {
        let org = try await account("org")
        let feed = api.changes(after: nil)
        let first = Task { () -> GamesChange? in
            for try await change in feed { return change }
            return nil
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 1), idempotencyKey: nil, token: org)
        let arrived = try await withTimeout(seconds: 2) { try await first.value }
        XCTAssertEqual(arrived?.game, game.id)
        XCTAssertEqual(arrived?.kind, .created)
        XCTAssertEqual(arrived?.ground, "casey-fields")
    }

    func withTimeout<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)); return nil }
            guard let first = try await group.next(), let value = first else {
                group.cancelAll()
                throw XCTSkip("nothing within \(seconds) s") as Error
            }
            group.cancelAll()
            return value
        }
    }

    func testHealthAndRateLimit() async throws {
        let (status, text, _) = try await raw(.GET, "/healthz")
        XCTAssertEqual(status, 200)
        XCTAssertTrue(text.contains(database.kind.rawValue))
        let (limited, port) = try await startServer(service, accountRate: 3)
        defer { limited.cancel() }
        let client = try GamesHTTPClient(url: "http://127.0.0.1:\(port)")
        for _ in 0..<3 { await refuses(.wrongCredentials) { _ = try await client.login(Credentials(name: "nobody", password: "whatever1")) } }
        do {
            _ = try await client.login(Credentials(name: "nobody", password: "whatever1"))
            XCTFail("the fourth log-in within a minute is refused")
        } catch GamesError.rateLimited(let seconds) {
            XCTAssertGreaterThan(seconds, 0)
        }
    }

    // MARK: Issue 17: time zones, bad rows, imports, passwords, sessions, notes, spam

    func testTimesAreReadAndShownOnTheGroundsClock() async throws {
        let token = try await account("zoned")
        // 2027-01-15 is summer in Melbourne (+11:00): 10:00 at the ground is 23:00 UTC the day before.
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: "2027-01-20T10:00", players: 1), idempotencyKey: nil, token: token)
        XCTAssertEqual(game.startsAt, "2027-01-19T23:00:00Z")
        XCTAssertEqual(game.localStart, "2027-01-20T10:00:00+11:00")
        XCTAssertEqual(game.timeZone, "Australia/Melbourne")
        // Clocks go forward on 3 October 2027 at 02:00: 02:30 does not exist there.
        await refuses(.timeInGap) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: "2027-10-03T02:30", players: 1), idempotencyKey: nil, token: token) }
        // Clocks go back on 4 April 2027 at 03:00: 02:30 happens twice; the first is taken and the offset says so.
        let twice = try await api.create(NewGame(ground: "casey-fields", startsAt: "2027-04-04T02:30", players: 1), idempotencyKey: nil, token: token)
        XCTAssertEqual(twice.localStart, "2027-04-04T02:30:00+11:00")
        XCTAssertEqual(twice.startsAt, "2027-04-03T15:30:00Z")
        await refuses(.badTime) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: "2027-01-20T10:00:61", players: 1), idempotencyKey: nil, token: token) }
        await refuses(.badTime) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: "2027-02-29T10:00", players: 1), idempotencyKey: nil, token: token) }
        let later = try await api.create(NewGame(ground: "casey-fields", startsAt: "2028-08-01T10:00", players: 1), idempotencyKey: nil, token: token)
        XCTAssertEqual(later.localStart, "2028-08-01T10:00:00+10:00", "winter: +10:00")
        await refuses(.tooFarAhead) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: "2029-02-01T10:00", players: 1), idempotencyKey: nil, token: token) }
        let moved = try await api.edit(game.id, GameChanges(startsAt: "2027-01-21T18:15"), token: token)
        XCTAssertEqual(moved.localStart, "2027-01-21T18:15:00+11:00")
    }

    func testGroundImportsNeverChangeAGroundSilentlyAndAreBounded() async throws {
        var moved = try GroundsFile.read(packageRoot.appendingPathComponent("Data/games/grounds.csv"))
        moved[0].latitude -= 0.4
        await refuses(.groundsWouldChange(["casey-fields"])) { try await self.service.importGrounds(moved) }
        let before = try await api.grounds(near: .postcode("3977"))
        XCTAssertEqual(before.first { $0.id == "casey-fields" }?.latitude, -38.1206, "nothing was changed")
        try await service.importGrounds(moved, replacing: true)
        let after = try await api.grounds(near: .position(latitude: -38.52, longitude: 145.31))
        XCTAssertEqual(after.first?.id, "casey-fields")
        try await service.importGrounds(moved)   // the same details again: nothing to change
        let flood = (0...GamesLimits.groundsPerImport).map {
            Ground(id: "flood-\($0)", name: "Flood \($0)", suburb: "Berwick", postcode: "3806", latitude: -38, longitude: 145, approximate: true)
        }
        await refuses(.tooManyGrounds(limit: GamesLimits.groundsPerImport)) { try await self.service.importGrounds(flood) }
    }

    func testCommonPasswordsAreRefused() async throws {
        await refuses(.commonPassword) { _ = try await self.api.signUp(Credentials(name: "common", password: "Password1")) }
        let token = try await account("changer")
        await refuses(.commonPassword) { try await self.api.changePassword(PasswordChange(current: "password-changer", new: "qwertyuiop"), token: token) }
    }

    func testLogOutEverywhereChangeThePasswordAndDeleteTheAccount() async throws {
        let first = try await account("leaver")
        let second = try await api.login(Credentials(name: "leaver", password: "password-leaver")).token
        let third = try await api.login(Credentials(name: "leaver", password: "password-leaver")).token
        await refuses(.wrongCredentials) { try await self.api.changePassword(PasswordChange(current: "not it at all", new: "a better secret"), token: first) }
        try await api.changePassword(PasswordChange(current: "password-leaver", new: "a better secret"), token: first)
        await refuses(.notLoggedIn) { _ = try await self.api.account(token: second) }
        let name = try await api.account(token: first).name
        XCTAssertEqual(name, "leaver", "the session that changed the password stays")
        await refuses(.wrongCredentials) { _ = try await self.api.login(Credentials(name: "leaver", password: "password-leaver")) }
        let fourth = try await api.login(Credentials(name: "leaver", password: "a better secret")).token
        try await api.logoutEverywhere(token: fourth)
        for token in [first, third, fourth] { await refuses(.notLoggedIn) { _ = try await self.api.account(token: token) } }

        // Deleting: a seat taken goes to the waitlist, an organised game is called off, the name is free.
        let me = try await api.login(Credentials(name: "leaver", password: "a better secret")).token
        let organiser = try await account("host"), waiting = try await account("waiting")
        let full = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 1, capacity: 2), idempotencyKey: nil, token: organiser)
        _ = try await api.book(full.id, idempotencyKey: nil, token: me)
        _ = try await api.book(full.id, idempotencyKey: nil, token: waiting)
        let mine = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 40), players: 1), idempotencyKey: nil, token: me)
        _ = try await api.book(mine.id, idempotencyKey: nil, token: waiting)
        await refuses(.wrongCredentials) { try await self.api.deleteAccount(password: "wrong one", token: me) }
        try await api.deleteAccount(password: "a better secret", token: me)
        await refuses(.notLoggedIn) { _ = try await self.api.account(token: me) }
        let promoted = try await api.game(full.id, token: waiting)
        XCTAssertEqual(promoted.myStatus, .going)
        let calledOff = try await api.game(mine.id, token: waiting)
        XCTAssertEqual(calledOff.status, .cancelled)
        XCTAssertEqual(calledOff.organiser, "", "the name is gone")
        XCTAssertEqual(calledOff.cancelReason, "")
        _ = try await account("leaver")   // the name can be taken again
    }

    func testNotesAreCappedInBytesToo() async throws {
        let token = try await account("noter")
        // 400 characters, each a letter with 9 combining accents: under 500 characters, ~7 KB.
        let heavy = String(repeating: "e" + String(repeating: "\u{0301}", count: 9), count: 400)
        XCTAssertLessThan(heavy.count, GamesLimits.noteLength)
        await refuses(.noteTooLong) { _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 5), players: 1, note: heavy), idempotencyKey: nil, token: token) }
    }

    func testGameCreationIsLimitedAndAdministratorsRemoveGames() async throws {
        let spammer = try await account("spammer")
        for hour in 0..<GamesLimits.gamesPerHour {
            _ = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: Double(10 + hour)), players: 1), idempotencyKey: nil, token: spammer)
        }
        await refuses(.tooManyGames(retryAfter: 3600)) {
            _ = try await self.api.create(NewGame(ground: "casey-fields", startsAt: self.startsIn(hours: 30), players: 1), idempotencyKey: nil, token: spammer)
        }
        clock.now += 3601
        let allowed = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 1), idempotencyKey: nil, token: spammer)
        let admin = try await account("club-admin")
        await refuses(.adminOnly) { try await self.api.removeGame(allowed.id, token: admin) }
        try await service.setAdministrator("club-admin", true)
        try await api.removeGame(allowed.id, token: admin)
        await refuses(.unknownGame(allowed.id)) { _ = try await self.api.game(allowed.id, token: nil) }
    }
}

final class SQLiteContractTests: GamesContractTests {
    override func makeDatabase() async throws -> GamesDatabase? {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("games-contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return try SQLiteGamesDatabase(path: dir.appendingPathComponent("games.sqlite").path)
    }

    func testABadRowIsSkippedNotFatal() async throws {
        let token = try await account("rows")
        let broken = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 5), players: 1), idempotencyKey: nil, token: token)
        let fine = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 6), players: 1), idempotencyKey: nil, token: token)
        // What a hand edit with the sqlite3 tool can leave: a start that is not a number.
        try await database.transaction { db in _ = try await db.query("UPDATE game SET startsAt = 'tomorrow' WHERE id = ?", [broken.id]) }
        let upcoming = try await api.upcoming(token: token)
        XCTAssertEqual(upcoming.map(\.id), [fine.id])
        let near = try await api.games(near: .postcode("3977"), token: token)
        XCTAssertEqual(near.map(\.id), [fine.id])
    }

    func testReadsNeverWaitForAWriter() async throws {
        let path = (database as! SQLiteGamesDatabase).path
        let token = try await account("reader")
        _ = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 5), players: 1), idempotencyKey: nil, token: token)
        // Another process holds the write lock for a while; a store that waited for it would fail
        // after its (here very short) busy timeout.
        let writer = try SQLiteGamesDatabase(path: path)
        let holding = Task { try await writer.transaction { _ in try await Task.sleep(nanoseconds: 1_500_000_000) } }
        try await Task.sleep(nanoseconds: 200_000_000)
        let impatient = try SQLiteGamesDatabase(path: path, busySeconds: 0.05)
        let reader = GamesService(database: impatient, suburbs: service.suburbs, now: { [clock] in clock.now })
        let games = try await reader.upcoming(token: token)
        XCTAssertEqual(games.count, 1)
        _ = try await holding.value
        await impatient.close()
        await writer.close()
    }

    func testAGamesFileIsItsOwnersOnly() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("games-owner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mine = dir.appendingPathComponent("mine.sqlite").path
        let created = try SQLiteGamesDatabase(path: mine)
        await created.close()
        let mode = (try FileManager.default.attributesOfItem(atPath: mine)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
        guard geteuid() == 0 else { throw XCTSkip("giving a file to another user needs root") }
        let theirs = dir.appendingPathComponent("theirs.sqlite").path
        try FileManager.default.copyItem(atPath: mine, toPath: theirs)
        XCTAssertEqual(chown(theirs, 65534, 65534), 0)
        XCTAssertThrowsError(try SQLiteGamesDatabase(path: theirs)) { XCTAssertEqual($0 as? GamesError, .sharedLocalStore(path: theirs)) }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("theirs") }
        XCTAssertEqual(left, ["theirs.sqlite"], "no -wal or -shm left beside their file")
    }

    func testANewerSchemaIsRefusedUntouched() async throws {
        let path = (database as! SQLiteGamesDatabase).path
        try await database.transaction { db in _ = try await db.query("INSERT INTO grdb_migrations (identifier) VALUES ('v99')", []) }
        XCTAssertThrowsError(try SQLiteGamesDatabase(path: path)) { XCTAssertEqual($0 as? GamesError, .newerSchema) }
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(UUID().uuidString).sqlite")
        try Data("not a database at all, just text".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        XCTAssertThrowsError(try SQLiteGamesDatabase(path: text.path)) {
            guard case .database? = $0 as? GamesError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try Data(contentsOf: text), Data("not a database at all, just text".utf8), "left untouched")
    }
}

/// Runs against the PostgreSQL at `LOCKER_TEST_POSTGRES` (`.ci/run` starts one). Without it the
/// tests skip, saying so; with `LOCKER_REQUIRE_POSTGRES=1` (CI) they fail instead.
final class PostgresContractTests: GamesContractTests {
    var databaseName = ""

    static var address: String? { ProcessInfo.processInfo.environment["LOCKER_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 } }

    override func makeDatabase() async throws -> GamesDatabase? {
        guard let address = Self.address else {
            if ProcessInfo.processInfo.environment["LOCKER_REQUIRE_POSTGRES"] == "1" {
                XCTFail("LOCKER_TEST_POSTGRES is not set but CI requires PostgreSQL")
            }
            throw XCTSkip("PostgreSQL not configured: set LOCKER_TEST_POSTGRES=postgres://USER@HOST:PORT/DB (scripts/pg-cluster start DIR)")
        }
        databaseName = "locker_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try await Self.admin(address, "CREATE DATABASE \(databaseName)")
        let name = databaseName
        addTeardownBlock { try? await Self.admin(address, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        var url = URLComponents(string: address)!
        url.path = "/" + databaseName
        return try await PostgresGamesDatabase(url: url.string!, logger: logger)
    }

    /// Another new database on the same cluster, dropped after the test.
    func makeEmptyDatabase() async throws -> GamesDatabase {
        let address = try XCTUnwrap(Self.address)
        let name = "locker_restore_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try await Self.admin(address, "CREATE DATABASE \(name)")
        addTeardownBlock { try? await Self.admin(address, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        var url = URLComponents(string: address)!
        url.path = "/" + name
        return try await PostgresGamesDatabase(url: url.string!, logger: logger)
    }

    static func admin(_ address: String, _ sql: String) async throws {
        let parts = try XCTUnwrap(PostgresURL(address, environment: ProcessInfo.processInfo.environment))
        let client = PostgresClient(configuration: .init(host: parts.host, port: parts.port, username: parts.user, password: parts.password,
                                                         database: parts.database, tls: .disable), backgroundLogger: Logger(label: "admin"))
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        try await client.query(PostgresQuery(unsafeSQL: sql))
    }

    var url: String {
        var url = URLComponents(string: Self.address!)!
        url.path = "/" + databaseName
        return url.string!
    }

    func testTwoServersOnOneDatabaseSeeEachOthersChanges() async throws {
        let other = try await PostgresGamesDatabase(url: url, logger: logger)
        let clock = self.clock
        let secondService = GamesService(database: other, suburbs: service.suburbs, now: { clock.now })
        let (secondServer, secondPort) = try await startServer(secondService)
        defer { secondServer.cancel() }
        let second = try GamesHTTPClient(url: "http://127.0.0.1:\(secondPort)")
        let feed = second.changes(after: nil)
        let first = Task { () -> GamesChange? in
            for try await change in feed { return change }
            return nil
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let org = try await account("org")
        let game = try await api.create(NewGame(ground: "casey-fields", startsAt: startsIn(hours: 30), players: 1), idempotencyKey: nil, token: org)
        let arrived = try await withTimeout(seconds: 2) { try await first.value }
        XCTAssertEqual(arrived?.game, game.id, "made through server one, heard by server two's client (LISTEN/NOTIFY)")
        let value5 = try await second.game(game.id, token: nil).id
        XCTAssertEqual(value5, game.id)
        await other.close()
    }

    func testANewerSchemaIsRefusedUntouched() async throws {
        try await database.transaction { db in _ = try await db.query("INSERT INTO lockerSchema (version) VALUES (99)", []) }
        do {
            _ = try await PostgresGamesDatabase(url: url, logger: logger)
            XCTFail("a newer schema must be refused")
        } catch {
            XCTAssertEqual(error as? GamesError, .newerSchema)
        }
    }
}
