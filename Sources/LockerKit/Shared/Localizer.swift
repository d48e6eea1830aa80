import Dispatch
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
    /// The next language's catalogue, read on another core once keys pause (`prefetch`).
    private var prefetched: [Language: Prefetch<Result<POCatalog, CatalogProblem>>] = [:]

    /// Why a catalogue could not be read (English, for logs and banners).
    struct CatalogProblem: Error { let text: String }

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

    /// A localizer of its own for one job on another thread: this one's language and its
    /// catalogue (a value, shared until either copy changes), reading nothing later. The UI's
    /// localizer stays on the UI thread (ARCHITECTURE §7a); the copy belongs to the job.
    public func snapshot() -> Localizer {
        Localizer(language: language, catalogs: catalogs[language].map { [language: $0] } ?? [:])
    }

    /// A new localizer with no catalogues: every message stays in English.
    public static var english: Localizer { Localizer(language: .en, catalogs: [:]) }

    public func setLanguage(_ language: Language) {
        self.language = language
        loadIfNeeded(language)
        // Only the current language's catalogue and the next one's stay in memory (each is
        // about a megabyte); a language left is read again when `L` comes back to it.
        for other in Language.allCases where other != .en && other != language && other != language.next {
            catalogs[other] = nil
            prefetched[other] = nil
            attempted.remove(other)
        }
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

    /// Puts the value of each `{name}` of `text` found in `arguments` in its place, in one pass
    /// over the text: what a value holds is never read as a placeholder (a ground called
    /// "{count} Park" is shown so), and a placeholder without a value stays as written.
    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        let bytes = text.utf8
        guard !arguments.isEmpty, bytes.contains(open) else { return text }
        var result = ""
        result.reserveCapacity(bytes.count + 16)
        var copied = bytes.startIndex, searchFrom = bytes.startIndex
        while let start = bytes[searchFrom...].firstIndex(of: open) {
            let nameStart = bytes.index(after: start)
            guard let end = bytes[nameStart...].firstIndex(where: { $0 == close || $0 == open }) else { break }
            searchFrom = end
            guard bytes[end] == close else { continue }
            searchFrom = bytes.index(after: end)
            guard let value = arguments[String(text[nameStart..<end])] else { continue }
            result += text[copied..<start]
            result += value
            copied = searchFrom
        }
        result += text[copied...]
        return result
    }

    /// Starts reading the catalogue of the language `L` goes to next on another core, so that
    /// `L` later only switches: the shell calls it whenever keys pause (it does nothing once
    /// that catalogue is read or being read).
    public func prefetch() {
        let language = self.language.next
        guard let directory, !attempted.contains(language), prefetched[language] == nil else { return }
        prefetched[language] = Prefetch(on: Localizer.queue) { Localizer.read(language, in: directory) }
    }

    /// Whether `language`'s catalogue is read (or being read on another core): switching to it
    /// does no file work here.
    public func isPrepared(_ language: Language) -> Bool { attempted.contains(language) || prefetched[language] != nil }

    /// Whether every catalogue `prefetch` started has been read (tests).
    var prefetchDone: Bool { prefetched.values.allSatisfy(\.isReady) }

    private static let queue = DispatchQueue(label: "locker.catalogues", qos: .utility)

    private func loadIfNeeded(_ language: Language) {
        guard !attempted.contains(language), let directory else { return }
        attempted.insert(language)
        // Prefetched: at most a wait for the other core; else read here (at start-up).
        switch prefetched.removeValue(forKey: language)?.value ?? Localizer.read(language, in: directory) {
        case .success(let catalog): catalogs[language] = catalog
        case .failure(let problem): problems.append(problem.text)
        }
    }

    private static func read(_ language: Language, in directory: URL) -> Result<POCatalog, CatalogProblem> {
        let url = directory.appendingPathComponent("\(language.rawValue).po")
        do {
            let data = try Data(contentsOf: url)
            return .success(try POCatalog(parsing: String(decoding: data, as: UTF8.self)))
        } catch let error as POParseError {
            return .failure(CatalogProblem(text: "\(url.lastPathComponent) \(error.description)"))
        } catch {
            return .failure(CatalogProblem(text: "\(url.lastPathComponent): \(error)"))
        }
    }
}
