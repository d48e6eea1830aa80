import Foundation
import XCTest
@testable import LockerKit
@testable import LockerGames

final class GamesStoreTests: XCTestCase {
    let now = 1_800_000_000.0   // a fixed clock

    func makeStore() throws -> (GamesStore, URL) {
        let dir = try makeTemporaryDirectory(self)
        let store = try GamesStore(path: dir.appendingPathComponent("games.sqlite").path)
        try store.upsert(try GroundsFile.read(packageRoot.appendingPathComponent("Data/games/grounds.csv")))
        return (store, dir)
    }

    func testMigrationsFromEmptyAndNewerSchemaIsRefused() throws {
        let (store, dir) = try makeStore()
        XCTAssertGreaterThan(try store.groundCount(), 5)
        let path = dir.appendingPathComponent("games.sqlite").path
        XCTAssertNoThrow(try GamesStore(path: path), "opening again migrates nothing")
        // A database migrated by a future Locker.
        let future = try GamesStore(path: dir.appendingPathComponent("future.sqlite").path)
        try future.pool.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        XCTAssertThrowsError(try GamesStore(path: dir.appendingPathComponent("future.sqlite").path)) {
            XCTAssertEqual($0 as? GamesError, .newerSchema)
        }
        try Data("not a database at all, just text".utf8).write(to: dir.appendingPathComponent("text.sqlite"))
        XCTAssertThrowsError(try GamesStore(path: dir.appendingPathComponent("text.sqlite").path)) {
            guard case .database? = $0 as? GamesError else { return XCTFail("\($0)") }
        }
    }

    func testSignUpLoginAndLockout() throws {
        let (store, _) = try makeStore()
        XCTAssertThrowsError(try store.createAccount(name: "ab", password: "long enough", now: now)) { XCTAssertEqual($0 as? GamesError, .badUsername) }
        XCTAssertThrowsError(try store.createAccount(name: "bad name", password: "long enough", now: now)) { XCTAssertEqual($0 as? GamesError, .badUsername) }
        XCTAssertThrowsError(try store.createAccount(name: "sam", password: "short", now: now)) { XCTAssertEqual($0 as? GamesError, .badPassword) }
        let sam = try store.createAccount(name: "sam.k", password: "correct horse", now: now)
        XCTAssertThrowsError(try store.createAccount(name: "SAM.K", password: "another one", now: now)) { XCTAssertEqual($0 as? GamesError, .usernameTaken) }
        let hash = try store.pool.read { db in try String.fetchOne(db, sql: "SELECT passwordHash FROM user") }
        XCTAssertTrue(hash?.hasPrefix("$y$") ?? false, "yescrypt")
        let (user, token) = try store.login(name: "sam.k", password: "correct horse", now: now)
        XCTAssertEqual(user, sam)
        XCTAssertEqual(try store.user(forToken: token), sam)
        let stored = try store.pool.read { db in try String.fetchOne(db, sql: "SELECT tokenHash FROM session") }
        XCTAssertNotEqual(stored, token, "tokens are stored hashed")
        XCTAssertThrowsError(try store.login(name: "nobody", password: "whatever1", now: now)) { XCTAssertEqual($0 as? GamesError, .wrongCredentials) }
        for _ in 0..<4 {
            XCTAssertThrowsError(try store.login(name: "sam.k", password: "wrong horse", now: now)) { XCTAssertEqual($0 as? GamesError, .wrongCredentials) }
        }
        XCTAssertThrowsError(try store.login(name: "sam.k", password: "wrong horse", now: now)) {
            XCTAssertEqual($0 as? GamesError, .locked(until: now + 900))
        }
        XCTAssertThrowsError(try store.login(name: "sam.k", password: "correct horse", now: now + 60), "locked even with the right password") {
            XCTAssertEqual($0 as? GamesError, .locked(until: now + 900))
        }
        XCTAssertNoThrow(try store.login(name: "sam.k", password: "correct horse", now: now + 901))
        try store.logout(token: token)
        XCTAssertNil(try store.user(forToken: token))
    }

