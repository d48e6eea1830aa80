import XCTest
@testable import LockerKit

/// Panel scores against the worked examples of the rules (facts §2.5) and the missing-award rule.
final class PanelScoreTests: XCTestCase {
    private func score(_ dd: String, _ awards: [Double?], synchro: Bool = false) throws -> PanelScore {
        try PanelScore.compute(difficulty: dd, awards: awards, synchro: synchro)
    }

    func testFiveJudgesCancelHighestAndLowest() throws {
        let result = try score("2.0", [8, 7.5, 7.5, 7.5, 7])
        XCTAssertEqual(result.panel, .five)
        XCTAssertEqual(result.keptHalfPoints, 45)
        XCTAssertEqual(result.hundredths, 4500)
        XCTAssertEqual(result.awards.map(\.cancelled), [true, false, false, false, true])
    }

    func testSevenJudgesCancelTwoAtEachEndEvenAmongEqualAwards() throws {
        let result = try score("2.0", [8, 7.5, 7.5, 7.5, 7.5, 7.5, 7])
        XCTAssertEqual(result.panel, .seven)
        XCTAssertEqual(result.kept.map(\.value), [7.5, 7.5, 7.5])
        XCTAssertEqual(result.awards.filter(\.cancelled).count, 4)
        XCTAssertEqual(result.score, 45.0)
    }

    func testElevenJudgeSynchroCancelsWithinEachGroup() throws {
        // Diver A 7 7.5 8 → 7.5; diver B 7 7.5 8 → 7.5; synchro 6.5 6.5 7 7 7.5 → 20.5; 35.5 ÷ 5 × 3 × 2.8.
        let result = try score("2.8", [7, 7.5, 8, 7, 7.5, 8, 6.5, 6.5, 7, 7, 7.5], synchro: true)
        XCTAssertEqual(result.panel, .eleven)
        XCTAssertEqual(result.keptHalfPoints, 71)
        XCTAssertEqual(result.hundredths, 5964)
        XCTAssertEqual(result.awards.map(\.role), Array(repeating: .executionA, count: 3) + Array(repeating: .executionB, count: 3)
                       + Array(repeating: .synchronisation, count: 5))
        XCTAssertEqual(result.kept.count, 5)
    }

    func testNineJudgeSynchroRanksTheFourExecutionAwardsTogether() throws {
        // Execution 7 7.5 | 7.5 8 → keep 7.5 + 7.5; synchro 6.5 6.5 7 7 7.5 → 20.5; 35.5 → 59.64.
        let result = try score("2.8", [7, 7.5, 7.5, 8, 6.5, 6.5, 7, 7, 7.5], synchro: true)
        XCTAssertEqual(result.panel, .nine)
        XCTAssertEqual(result.score, 59.64)
        XCTAssertEqual(result.awards.prefix(4).map(\.cancelled), [true, false, false, true])
    }

    func testMissingAwardIsTheRoundedAverageOfTheOthers() throws {
        // Others 7 7 7 7.5 → 7.125 → fraction .13 rounds down to 7.
        XCTAssertEqual(try score("2.0", [7, 7, nil, 7, 7.5]).awards[2].halfPoints, 14)
        // Others 7 7.5 7.5 7.5 → 7.375 → .38 rounds to the half point.
        XCTAssertEqual(try score("2.0", [7, 7.5, nil, 7.5, 7.5]).awards[2].halfPoints, 15)
        // Others 7.5 8 8 8 → 7.875 → .88 rounds up to 8.
        let up = try score("2.0", [7.5, 8, 8, 8, nil])
        XCTAssertEqual(up.awards[4].halfPoints, 16)
        XCTAssertTrue(up.awards[4].replaced)
        // Exactly .25 and .75 go to the half point and up.
        XCTAssertEqual(PanelScore.roundedAverage(halfPoints: [14, 15]), 15)   // 7.25 → 7.5
        XCTAssertEqual(PanelScore.roundedAverage(halfPoints: [15, 16]), 16)   // 7.75 → 8
        XCTAssertEqual(PanelScore.roundedAverage(halfPoints: [14, 14, 14, 14, 15]), 14)   // 7.1 → 7
    }

