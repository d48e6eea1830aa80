import FoundationEssentials

/// Turns English message ids into the interface language, from the PO catalogues in
/// `Localization/`. English is the source language: a message missing from a catalogue (or
/// fuzzy, or empty) falls back to the English text, so the interface never shows a key.
///
/// Placeholders are named and written in braces, e.g. t with "Saved {file}" and
/// `["file": name]`. Plurals: n with a singular and a plural message and a count picks the form
/// by the language's rule and fills `{count}`. (Examples are not written as calls here, so that
/// `scripts/l10n extract` does not take them for messages.)
public final class Localizer {
    public private(set) var language: Language
    private var catalogs: [Language: POCatalog]
    private let directory: URL?
    private var attempted: Set<Language>
    /// Catalogues that could not be read, as "file line N: reason" (English, for logs and banners).
    public private(set) var problems: [String] = []

    /// A localizer over catalogues already parsed (tests, tools).
    public init(language: Language, catalogs: [Language: POCatalog]) {
        self.language = language
        self.catalogs = catalogs
        self.directory = nil
        self.attempted = Set(Language.allCases)
    }

    /// A localizer that reads `<language>.po` from `directory` the first time a language is
    /// used, so start-up parses one catalogue, not four. English needs none: msgids are English.
    public init(directory: URL?, language: Language) {
        self.language = language
        self.catalogs = [:]
        self.directory = directory
        self.attempted = [.en]
        if directory == nil { problems.append("Localization folder not found") }
        loadIfNeeded(language)
    }

    /// A new localizer with no catalogues: every message stays in English.
    public static var english: Localizer { Localizer(language: .en, catalogs: [:]) }

    public func setLanguage(_ language: Language) {
        self.language = language
        loadIfNeeded(language)
    }

    /// The translation of `msgid` in the current language.
    public func t(_ msgid: String, context: String? = nil, _ arguments: [String: String] = [:]) -> String {
        let text = catalogs[language]?.translation(msgid, context: context) ?? msgid
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

    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        guard !arguments.isEmpty, text.contains("{") else { return text }
        var result = text
        for (name, value) in arguments { result = result.replacing("{\(name)}", with: value) }
        return result
    }

    private func loadIfNeeded(_ language: Language) {
        guard !attempted.contains(language), let directory else { return }
        attempted.insert(language)
        let url = directory.appendingPathComponent("\(language.rawValue).po")
        do {
            let data = try Data(contentsOf: url)
            catalogs[language] = try POCatalog(parsing: String(decoding: data, as: UTF8.self))
        } catch let error as POParseError {
            problems.append("\(url.lastPathComponent) \(error.description)")
        } catch {
            problems.append("\(url.lastPathComponent): \(error)")
        }
    }
}
