import XCTest
@testable import LockerKit

final class POCatalogTests: XCTestCase {
    func testParsesEntriesContextsPluralsAndHeader() throws {
        let text = """
        # translator comment
        msgid ""
        msgstr ""
        "Language: fr\\n"
        "Plural-Forms: nplurals=2; plural=(n > 1);\\n"

        #: Sources/App.swift
        msgid "Quit"
        msgstr "Quitter"

        msgctxt "verb"
        msgid "Open"
        msgstr "Ouvrir"

        msgid "{count} question"
        msgid_plural "{count} questions"
        msgstr[0] "{count} question"
        msgstr[1] "{count} questions"
        """
        let catalog = try POCatalog(parsing: text)
        XCTAssertEqual(catalog.header["Language"], "fr")
        XCTAssertEqual(catalog.translation("Quit"), "Quitter")
        XCTAssertEqual(catalog.translation("Open", context: "verb"), "Ouvrir")
        XCTAssertNil(catalog.translation("Open"), "context is part of the key")
        XCTAssertEqual(catalog.translation("{count} question", pluralIndex: 1), "{count} questions")
        XCTAssertEqual(catalog.order.count, 3)
        XCTAssertEqual(catalog.entries["Quit"]?.line, 7)
    }

    func testEscapesAndMultiLineStrings() throws {
        let text = #"""
        msgid ""
        "Line one\n"
        "Line \"two\"\t\\ end"
        msgstr "A\x41\101\n"
        "next"
        """#
        let catalog = try POCatalog(parsing: text)
        XCTAssertEqual(catalog.translation("Line one\nLine \"two\"\t\\ end"), "AAA\nnext")
    }

    func testAccentedTextAndEscapesThatNameCharactersByNumber() throws {
        let text = #"""
        msgid "Quit"
        msgstr "Quitter l’épreuve « ici »\xe9\351 \x4a\\"
        """#
        let catalog = try POCatalog(parsing: text)
        XCTAssertEqual(catalog.translation("Quit"), "Quitter l’épreuve « ici »éé J\\")
        XCTAssertThrowsError(try POCatalog(parsing: "msgid \"a\\é\"\nmsgstr \"b\"")) { error in
            XCTAssertEqual((error as? POParseError)?.message, "unknown escape \\é")
        }
    }

    func testFuzzyEmptyAndObsoleteEntriesAreNotTranslations() throws {
        let text = """
        #, fuzzy
        msgid "Maybe"
        msgstr "Peut-être"

        msgid "Empty"
        msgstr ""

        #~ msgid "Old"
        #~ msgstr "Ancien"
        """
        let catalog = try POCatalog(parsing: text)
        XCTAssertNil(catalog.translation("Maybe"))
        XCTAssertNil(catalog.translation("Empty"))
        XCTAssertNil(catalog.translation("Old"))
    }

    func testWindowsLineEndings() throws {
        let catalog = try POCatalog(parsing: "msgid \"a\"\r\nmsgstr \"b\"\r\n")
        XCTAssertEqual(catalog.translation("a"), "b")
    }

    func testErrorsNameTheLine() {
        let cases: [(String, Int)] = [
            ("msgid \"a\"\nmsgstr \"b\n", 2),                 // unterminated string
            ("msgid \"a\"\nmsgstr \"b\"\nbogus \"c\"\n", 3),   // unknown keyword
            ("\"orphan\"\n", 1),                              // string outside of an entry
            ("msgstr \"b\"\n", 1),                            // msgstr before msgid
            ("msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"c\"", 1),  // entry without msgstr
            ("msgid \"a\\q\"\nmsgstr \"b\"", 1),              // unknown escape
        ]
        for (text, line) in cases {
            XCTAssertThrowsError(try POCatalog(parsing: text), text) { error in
                XCTAssertEqual((error as? POParseError)?.line, line, "\(text): \(error)")
            }
        }
    }
}