    func testSynchroMissingAwardsComeFromTheSameJudgeGroup() throws {
        // 11 panel: diver B's missing award is the average of B's other two (7.5, 8 → 7.75 → 8).
        let eleven = try score("2.0", [5, 5, 5, 7.5, nil, 8, 6, 6, 6, 6, 6], synchro: true)
        XCTAssertEqual(eleven.awards[4].halfPoints, 16)
        // 9 panel: an execution award is replaced by the other judge of the same diver.
        let nine = try score("2.0", [6, nil, 8, 8, 6, 6, 6, 6, 6], synchro: true)
        XCTAssertEqual(nine.awards[1].halfPoints, 12)
        XCTAssertThrowsError(try score("2.0", [nil, nil, 8, 8, 6, 6, 6, 6, 6], synchro: true)) {
            XCTAssertEqual($0 as? PanelScoreError, .tooManyMissing(.execution))
        }
        XCTAssertThrowsError(try score("2.0", [7, nil, nil, 7, 7])) {
            XCTAssertEqual($0 as? PanelScoreError, .tooManyMissing(.execution))
        }
    }

    func testBadInputSaysWhatIsWrong() throws {
        XCTAssertThrowsError(try score("2.0", [7, 7, 7])) { XCTAssertEqual($0 as? PanelScoreError, .wrongCount(3, synchro: false)) }
        XCTAssertThrowsError(try score("2.0", [7, 7, 7, 7, 7], synchro: true)) { XCTAssertEqual($0 as? PanelScoreError, .wrongCount(5, synchro: true)) }
        XCTAssertThrowsError(try score("2.0", [7, 7, 7.3, 7, 7])) { XCTAssertEqual($0 as? PanelScoreError, .badAward("7.3")) }
        XCTAssertThrowsError(try score("2.0", [7, 7, 10.5, 7, 7])) { XCTAssertEqual($0 as? PanelScoreError, .badAward("10.5")) }
        for dd in ["0", "-1", "2.85", "abc", "12"] {
            XCTAssertThrowsError(try score(dd, [7, 7, 7, 7, 7]), dd) { XCTAssertEqual($0 as? PanelScoreError, .badDifficulty(dd)) }
        }
        XCTAssertThrowsError(try PanelScore.parseAwards("8,seven,7")) { XCTAssertEqual($0 as? PanelScoreError, .badAward("seven")) }
    }

    func testAwardListsAcceptCommasSpacesAndMissingMarks() throws {
        XCTAssertEqual(try PanelScore.parseAwards("8,7.5,7.5,7.5,7"), [8, 7.5, 7.5, 7.5, 7])
        XCTAssertEqual(try PanelScore.parseAwards("8  7.5 - 7 x"), [8, 7.5, nil, 7, nil])
        XCTAssertEqual(try PanelScore.parseAwards("8,,7"), [8, nil, 7])
        // Nothing typed is no award at all (it was read as one missing: "5 awards (1 given)").
        XCTAssertEqual(try PanelScore.parseAwards(""), [])
        XCTAssertEqual(try PanelScore.parseAwards("   "), [])
        XCTAssertEqual(try PanelScore.parseAwards("8;7.5;7"), [8, 7.5, 7])
        // Issue 28, item 7: a decimal comma, as fr, es and it write awards.
        XCTAssertEqual(try PanelScore.parseAwards("8 7,5 7,5 7,5 7"), [8, 7.5, 7.5, 7.5, 7])
        XCTAssertEqual(try PanelScore.parseAwards("8, 7.5, 7"), [8, 7.5, 7])
        XCTAssertEqual(try PanelScore.parseAwards("7,5; 8; 6,5"), [7.5, 8, 6.5])
    }

