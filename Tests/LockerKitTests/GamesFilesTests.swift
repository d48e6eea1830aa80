import Foundation
import XCTest
@testable import LockerKit
@testable import LockerGames

/// The games' files and wire formats: council exports, calendar files, instants, places and
/// problem documents. (The store's behaviour is the contract suite in GamesServerTests.)
final class GamesFilesTests: XCTestCase {
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
    }

    func testCalendarFile() throws {
        let start = 1_800_001_800.0
        let game = GameListing(id: 7, ground: "casey-fields", groundName: "Casey Fields", suburb: "Cranbourne East", postcode: "3977",
                               latitude: -38.1, longitude: 145.3, startsAt: Instant.string(start), capacity: 22, players: 4, going: 0,
                               waitlisted: 0, status: .open, myStatus: .organiser, organiser: "sam",
                               note: "Bring a bat; and, water\nplease", cancelReason: nil, map: "https://www.openstreetmap.org/?mlat=-38.1&mlon=145.3")
        let ics = GameCalendar.ics(game, store: "0123456789ab", now: start - 1800)
        XCTAssertTrue(ics.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        XCTAssertTrue(ics.contains("UID:game-7-0123456789ab@locker\r\n"), "game 7 of this store, not of every store")
        XCTAssertNotEqual(GameCalendar.ics(game, store: "ba9876543210", now: start - 1800), ics)
        XCTAssertTrue(ics.contains("DTSTART:" + GameCalendar.utc(start) + "\r\n"))
        XCTAssertTrue(ics.contains("GEO:-38.1;145.3\r\n"))
        XCTAssertTrue(ics.replacingOccurrences(of: "\r\n ", with: "").contains("Bring a bat\\; and\\, water\\nplease"), ics)
        XCTAssertTrue(ics.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines folded at 75 octets")
        XCTAssertTrue(ics.hasSuffix("END:VCALENDAR\r\n"))
    }

    func testInstantsAndPlaces() {
        XCTAssertEqual(Instant.string(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Instant.parse("2026-12-05T10:00:00+11:00"), Instant.parse("2026-12-04T23:00:00Z"))
        XCTAssertNil(Instant.parse("2026-02-30T10:00:00Z"), "30 February does not exist")
        XCTAssertNil(Instant.parse("2026-12-05T10:00:00"), "no offset: ambiguous")
        XCTAssertNil(Instant.parse("2026-12-05T25:00:00Z"))
        XCTAssertEqual(Place("3977"), .postcode("3977"))
        XCTAssertEqual(Place(" -38.03, 145.34 "), .position(latitude: -38.03, longitude: 145.34), "negative coordinates")
        XCTAssertNil(Place("--near"))
        XCTAssertNil(Place("39"))
        XCTAssertNil(Place("91,0"))
    }

    func testProblemsRoundTripToTheSameError() {
        let errors: [GamesError] = [.badUsername, .badPassword, .usernameTaken, .wrongCredentials, .locked(until: 1_800_000_000), .notLoggedIn,
                                    .unknownGround("x"), .unknownGame(4), .inThePast, .tooFarAhead, .badTime, .badPlayers, .badCapacity,
                                    .badMinimum, .noteTooLong, .reasonMissing, .gameCancelled, .gameStarted, .notOrganiser,
                                    .organiserCannotBook, .notBooked, .badPostcode("39"), .noSuchPostcode("3000"), .invalid(field: "admin"),
                                    .tooLarge, .rateLimited(seconds: 12), .unsupportedVersion, .serverFailed]
        for error in errors {
            let problem = error.problem
            let wire = try! JSONDecoder().decode(Problem.self, from: JSONEncoder().encode(problem))
            XCTAssertEqual(GamesError(problem: wire), error, "\(error)")
            XCTAssertEqual(problem.status, problem.code.httpStatus)
        }
        XCTAssertEqual(GamesError.locked(until: 0).problem.code, .lockedOut)
        XCTAssertEqual(GamesError.badCapacity.problem.field, "capacity")
    }
}
