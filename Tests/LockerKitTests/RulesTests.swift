import XCTest
@testable import LockerKit

final class RulesTests: XCTestCase {
    func digest(_ language: Language) throws -> RulesDigest {
        try RulesDigest.load(from: packageRoot.appendingPathComponent("Data/diving/digest/\(language.rawValue).md"))
    }

    func testAllFourDigestsHaveTheSameArticlesInTheSameOrder() throws {
        let english = try digest(.en).articles.map(\.number)
        XCTAssertGreaterThan(english.count, 100)
        for chapter in ["1", "5", "6", "7", "8", "9", "10"] { XCTAssertTrue(english.contains(chapter), chapter) }
        for language in [Language.fr, .es, .it] {
            let other = try digest(language)
            XCTAssertEqual(other.articles.map(\.number), english, language.rawValue)
            XCTAssertTrue(other.articles.allSatisfy { !$0.title.isEmpty }, language.rawValue)
        }
        let scale = try XCTUnwrap(try digest(.en).article("8.1.1"))
        XCTAssertEqual(scale.blocks.filter { if case .bullet = $0 { return true } else { return false } }.count, 7, "seven bands")
    }

    func testParserRejectsBadHeadingsWithTheLine() {
        XCTAssertThrowsError(try RulesDigest.parse("# 1 General\n## 1.5.1 Wrong depth\n", file: "x.md")) { error in
            XCTAssertEqual("\(error)", "x.md: line 2: article 1.5.1 needs 3 #")
        }
        XCTAssertThrowsError(try RulesDigest.parse("text first\n# 1 General\n", file: "x.md"))
        XCTAssertThrowsError(try RulesDigest.parse("# General\n", file: "x.md"))
        XCTAssertThrowsError(try RulesDigest.parse("<!-- only a comment -->\n", file: "x.md"))
        let parsed = try? RulesDigest.parse("# 1 General\nOne\nline.\n\n- a bullet\n", file: "x.md")
        XCTAssertEqual(parsed?.articles.first?.blocks, [.paragraph("One line."), .bullet("a bullet")])
    }

    func testOfficialSplitKeepsArticlesAndDropsPageFurniture() {
        let text = """
                                                                   COMPETITION REGULATIONS
        6.5           Re-starts
        6.5.4         If the diver double bounces on the end of the springboard, the Referee
                      shall declare it a failed dive.

        In force as from 1 January 2024                                   133
        \u{0C}                                                              COMPETITION REGULATIONS
                      • Note one
        6.5.5         If the final step is not from one foot.
        10.            SUMMARY
                   6.5.4                If a diver double bounces.
        """
        let articles = OfficialRules.split(text)
        XCTAssertEqual(articles.map(\.number), ["6.5", "6.5.4", "6.5.5"])
        XCTAssertEqual(articles[1].text, "If the diver double bounces on the end of the springboard, the Referee shall declare it a failed dive.\n- Note one")
        XCTAssertEqual(articles[2].text, "If the final step is not from one foot.")
    }

    func testImportRefusesTextThatIsNotTheRuleBook() throws {
        let digest = try digest(.en)
        XCTAssertThrowsError(try OfficialRules.make(fromText: "Just a letter.\nNo numbers here.", source: "a.pdf", digest: digest)) {
            XCTAssertEqual($0 as? OfficialRules.ImportError, .noArticles)
        }
        XCTAssertThrowsError(try OfficialRules.make(fromText: "1.1  One\n1.2  Two\n", source: "a.pdf", digest: digest)) {
            XCTAssertEqual($0 as? OfficialRules.ImportError, .notARuleBook(0))
        }
    }

    func testImportOfTheRealRuleBook() throws {
        let pdf = packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/reference/diving/rulebooks/2022-2025_World-Aquatics-Diving-Rules_en_20240101.pdf")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: pdf.path), "rule book not available")
        try XCTSkipIf(ExternalCommand.find("pdftotext") == nil, "pdftotext not installed")
        let rules = try OfficialRules.make(fromText: OfficialRules.extractText(fromPDF: pdf.path), source: "rules.pdf", digest: digest(.en))
        XCTAssertGreaterThan(rules.articles.count, 300)
        XCTAssertTrue(rules.text(of: "6.5.4")?.contains("double bounce") ?? false)
        XCTAssertTrue(rules.text(of: "9.12")?.contains("running approach") ?? false)
        let penalties = try PenaltyBook.load(from: packageRoot.appendingPathComponent("Data/diving/penalties.json"))
        let missing = Set(penalties.penalties.flatMap(\.articles)).filter { rules.text(of: $0) == nil }
        XCTAssertEqual(missing, [], "every penalty article is in the imported text")
    }

