import Foundation
import XCTest
@testable import LockerKit

/// Data/diving/glossary.json names, per language, the rule books' official terms and the
/// everyday variants that must not appear: in the interface catalogue, in that language's
/// penalty and question texts, and in its rules digest.
final class GlossaryTests: XCTestCase {
    struct Glossary: Decodable {
        struct Term: Decodable { var concept: String; var term: String; var forbidden: [String]; var note: String? }
        var format: String
        var version: Int
        var languages: [String: [Term]]
    }

    let diving = packageRoot.appendingPathComponent("Data/diving")

    func loadGlossary() throws -> Glossary {
        try JSONDecoder().decode(Glossary.self, from: Data(contentsOf: diving.appendingPathComponent("glossary.json")))
    }

    /// Every string under the key `language` anywhere in a JSON value.
    func strings(in value: Any, language: String) -> [String] {
        if let object = value as? [String: Any] {
            var found: [String] = []
            for (key, child) in object {
                if key == language, let text = child as? String { found.append(text) } else { found += strings(in: child, language: language) }
            }
            return found
        }
        if let array = value as? [Any] { return array.flatMap { strings(in: $0, language: language) } }
        return []
    }

    /// The texts of one language that the glossary binds, each with where it comes from.
    func texts(of language: String) throws -> [(place: String, text: String)] {
        var result: [(String, String)] = []
        let po = try POCatalog(parsing: String(contentsOf: packageRoot.appendingPathComponent("Localization/\(language).po"), encoding: .utf8))
        for key in po.order { for text in po.entries[key]?.msgstr ?? [] { result.append(("\(language).po: \(key.prefix(50))", text)) } }
        for file in ["penalties.json", "questions.json"] {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: diving.appendingPathComponent(file)))
            for text in strings(in: json, language: language) { result.append((file, text)) }
        }
        result.append(("digest/\(language).md", try String(contentsOf: diving.appendingPathComponent("digest/\(language).md"), encoding: .utf8)))
        return result
    }

    func testNoForbiddenVariantInAnyCatalogueOrDataFile() throws {
        let glossary = try loadGlossary()
        XCTAssertEqual(glossary.format, "locker-glossary")
        XCTAssertEqual(Set(glossary.languages.keys), ["fr", "es", "it"])
        for (language, terms) in glossary.languages.sorted(by: { $0.key < $1.key }) {
            let corpus = try texts(of: language)
            XCTAssertGreaterThan(corpus.count, 800, "\(language): the catalogue, the penalties, the questions and the digest")
            for term in terms {
                for pattern in term.forbidden {
                    let regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
                    for (place, text) in corpus {
                        let range = NSRange(text.startIndex..., in: text)
                        guard let hit = regex.firstMatch(in: text, range: range), let found = Range(hit.range, in: text) else { continue }
                        let context = text[text.index(found.lowerBound, offsetBy: -min(30, text.distance(from: text.startIndex, to: found.lowerBound)))..<found.upperBound]
                        XCTFail("\(language) \(term.concept): “\(text[found])” (use “\(term.term)”) in \(place): …\(context)")
                    }
                }
            }
        }
    }

    /// A pattern that matched nothing at all would pass the test above while checking nothing:
    /// each must catch a wrong variant and leave the official term alone.
    func testEveryPatternCatchesAWrongVariantAndSparesTheOfficialTerm() throws {
        let wrong: [String: [String: String]] = [
            "fr": ["referee": "l'arbitre déclare", "straight position (A)": "position tendue"],
            "es": ["referee": "el árbitro declara", "failed dive": "salto nulo"],
            "it": ["referee": "l'arbitro dichiara"],
        ]
        let glossary = try loadGlossary()
        for (language, examples) in wrong {
            for (concept, example) in examples {
                guard let term = glossary.languages[language]?.first(where: { $0.concept.hasPrefix(concept) }) else {
                    XCTFail("\(language): no glossary entry for \(concept)"); continue
                }
                let regexes = try term.forbidden.map { try NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }
                let hits = { (text: String) in regexes.contains { $0.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil } }
                XCTAssertTrue(hits(example), "\(language) \(concept) must catch “\(example)”")
                XCTAssertFalse(hits(term.term), "\(language) \(concept) must not catch the official “\(term.term)”")
            }
        }
    }
}