    func testNearestGroundsByGreatCircleDistance() throws {
        let (store, _) = try makeStore()
        let grounds = try store.allGrounds()
        let target = grounds[0]
        let nearest = try store.nearestGrounds(latitude: target.latitude, longitude: target.longitude)
        XCTAssertEqual(nearest.count, min(5, grounds.count))
        XCTAssertEqual(nearest[0].meters, 0, accuracy: 1e-6)
        XCTAssertEqual(nearest.map(\.meters), nearest.map(\.meters).sorted())
        // One degree of latitude on the mean sphere.
        XCTAssertEqual(GreatCircle.meters(-38, 145, -37, 145), 111_195, accuracy: 1)
    }

    func testCreateValidation() throws {
        let (store, _) = try makeStore()
        let sam = try store.createAccount(name: "sam", password: "password1", now: now)
        let ground = try store.allGrounds()[0].id
        XCTAssertThrowsError(try store.createGame(organiser: sam, groundID: "nowhere", startsAt: now + 3600, players: 1, now: now)) {
            XCTAssertEqual($0 as? GamesError, .unknownGround("nowhere"))
        }
        XCTAssertThrowsError(try store.createGame(organiser: sam, groundID: ground, startsAt: now - 1, players: 1, now: now)) { XCTAssertEqual($0 as? GamesError, .inThePast) }
        XCTAssertThrowsError(try store.createGame(organiser: sam, groundID: ground, startsAt: now + 60, players: 1, capacity: 51, now: now)) { XCTAssertEqual($0 as? GamesError, .badCapacity) }
        XCTAssertThrowsError(try store.createGame(organiser: sam, groundID: ground, startsAt: now + 60, players: 0, now: now)) { XCTAssertEqual($0 as? GamesError, .badPlayers) }
        XCTAssertThrowsError(try store.createGame(organiser: sam, groundID: ground, startsAt: now + 60, players: 3, capacity: 10, minimum: 11, now: now)) { XCTAssertEqual($0 as? GamesError, .badMinimum) }
        let id = try store.createGame(organiser: sam, groundID: ground, startsAt: now + 60, players: 3, capacity: 10, minimum: 6, note: "Bring a bat", now: now)
        let game = try store.game(id: id, for: sam)
        XCTAssertEqual(game.status, "needs-players")
        XCTAssertEqual(game.myStatus, "organiser")
        XCTAssertTrue(game.mapLink.hasPrefix("https://www.openstreetmap.org/?mlat="))
    }

    func testWaitlistAndPromotionOnCancel() throws {
        let (store, _) = try makeStore()
        let organiser = try store.createAccount(name: "org", password: "password1", now: now)
        let players = try (1...4).map { try store.createAccount(name: "p\($0)x", password: "password1", now: now) }
        let id = try store.createGame(organiser: organiser, groundID: try store.allGrounds()[0].id, startsAt: now + 86_400, players: 1, capacity: 3, now: now)
        XCTAssertEqual(try store.book(gameID: id, user: players[0], now: now), "going")
        XCTAssertEqual(try store.book(gameID: id, user: players[1], now: now + 1), "going")
        XCTAssertEqual(try store.book(gameID: id, user: players[2], now: now + 2), "waitlisted")
        XCTAssertEqual(try store.book(gameID: id, user: players[3], now: now + 3), "waitlisted")
        XCTAssertEqual(try store.book(gameID: id, user: players[2], now: now + 4), "waitlisted", "booking twice changes nothing")
        XCTAssertThrowsError(try store.book(gameID: id, user: organiser, now: now)) { XCTAssertEqual($0 as? GamesError, .organiserCannotBook) }
        XCTAssertEqual(try store.cancelBooking(gameID: id, user: players[0], now: now + 5), "p3x", "first waiting moves up")
        let game = try store.game(id: id, for: players[3])
        XCTAssertEqual(game.going, 2)
        XCTAssertEqual(game.waitlisted, 1)
        XCTAssertEqual(game.myStatus, "waitlisted")
        XCTAssertEqual(try store.upcoming(for: players[2], since: now).map(\.id), [id])
        try store.cancelGame(gameID: id, user: organiser, reason: "Rain\u{1B}[31m")
        XCTAssertThrowsError(try store.book(gameID: id, user: players[0], now: now)) { XCTAssertEqual($0 as? GamesError, .gameCancelled) }
        XCTAssertEqual(try store.game(id: id, for: nil).status, "cancelled")
        XCTAssertThrowsError(try store.cancelGame(gameID: id, user: players[1], reason: "x")) { XCTAssertEqual($0 as? GamesError, .notOrganiser) }
    }

