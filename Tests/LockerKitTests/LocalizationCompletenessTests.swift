import XCTest
@testable import LockerKit

/// Every message the code shows must exist, non-empty, in all four catalogues, with the same
/// placeholders; the catalogues must agree with each other. (CI also runs `msgfmt --check`.)
final class LocalizationCompletenessTests: XCTestCase {
    struct Message: Hashable { var context: String?; var id: String }

    /// Messages used in Sources/: every `t("…")` and the singular of every `n("…", "…")`.
    func usedMessages() throws -> Set<Message> {
        let string = #""((?:[^"\\]|\\.)*)""#
        let single = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_])t\(\s*"# + string + #"(?:\s*,\s*context:\s*"# + string + ")?")
        let plural = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_])n\(\s*"# + string + #"\s*,\s*"# + string)
        var found = Set<Message>()
        let sources = packageRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            func group(_ match: NSTextCheckingResult, _ index: Int) -> String? {
                guard let r = Range(match.range(at: index), in: text) else { return nil }
                return String(text[r]).replacingOccurrences(of: #"\""#, with: "\"").replacingOccurrences(of: #"\\"#, with: "\\")
            }
            for match in single.matches(in: text, range: range) {
                found.insert(Message(context: group(match, 2), id: group(match, 1)!))
            }
            for match in plural.matches(in: text, range: range) {
                found.insert(Message(context: nil, id: group(match, 1)!))
            }
        }
        return found
    }

    func catalog(_ language: Language) throws -> POCatalog {
        let url = packageRoot.appendingPathComponent("Localization/\(language.rawValue).po")
        return try POCatalog(parsing: String(contentsOf: url, encoding: .utf8))
    }

    func placeholders(_ text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: #"\{[a-zA-Z]+\}"#)
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { (text as NSString).substring(with: $0.range) })
    }

    func testEveryUsedMessageIsTranslatedInEveryLanguage() throws {
        let used = try usedMessages()
        XCTAssertGreaterThan(used.count, 40, "the extraction finds the app's messages")
        for language in Language.allCases {
            let catalog = try catalog(language)
            for message in used {
                let translation = catalog.translation(message.id, context: message.context)
                XCTAssertNotNil(translation, "\(language.rawValue).po lacks \"\(message.id)\"")
                if let translation {
                    XCTAssertEqual(placeholders(translation), placeholders(message.id),
                                   "\(language.rawValue).po changes the placeholders of \"\(message.id)\"")
                }
            }
        }
    }

    func testCataloguesHaveTheSameMessagesAndNoneIsEmpty() throws {
        let english = try catalog(.en)
        for language in Language.allCases {
            let other = try catalog(language)
            XCTAssertEqual(Set(other.entries.keys), Set(english.entries.keys), "\(language.rawValue).po differs from en.po")
            for (key, entry) in other.entries {
                XCTAssertFalse(entry.msgstr.contains(""), "\(language.rawValue).po has an empty msgstr for \(key)")
                XCTAssertFalse(entry.isFuzzy, "\(language.rawValue).po has a fuzzy entry for \(key)")
                // A tool's leftover (a dictionary of every language pasted as one msgstr) once
                // reached the Games tab as raw text.
                XCTAssertFalse(entry.msgstr.contains { $0.contains("'fr': '") || $0.contains("\"fr\": \"") },
                               "\(language.rawValue).po holds a dictionary instead of a translation for \(key)")
            }
            XCTAssertNotNil(other.header["Plural-Forms"])
        }
    }

    func testResourcesAreFoundFromAnyWorkingDirectory() throws {
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath("/"))
        let resources = try XCTUnwrap(Resources.locate(environment: [:]))
        let localizer = Localizer(directory: resources.localizationDirectory, language: .it)
        let problems = localizer.problems
        XCTAssertEqual(problems, [])
        XCTAssertEqual(localizer.t("Quit"), "Esci")
    }

    func testExplicitResourcesVariableWins() throws {
        let dir = try makeTemporaryDirectory(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Localization"), withIntermediateDirectories: true)
        try "msgid \"Quit\"\nmsgstr \"Quit\"\n".write(to: dir.appendingPathComponent("Localization/en.po"), atomically: true, encoding: .utf8)
        XCTAssertEqual(Resources.locate(environment: ["LOCKER_RESOURCES": dir.path])?.root.path, dir.standardizedFileURL.path)
    }

    func testBrokenCatalogueIsReportedWithFileAndLine() throws {
        let dir = try makeTemporaryDirectory(self)
        try "msgid \"Quit\"\nmsgstr \"Quitter\n".write(to: dir.appendingPathComponent("fr.po"), atomically: true, encoding: .utf8)
        let localizer = Localizer(directory: dir, language: .fr)
        let problems = localizer.problems
        XCTAssertTrue(problems.contains { $0.hasPrefix("fr.po line 2") }, "\(problems)")
        XCTAssertEqual(localizer.t("Quit"), "Quit", "falls back to English")
    }

    /// Issue 27, item 15: counts shown to the user take their language's plural form.
    func testCountsTakeThePluralForm() {
        let one = "Enter starts · h shows the {count} finished quiz", many = "Enter starts · h shows the {count} finished quizzes"
        let expected: [(Language, String, String)] = [
            (.en, "Enter starts · h shows the 1 finished quiz", "Enter starts · h shows the 3 finished quizzes"),
            (.fr, "Enter lance le quiz · h affiche le 1 quiz terminé", "Enter lance le quiz · h affiche les 3 quiz terminés"),
            (.es, "Enter empieza · h muestra el 1 test terminado", "Enter empieza · h muestra los 3 tests terminados"),
            (.it, "Enter inizia · h mostra il 1 quiz finito", "Enter inizia · h mostra i 3 quiz finiti"),
        ]
        for (language, single, plural) in expected {
            let l = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: language)
            XCTAssertEqual(l.n(one, many, count: 1), single)
            XCTAssertEqual(l.n(one, many, count: 3), plural)
        }
        let english = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .en)
        XCTAssertEqual(english.n("{count} point", "{count} points", count: 1), "1 point")
        XCTAssertEqual(english.n("{shown} of {count} penalty", "{shown} of {count} penalties", count: 1, ["shown": "1"]), "1 of 1 penalty")
    }

    /// Issue 27, item 14: French puts a narrow no-break space before “:” and “;” and inside
    /// guillemets everywhere, so a line never breaks before them.
    func testFrenchPunctuationKeepsItsSpaceEverywhere() throws {
        let catalogue = try String(contentsOf: packageRoot.appendingPathComponent("Localization/fr.po"), encoding: .utf8)
        let translations = catalogue.split(separator: "\n").filter { $0.hasPrefix("msgstr") }
        let breakable = translations.filter { $0.contains(" :") || $0.contains(" ;") || $0.contains("« ") || $0.contains(" »") }
        XCTAssertEqual(breakable, [], "a plain space before French punctuation")
        XCTAssertGreaterThan(translations.filter { $0.contains("\u{202F}:") }.count, 100)
    }
}
