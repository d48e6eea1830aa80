import XCTest
@testable import LockerKit

final class PenaltyDataTests: XCTestCase {
    var book: PenaltyBook!

    override func setUpWithError() throws {
        book = try PenaltyBook.load(from: packageRoot.appendingPathComponent("Data/diving/penalties.json"))
    }

    func testCountsPerSanctionAndOwnerMatchTheRuleBook() {
        XCTAssertEqual(book.penalties.count, 48)
        var perSanction: [Sanction: Int] = [:]
        for p in book.penalties { perSanction[p.sanction, default: 0] += 1 }
        XCTAssertEqual(perSanction, [.failed: 17, .deduct2: 3, .max2: 2, .max4half: 3, .deductHalfTo2: 19, .judgeOpinion: 4])
        XCTAssertEqual(book.penalties.filter { $0.referee && !$0.judge }.count, 14)
        XCTAssertEqual(book.penalties.filter { !$0.referee && $0.judge }.count, 26)
        XCTAssertEqual(book.penalties.filter { $0.referee && $0.judge }.count, 8)
        XCTAssertEqual(book.penalties.map(\.index), Array(0..<48))
    }

    func testKnownReferenceMistakesAreFixed() throws {
        let byIndex = Dictionary(uniqueKeysWithValues: book.penalties.map { ($0.index, $0) })
        XCTAssertEqual(byIndex[1]?.articles, ["6.5.4", "8.3.4"], "double bounce is 6.5.4 in the 2024 body")
        XCTAssertEqual(byIndex[6]?.articles, ["6.5.9"])
        XCTAssertEqual(byIndex[7]?.articles, ["6.5.10"])
        XCTAssertEqual(byIndex[6]?.summaryArticles, ["6.5.8.1"])
        XCTAssertEqual(byIndex[11]?.articles, ["9.2", "9.8"])
        XCTAssertEqual(byIndex[14]?.articles, ["9.2"])
        let synchro = try XCTUnwrap(byIndex[47])
        XCTAssertEqual(synchro.articles, ["9.12"])
        XCTAssertEqual(synchro.sanction, .failed)
        XCTAssertTrue(synchro.referee && !synchro.judge)
    }

    func testEveryArticleIsInEveryDigest() throws {
        let articles = Set(book.penalties.flatMap { $0.articles + $0.summaryArticles })
        for language in Language.allCases {
            let digest = try String(contentsOf: packageRoot.appendingPathComponent("Data/diving/digest/\(language.rawValue).md"), encoding: .utf8)
            let headings = Set(digest.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("#") else { return nil }
                return line.drop { $0 == "#" }.drop { $0 == " " }.split(separator: " ").first.map(String.init)
            })
            XCTAssertEqual(articles.subtracting(headings), [], "\(language.rawValue) digest lacks articles")
        }
    }

    func testBadFilesAreRejectedWithTheFileAndReason() throws {
        let dir = try makeTemporaryDirectory(self)
        let url = dir.appendingPathComponent("penalties.json")
        try Data("[1, 2".utf8).write(to: url)
        XCTAssertThrowsError(try PenaltyBook.load(from: url)) { error in
            XCTAssertEqual((error as? DataFileError)?.file, "penalties.json")
        }
        var broken = book!
        broken.penalties[3].description = LocalizedText([.en: "only English"])
        try JSONEncoder().encode(broken).write(to: url)
        XCTAssertThrowsError(try PenaltyBook.load(from: url)) { error in
            XCTAssertTrue("\(error)".contains("no fr description"), "\(error)")
        }
        broken = book!
        broken.penalties[5].id = broken.penalties[4].id
        try JSONEncoder().encode(broken).write(to: url)
        XCTAssertThrowsError(try PenaltyBook.load(from: url)) { error in
            XCTAssertTrue("\(error)".contains("duplicate id"), "\(error)")
        }
        broken = book!
        broken.penalties[7].index = 6
        try JSONEncoder().encode(broken).write(to: url)
        XCTAssertThrowsError(try PenaltyBook.load(from: url)) { error in
            XCTAssertTrue("\(error)".contains("has index 6, not its place 7"), "\(error)")
        }
    }

    func testViewModelFiltersKeepTheSelectionAndNotify() throws {
        let model = PenaltiesViewModel(localizer: .english, book: book)
        var changes = 0
        let token = model.observe { changes += 1 }
        model.select(19)
        let chosen = try XCTUnwrap(model.selected)
        XCTAssertEqual(chosen.articles, ["8.5.4"])
        model.cycleSanctionFilter()  // failed
        XCTAssertEqual(model.visible.count, 17)
        XCTAssertEqual(model.selectedIndex, 0, "the chosen penalty is filtered out: first row")
        model.setFilters(sanction: .max2, owner: .any)
        XCTAssertEqual(model.visible.map(\.articles), [["6.4.13", "8.1.4"], ["8.5.4"]])
        model.select(1)
        model.cycleOwnerFilter()  // referee
        XCTAssertEqual(model.visible.count, 1)
        model.cycleOwnerFilter()  // judge
        XCTAssertEqual(model.visible.count, 2)
        XCTAssertEqual(model.selected?.articles, ["6.4.13", "8.1.4"], "selection kept where it survives the filter")
        model.setFilters(sanction: .deduct2, owner: .judge)
        XCTAssertTrue(model.visible.isEmpty)
        XCTAssertNil(model.selected)
        model.clearFilters()
        XCTAssertEqual(model.visible.count, 48)
        XCTAssertEqual(changes, 8)
        token.cancel()
    }

    func testMissingFileGivesALoadError() {
        let model = PenaltiesViewModel(localizer: .english, loading: URL(fileURLWithPath: "/nonexistent/penalties.json"))
        XCTAssertNil(model.book)
        XCTAssertEqual(model.loadError?.file, "penalties.json")
        XCTAssertTrue(model.visible.isEmpty)
    }
}