    func testSharedTextIsMadeInert() {
        XCTAssertEqual(TerminalText.inert("Rain\u{1B}[31m!\u{07}\u{9B}2J\u{202E}x"), "Rain\u{FFFD}[31m!\u{FFFD}\u{FFFD}2J\u{FFFD}x")
    }

    func testSHA256() {
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testCouncilExportImportsFromCSVAndGeoJSON() throws {
        let csv = "recordid,playground_name,suburb_name,postcode,latitude,longitude,googlemaps_drive_to\r\n"
            + "a1b2,\"Tooradin Foreshore, Playground\",Tooradin,3980,-38.2143,145.3836,https://maps.example\r\n"
        let grounds = try GroundsImport.read(Data(csv.utf8), fileName: "export.csv", .english)
        XCTAssertEqual(grounds, [Ground(id: "casey-a1b2", name: "Tooradin Foreshore, Playground", suburb: "Tooradin", postcode: "3980",
                                        latitude: -38.2143, longitude: 145.3836, approximate: false)])
        let geo = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"recordid": "x9", "playground_name": "Lake\\u001b[2J Park", "suburb_name": "Berwick", "postcode": "3806"},
           "geometry": {"type": "Point", "coordinates": [145.35, -38.03]}}]}
        """
        let fromGeo = try GroundsImport.read(Data(geo.utf8), fileName: "export.geojson", .english)
        XCTAssertEqual(fromGeo.first?.latitude, -38.03, "GeoJSON coordinates are longitude, latitude")
        XCTAssertEqual(fromGeo.first?.name, "Lake\u{FFFD}[2J Park")
        XCTAssertThrowsError(try GroundsImport.read(Data("recordid,playground_name,suburb_name,postcode,latitude,longitude\n1,A,B,39,-38,145\n".utf8), fileName: "bad.csv", .english)) {
            XCTAssertEqual(($0 as? GroundsImport.Problem)?.place, "bad.csv, line 2")
        }
        XCTAssertThrowsError(try GroundsImport.read(Data("name,lat\n".utf8), fileName: "bad.csv", .english))
        let (store, _) = try makeStore()
        let before = try store.groundCount()
        try store.upsert(grounds)
        try store.upsert(grounds)
        XCTAssertEqual(try store.groundCount(), before + 1, "importing again updates, never duplicates")
    }

    func testCalendarFileAndToday() throws {
        let (store, _) = try makeStore()
        let sam = try store.createAccount(name: "sam", password: "password1", now: now)
        let id = try store.createGame(organiser: sam, groundID: "casey-fields", startsAt: now + 1800, players: 4,
                                      note: "Bring a bat; and, water\nplease", now: now)
        let ics = GameCalendar.ics(try store.game(id: id, for: sam), now: now)
        XCTAssertTrue(ics.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        XCTAssertTrue(ics.contains("UID:game-\(id)@locker\r\n"))
        XCTAssertTrue(ics.contains("DTSTART:" + GameCalendar.utc(now + 1800) + "\r\n"))
        XCTAssertTrue(ics.replacingOccurrences(of: "\r\n ", with: "").contains("Bring a bat\\; and\\, water\\nplease"), ics)
        XCTAssertTrue(ics.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines folded at 75 octets")
        XCTAssertTrue(ics.hasSuffix("END:VCALENDAR\r\n"))
        XCTAssertEqual(try store.today(for: sam, now: now).map(\.id), [id])
        XCTAssertEqual(try store.today(for: sam, now: now + 3 * 86_400), [], "another day")
    }
}