    func testTextShowsCancelledAndReplacedAwards() throws {
        let l = Localizer(directory: nil, language: .en)
        let lines = try score("2.0", [8, 7.5, nil, 7.5, 7]).describe(l)
        XCTAssertEqual(lines[1], "  Execution  (8)  7.5  7.5*  7.5  (7)")
        XCTAssertEqual(lines[2], "Score: 22.5 × 2.0 = 45.00")
        XCTAssertTrue(lines[3].contains("replaced"))
    }
}

/// Dive names and the calculator view-model.
final class DiveCalculatorTests: XCTestCase {
    let l = Localizer(directory: nil, language: .en)

    func testNamesAreComposedFromTheDiveNumber() throws {
        let names = try ["101A", "105B", "112B", "5253B", "5132D", "626C", "600A", "6243D", "401B", "1011C"].map { try DiveCode(parsing: $0).name(l) }
        XCTAssertEqual(names, [
            "Forward dive, straight", "Forward 2½ somersaults, pike", "Forward flying 1 somersault, pike",
            "Back 2½ somersaults, 1½ twists, pike", "Forward 1½ somersaults, 1 twist, free",
            "Armstand back 3 somersaults, tuck", "Armstand dive, straight", "Armstand back 2 somersaults, 1½ twists, free",
            "Inward dive, pike", "Forward 5½ somersaults, tuck",
        ])
    }

    /// A plain dive is named as each language says it: "Plongeon retourné", not "Retourné plongeon".
    func testAPlainDiveIsNamedInEachLanguagesOrder() throws {
        let localization = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Localization")
        let expected: [Language: String] = [.en: "Inward dive, pike", .fr: "Plongeon retourné, carpé", .es: "Salto adentro, carpado", .it: "Tuffo ritornato, carpiato"]
        for (language, name) in expected {
            XCTAssertEqual(try DiveCode(parsing: "401B").name(Localizer(directory: localization, language: language)), name)
        }
    }

    func testArmstandIsPlatformOnly() {
        XCTAssertThrowsError(try DegreeOfDifficulty.compute(DiveCode(parsing: "626C"), height: .m3)) {
            XCTAssertEqual($0 as? DiveCodeError, .armstandOnSpringboard)
        }
    }

    func testHeightsParseAsPeopleWriteThem() {
        XCTAssertEqual(DiveHeight(parsing: "7,5"), .m7_5)
        XCTAssertEqual(DiveHeight(parsing: "10m"), .m10)
        XCTAssertEqual(DiveHeight(parsing: "3 m"), .m3)
        XCTAssertEqual(DiveHeight(parsing: "3.0"), .m3)
        XCTAssertNil(DiveHeight(parsing: "2"))
    }

    func testViewModelRecomputesAndNotifies() throws {
        let model = DiveCalculatorViewModel(localizer: l)
        var changes = 0
        let token = model.observe { changes += 1 }
        model.setCode("5253b")
        guard case .success(let dive)? = model.dive else { return XCTFail("no DD") }
        XCTAssertEqual(dive.components.tenths, 34)
        model.setAwards("8 7.5 7.5 7.5 7")
        guard case .success(let score)? = model.score else { return XCTFail("no score") }
        XCTAssertEqual(score.hundredths, 7650)
        model.setCode("626C")
        XCTAssertEqual(model.diveProblem, "626C: armstand dives are done from the platform only (5, 7.5 or 10 m), not at 3 m.")
        XCTAssertNil(model.score, "no DD, no score")
        model.stepHeight(by: 2)
        XCTAssertEqual(model.height, .m7_5)
        model.setSynchro(true)
        XCTAssertEqual(model.scoreProblem, "Synchronised panels have 9 or 11 judges; 5 awards were given.")
        XCTAssertEqual(changes, 5)
        token.cancel()
    }
}
