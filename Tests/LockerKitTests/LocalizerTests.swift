import XCTest
@testable import LockerKit

final class LocalizerTests: XCTestCase {
    func makeLocalizer(_ language: Language) throws -> Localizer {
        let fr = try POCatalog(parsing: """
        msgid "Quit"
        msgstr "Quitter"

        msgid "Saved {file}"
        msgstr "{file} enregistré"

        msgid "{count} question"
        msgid_plural "{count} questions"
        msgstr[0] "{count} question"
        msgstr[1] "{count} questions"
        """)
        return Localizer(language: language, catalogs: [.fr: fr])
    }

    func testTranslatesAndFallsBackToEnglish() throws {
        let localizer = try makeLocalizer(.fr)
        XCTAssertEqual(localizer.t("Quit"), "Quitter")
        XCTAssertEqual(localizer.t("Not translated"), "Not translated")
        XCTAssertEqual(localizer.t("Saved {file}", ["file": "notes.json"]), "notes.json enregistré")
        localizer.setLanguage(.es)
        XCTAssertEqual(localizer.t("Quit"), "Quit", "a language without catalogue shows English")
    }

    /// What a user typed (a ground or file name) is shown as typed, even when it looks like a
    /// placeholder; a placeholder with no value stays visible rather than vanishing.
    /// A job on another thread gets a localizer of its own: it speaks the language of the moment,
    /// and a later language switch of the UI's does not touch it.
    func testASnapshotKeepsItsLanguageWhateverTheOriginalDoes() throws {
        let ui = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .fr)
        let job = ui.snapshot()
        XCTAssertEqual(job.language, .fr)
        XCTAssertEqual(job.t("Reading your grades…"), "Lecture de vos notes…")
        ui.setLanguage(.es)
        XCTAssertEqual(ui.t("Reading your grades…"), "Leyendo tus notas…")
        XCTAssertEqual(job.t("Reading your grades…"), "Lecture de vos notes…")
        XCTAssertFalse(job === ui)
    }

    func testValuesAreNeverReadAsPlaceholders() throws {
        let localizer = try makeLocalizer(.en)
        for _ in 0..<20 {
            XCTAssertEqual(localizer.t("Ground {name}: {count} players", ["name": "{count} Park", "count": "3"]),
                           "Ground {count} Park: 3 players")
            XCTAssertEqual(localizer.n("{count} question in {name}", "{count} questions in {name}", count: 2, ["name": "{name}{"]),
                           "2 questions in {name}{")
        }
        XCTAssertEqual(localizer.t("Saved {file} to {folder}", ["file": "a.json"]), "Saved a.json to {folder}")
        XCTAssertEqual(localizer.t("Braces { alone } and {unclosed", ["alone": "x"]), "Braces { alone } and {unclosed")
        XCTAssertEqual(localizer.t("Accents {é} {file}", ["é": "e", "file": "ñ.gpx"]), "Accents e ñ.gpx")
    }

    func testPluralRulesPerLanguage() throws {
        let localizer = try makeLocalizer(.fr)
        XCTAssertEqual(localizer.n("{count} question", "{count} questions", count: 0), "0 question", "French: 0 is singular")
        XCTAssertEqual(localizer.n("{count} question", "{count} questions", count: 2), "2 questions")
        localizer.setLanguage(.en)
        XCTAssertEqual(localizer.n("{count} question", "{count} questions", count: 0), "0 questions")
        XCTAssertEqual(localizer.n("{count} question", "{count} questions", count: 1), "1 question")
        XCTAssertEqual(PluralRule.formIndex(for: 1, language: .it), 0)
        XCTAssertEqual(PluralRule.formIndex(for: 0, language: .es), 1)
    }

    func testLanguageFromEnvironment() {
        XCTAssertEqual(Language.fromEnvironment(["LANG": "fr_FR.UTF-8"]), .fr)
        XCTAssertEqual(Language.fromEnvironment(["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"]), .es)
        XCTAssertEqual(Language.fromEnvironment(["LC_ALL": "it_IT.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"]), .it)
        XCTAssertEqual(Language.fromEnvironment(["LC_ALL": "", "LANG": "es_MX"]), .es, "empty variables are skipped")
        XCTAssertEqual(Language.fromEnvironment(["LANG": "C.UTF-8"]), .en)
        XCTAssertEqual(Language.fromEnvironment(["LANG": "de_DE.UTF-8"]), .en)
        XCTAssertEqual(Language.fromEnvironment([:]), .en)
        XCTAssertEqual(Language.en.next, .fr)
        XCTAssertEqual(Language.it.next, .en)
    }
}
