import FoundationEssentials
import LockerKit
import XCTest

/// Inputs the fuzzers (scripts/fuzz) found crashing, and the seed corpus, replayed on every
/// `swift test` so a fixed crash stays fixed without the fuzz build.
final class FuzzRegressionTests: XCTestCase {
    /// Every file under Tests/Fuzz/corpus/TARGET goes through the same code as the fuzzer; a
    /// crash here ends the test process, which fails the suite.
    func testEverySeedAndSavedCrashRunsThroughItsTarget() throws {
        var replayed = 0
        for target in FuzzTarget.allCases {
            let folder = packageRoot.appendingPathComponent("Tests/Fuzz/corpus/\(target.rawValue)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            XCTAssertFalse(names.isEmpty, "no seed for \(target.rawValue)")
            for name in names {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
                target.run(bytes)
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, FuzzTarget.allCases.count)
    }

    /// workout-json crash a7c6b598: a 10^56 longitude was quoted in the error through
    /// NumberText.compact, whose conversion to Int trapped.
    func testAHugeCoordinateIsRefusedNotATrap() {
        let text = "[[-38.03, 100000000000000000000000000000000000000000000000000000008.03, 100]]"
        XCTAssertThrowsError(try WorkoutReader.read(bytes: Array(text.utf8), name: "huge.json")) { error in
            XCTAssertTrue("\(error)".contains("longitude"), "\(error)")
        }
    }

    /// grades-csv crash 79431691: a course coefficient of 3.3 × 10^92 is valid, and exporting
    /// it trapped in the same function.
    func testAHugeCoefficientExportsAsWritten() throws {
        let csv = "1,Unit,2,false,Course,333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333.95,,false\n"
        let book = GradeBook(units: [], blocks: [])
        let imported = try GradesCSV.importing(csv, into: book, .english)
        let exported = GradesCSV.export(imported)
        XCTAssertTrue(exported.contains("e+89"), exported)
    }

    /// gpx crash b5d66d73: each skipped comment or declaration recursed into the scanner, so a
    /// file of tens of thousands of them overflowed the stack.
    func testAMillionCommentsDoNotExhaustTheStack() throws {
        let body = String(repeating: "<!-- c --><!x><?p?>", count: 300_000)
        let gpx = "<gpx>" + body + "<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        XCTAssertEqual(try WorkoutReader.read(bytes: Array(gpx.utf8), name: "comments.gpx").count, 1)
    }

    /// Deep nesting in a JSON value the reader skips is refused, not recursed into without end.
    func testDeeplyNestedJSONIsRefused() {
        let json = "{\"title\": \"x\", \"extra\": " + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + ", \"points\": []}"
        XCTAssertThrowsError(try WorkoutReader.read(bytes: Array(json.utf8), name: "deep.json")) { error in
            XCTAssertTrue("\(error)".contains("nested more than 512 levels"), "\(error)")
        }
    }

    func testNumbersTooLargeForIntegersAreWrittenWithoutTrapping() {
        XCTAssertEqual(NumberText.compact(1e300), "1e+300")
        XCTAssertEqual(NumberText.compact(-12.5), "-12.5")
        XCTAssertNil(NumberText.whole(.infinity))
        XCTAssertNil(NumberText.whole(1e20))
        XCTAssertEqual(NumberText.whole(2.5), 3)
        XCTAssertEqual(GradeFormat.mark(1e300), "—")
        XCTAssertEqual(GradeFormat.needed(1e300), "—")
        XCTAssertEqual(GradeFormat.needed(-0.5), "-0.50")
        XCTAssertEqual(WorkoutText.duration(1e300), "—")
        XCTAssertEqual(WorkoutText.bpm(.infinity), "—")
        XCTAssertEqual(MeasureText.decimals(1e300, 2, .english), "—")
        XCTAssertEqual(MeasureText.distance(.infinity, .english), "—")
    }
}
