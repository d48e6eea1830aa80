import Foundation
import XCTest
@testable import LockerKit

/// The bundled diving files are decoded on another core from the moment `DivingFiles` is made,
/// and the view-models take what came of it: the value, or why it cannot be used.
final class DivingFilesTests: XCTestCase {
    func testTheBundledFilesArriveDecoded() throws {
        let files = DivingFiles(directory: packageRoot.appendingPathComponent("Data/diving"), language: .fr)
        XCTAssertEqual(try files.penalties.value.get().penalties.count, 48)
        XCTAssertFalse(try files.questions.value.get().questions.isEmpty)
        XCTAssertEqual(files.digestLanguage, .fr)
        XCTAssertNotNil(try files.digest.value.get().article("8.5.4"))
        // Read again: the same value, without waiting.
        XCTAssertEqual(try files.penalties.value.get().penalties.count, 48)
    }

    func testAMissingOrBrokenFileIsAReasonTheTabsShow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diving-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("digest"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{ \"format\": \"locker-penalties\", ".utf8).write(to: folder.appendingPathComponent("penalties.json"))
        let files = DivingFiles(directory: folder, language: .en)
        let penalties = PenaltiesViewModel(localizer: .english, loaded: files.penalties.value)
        XCTAssertNil(penalties.book)
        XCTAssertEqual(penalties.loadError?.file, "penalties.json")
        guard case .failure(let missing) = files.questions.value else { return XCTFail("no question bank is there") }
        XCTAssertEqual(missing.file, "questions.json")
        let rules = RulesViewModel(localizer: .english, digestDirectory: folder.appendingPathComponent("digest"),
                                   officialRepository: JSONRepository<OfficialRules>(url: folder.appendingPathComponent("official.json")),
                                   preloaded: (files.digestLanguage, files.digest.value))
        XCTAssertNil(rules.digest)
        XCTAssertEqual(rules.loadError?.file, "en.md")
    }
}
