import XCTest
@testable import LockerKit

final class DegreeOfDifficultyTests: XCTestCase {
    /// Every DD tabled in the 2024 rule book's appendices 9 and 11 (Data/diving/dd-tables.csv)
    /// is reproduced by the component formula.
    func testEveryTabledValueIsComputed() throws {
        let csv = try String(contentsOf: packageRoot.appendingPathComponent("Data/diving/dd-tables.csv"), encoding: .utf8)
        var checked = 0
        var wrong: [String] = []
        for line in csv.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 3, let height = DiveHeight(rawValue: fields[1]) else { continue }
            let expected = Int((Double(fields[2])! * 10).rounded())
            do {
                let result = try DegreeOfDifficulty.compute(DiveCode(parsing: fields[0]), height: height)
                if result.tenths != expected { wrong.append("\(fields[0]) \(fields[1]) m: \(result.tenths) ≠ \(expected)") }
            } catch {
                wrong.append("\(fields[0]) \(fields[1]) m: \(error)")
            }
            checked += 1
        }
        XCTAssertEqual(checked, 950)
        XCTAssertEqual(wrong, [], "\(wrong.count) of \(checked) differ")
    }

    func testWorkedExampleComponents() throws {
        // 3 m 5253B: A 2½ som. 2.2 + B back pike 0.3 + C 1½ twists in 2½ som. 0.7 + D back 0.2 + E 0.
        let dd = try DegreeOfDifficulty.compute(DiveCode(parsing: "5253B"), height: .m3)
        XCTAssertEqual(dd, DDComponents(a: 22, b: 3, c: 7, d: 2, e: 0))
        XCTAssertEqual(dd.value, 3.4)
        XCTAssertEqual(try DegreeOfDifficulty.compute(DiveCode(parsing: "626c"), height: .m5).value, 3.5, "lower case accepted")
        XCTAssertEqual(try DegreeOfDifficulty.compute(DiveCode(parsing: "600A"), height: .m10).tenths, 16, "600 takes the armstand-forward approach")
    }

    func testInvalidCodesSayWhy() {
        func error(_ code: String, _ height: DiveHeight = .m3) -> DiveCodeError? {
            do { _ = try DegreeOfDifficulty.compute(DiveCode(parsing: code), height: height); return nil } catch { return error as? DiveCodeError }
        }
        XCTAssertEqual(error("105"), .malformed)
        XCTAssertEqual(error("105E"), .malformed)
        XCTAssertEqual(error("12345B"), .malformed)
        XCTAssertEqual(error("705B"), .unknownGroup)
        XCTAssertEqual(error("125B"), .badDigit, "flying digit must be 0 or 1")
        XCTAssertEqual(error("5132B"), .positionNotAllowed, "1½ som. with twists is D only")
        XCTAssertEqual(error("5253D"), .positionNotAllowed, "2½ som. with twists is B or C")
        XCTAssertEqual(error("105D"), .positionNotAllowed, "free position is only for twisting dives")
        XCTAssertEqual(error("1011C", .m3), .tooManySomersaults, "5½ somersaults only from 10 m")
        XCTAssertEqual(error("107A"), .positionNotTabled, "no straight 3½")
        XCTAssertEqual(error("0105B"), .unknownGroup)
    }
}