    func testMissingConverterAndUnreadableFile() {
        XCTAssertNil(ExternalCommand.find("pdftotext", path: "/nonexistent"))
        if ExternalCommand.find("pdftotext") != nil {
            XCTAssertThrowsError(try OfficialRules.extractText(fromPDF: "/nonexistent.pdf")) { error in
                guard case OfficialRules.ImportError.unreadable = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// The next language's digest is read on another core while keys pause: after `L` the Rules
    /// tab draws from it without reading a file (one removed after the prefetch still shows).
    func testOtherLanguagesDigestsAreReadBeforeTheyAreShown() throws {
        let dir = try makeTemporaryDirectory(self)
        let digests = dir.appendingPathComponent("digest")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Data/diving/digest"), to: digests)
        let localizer = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .en)
        let model = RulesViewModel(localizer: localizer, digestDirectory: digests,
                                   officialRepository: JSONRepository<OfficialRules>(url: dir.appendingPathComponent("official-rules.json")))
        XCTAssertNotNil(model.digest)
        XCTAssertFalse(model.digestsPrefetched)
        model.prefetchDigests()
        XCTAssertTrue(model.digestsPrefetched)
        let deadline = Date().addingTimeInterval(10)
        while !model.prefetchDone && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        // The language L goes to next (fr after en): read ahead, not the two after it.
        try FileManager.default.removeItem(at: digests.appendingPathComponent("fr.md"))
        localizer.setLanguage(.fr)
        XCTAssertNotNil(model.digest(for: .fr), "read before the file went")
        XCTAssertNil(model.loadError)
    }

    func testViewModelOpensArticlesAndTogglesOfficialText() throws {
        let dir = try makeTemporaryDirectory(self)
        let repository = JSONRepository<OfficialRules>(url: dir.appendingPathComponent("official-rules.json"))
        let localizer = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .fr)
        var model = RulesViewModel(localizer: localizer, digestDirectory: packageRoot.appendingPathComponent("Data/diving/digest"),
                                   officialRepository: repository)
        XCTAssertTrue(model.open("8.5.4"))
        XCTAssertEqual(model.selected?.number, "8.5.4")
        XCTAssertEqual(model.jumpRequest, 1)
        XCTAssertTrue(model.open("IV.6.5.4"), "the rule book's IV. prefix is accepted")
        XCTAssertFalse(model.open("99.1"))
        XCTAssertFalse(model.toggleOfficial(), "nothing imported yet")
        // `locker rules import` saves the official text; the tab reads it when it is built.
        try repository.save(OfficialRules(source: "r.pdf", importedAt: Date(), articles: [.init(number: "6.5.4", text: "official")]))
        model = RulesViewModel(localizer: localizer, digestDirectory: packageRoot.appendingPathComponent("Data/diving/digest"),
                               officialRepository: repository)
        XCTAssertTrue(model.open("8.5.4"))
        XCTAssertTrue(model.toggleOfficial())
        XCTAssertTrue(model.showOfficial)
        XCTAssertTrue(model.toggleOfficial())
        XCTAssertTrue(model.open("6.5.4", preferOfficial: true))
        XCTAssertTrue(model.showOfficial, "a link opens the official article when it was imported")
        let reloaded = RulesViewModel(localizer: localizer, digestDirectory: packageRoot.appendingPathComponent("Data/diving/digest"),
                                      officialRepository: repository)
        XCTAssertEqual(reloaded.official?.text(of: "6.5.4"), "official", "stored atomically and read back")
        XCTAssertTrue(reloaded.selected?.title.contains("Généralités") ?? false || reloaded.selected?.number == "1")
    }

    func testMissingDigestLanguageFallsBackToEnglish() throws {
        let dir = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Data/diving/digest/en.md"), to: dir.appendingPathComponent("en.md"))
        let model = RulesViewModel(localizer: Localizer(language: .it, catalogs: [:]), digestDirectory: dir,
                                   officialRepository: JSONRepository<OfficialRules>(url: dir.appendingPathComponent("o.json")))
        XCTAssertEqual(model.digest?.articles.first?.number, "1")
        XCTAssertEqual(model.loadError?.file, "it.md")
    }
}
