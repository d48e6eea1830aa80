import Foundation

/// Turns English message ids into the interface language, from the PO catalogues in
/// `Localization/`. English is the source language: a message missing from a catalogue (or
/// fuzzy, or empty) falls back to the English text, so the interface never shows a key.
///
/// Placeholders are named and written in braces: `t("Saved {file}", ["file": name])`.
/// Plurals: `n("{count} question", "{count} questions", count: 3)` picks the form by the
/// language's rule and fills `{count}`.
public final class Localizer {
    public private(set) var language: Language
    private let catalogs: [Language: POCatalog]

    public init(language: Language, catalogs: [Language: POCatalog]) {
        self.language = language
        self.catalogs = catalogs
    }

    /// A localizer with no catalogues: every message stays in English.
    public static let english = Localizer(language: .en, catalogs: [:])

    public func setLanguage(_ language: Language) {
        self.language = language
    }

    /// The translation of `msgid` in the current language.
    public func t(_ msgid: String, context: String? = nil, _ arguments: [String: String] = [:]) -> String {
        let text = catalogs[language]?.translation(msgid, context: context)
            ?? catalogs[.en]?.translation(msgid, context: context)
            ?? msgid
        return Localizer.fill(text, arguments)
    }

    /// The plural form of a message for `count`, with `{count}` and other placeholders filled.
    public func n(_ singular: String, _ plural: String, count: Int, context: String? = nil,
                  _ arguments: [String: String] = [:]) -> String {
        let index = PluralRule.formIndex(for: count, language: language)
        let fallback = PluralRule.formIndex(for: count, language: .en) == 0 ? singular : plural
        let text = catalogs[language]?.translation(singular, context: context, pluralIndex: index) ?? fallback
        var all = arguments
        all["count"] = String(count)
        return Localizer.fill(text, all)
    }

    /// Whether the current language's catalogue has its own text for `msgid`.
    public func hasTranslation(_ msgid: String, context: String? = nil) -> Bool {
        catalogs[language]?.translation(msgid, context: context) != nil
    }

    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        guard !arguments.isEmpty, text.contains("{") else { return text }
        var result = text
        for (name, value) in arguments { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }

    /// Loads `en.po`, `fr.po`, `es.po`, `it.po` from a directory. Files that are missing or do not
    /// parse are reported in `problems` (file name and line) and left out; English text fills in.
    public static func load(from directory: URL?, language: Language) -> (Localizer, problems: [String]) {
        var catalogs: [Language: POCatalog] = [:]
        var problems: [String] = []
        guard let directory else { return (Localizer(language: language, catalogs: [:]), ["Localization folder not found"]) }
        for candidate in Language.allCases {
            let url = directory.appendingPathComponent("\(candidate.rawValue).po")
            do {
                let text = try String(contentsOf: url, encoding: .utf8)
                catalogs[candidate] = try POCatalog(parsing: text)
            } catch let error as POParseError {
                problems.append("\(url.lastPathComponent) \(error.description)")
            } catch {
                problems.append("\(url.lastPathComponent): \(error.localizedDescription)")
            }
        }
        return (Localizer(language: language, catalogs: catalogs), problems)
    }
}
