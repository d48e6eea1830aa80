import Dispatch
import FoundationEssentials

/// The Rules tab: the digest in the interface language (English when a language's file is
/// missing), the selected article, and the user's imported official text shown instead of the
/// digest on request.
public final class RulesViewModel: ViewModel {
    public let localizer: Localizer
    private let digestDirectory: URL
    private var digests: [Language: RulesDigest] = [:]
    private var failures: [Language: DataFileError] = [:]
    /// The next language's digest, read on another core once keys pause (`prefetchDigests`).
    private var prefetched: [Language: Prefetch<Result<RulesDigest, DataFileError>>] = [:]
    public private(set) var official: OfficialRules?
    /// A stored official copy that could not be read (it was kept aside).
    public private(set) var officialProblem: String?
    public private(set) var showOfficial = false
    /// Index of the selected article in `digest.articles`.
    public private(set) var selectedIndex = 0
    /// Increases each time an article is opened on purpose (TOC, `g`, a link from Penalties),
    /// so the screen knows to scroll the text to it.
    public private(set) var jumpRequest = 0
    /// The tab that opened the current article (Penalties' Enter on an article), which Esc
    /// returns to; nil when the user came by themselves.
    public var openedFrom: Tab?

    /// `preloaded` is a digest already read (`DivingFiles`), with its language.
    public init(localizer: Localizer, digestDirectory: URL, officialRepository: any Repository<OfficialRules>,
                preloaded: (Language, Result<RulesDigest, DataFileError>)? = nil) {
        self.localizer = localizer
        self.digestDirectory = digestDirectory
        super.init()
        switch preloaded {
        case (let language, .success(let digest))?: digests[language] = digest
        case (let language, .failure(let error))?: failures[language] = error
        case nil: break
        }
        switch officialRepository.load() {
        case .loaded(let rules): official = rules
        case .missing: break
        case .corrupt(let backup, _): officialProblem = backup?.lastPathComponent ?? "official-rules.json"
        }
    }

    public var language: Language { localizer.language }

    /// The digest in the interface language, else English; nil if neither can be read.
    public var digest: RulesDigest? { digest(for: language) ?? digest(for: .en) }

    /// Why the digest of the current language could not be read, if it could not.
    public var loadError: DataFileError? { _ = digest; return failures[language] }

    /// Starts reading the digest of the language `L` goes to next on another core, so that the
    /// first frame after `L` only draws: the screen asks for it while keys pause.
    public func prefetchDigests() {
        let language = self.language.next
        guard !digestsPrefetched else { return }
        let url = digestDirectory.appendingPathComponent("\(language.rawValue).md")
        prefetched[language] = Prefetch(on: RulesViewModel.queue) { RulesDigest.loaded(from: url) }
    }

    /// Whether the next language's digest is read or being read.
    public var digestsPrefetched: Bool {
        let next = language.next
        return digests[next] != nil || failures[next] != nil || prefetched[next] != nil
    }

    /// Whether every digest `prefetchDigests` started has been read (tests).
    var prefetchDone: Bool { prefetched.values.allSatisfy(\.isReady) }

    private static let queue = DispatchQueue(label: "locker.digests", qos: .utility)

    public func digest(for language: Language) -> RulesDigest? {
        if let cached = digests[language] { return cached }
        if failures[language] != nil { return nil }
        // Prefetched: at most a wait for the other core; else read here.
        let read = prefetched.removeValue(forKey: language)?.value
            ?? RulesDigest.loaded(from: digestDirectory.appendingPathComponent("\(language.rawValue).md"))
        switch read {
        case .success(let loaded):
            digests[language] = loaded
            return loaded
        case .failure(let error):
            failures[language] = error
            return nil
        }
    }

    public var selected: RuleArticle? {
        guard let digest, digest.articles.indices.contains(selectedIndex) else { return nil }
        return digest.articles[selectedIndex]
    }

    // MARK: Intents

    /// Selects an article without moving the text (the text view follows the reader).
    public func select(_ index: Int) {
        guard let digest, digest.articles.indices.contains(index), index != selectedIndex else { return }
        selectedIndex = index
        notifyChanged()
    }

    /// Selects an article and asks the screen to show it.
    public func open(index: Int) {
        guard let digest, digest.articles.indices.contains(index) else { return }
        selectedIndex = index
        jumpRequest += 1
        notifyChanged()
    }

    /// Opens an article by number ("8.5.4"); false when the digest has no such article.
    /// A link from another tab (`preferOfficial`) shows the official text of the article when
    /// the user has imported it.
    @discardableResult
    public func open(_ number: String, preferOfficial: Bool = false) -> Bool {
        let cleaned = String(number.trimmingSpaces.drop { $0 == "I" || $0 == "V" || $0 == "." })
        guard let index = digest?.index(of: cleaned) else { return false }
        if preferOfficial, official?.text(of: cleaned) != nil { showOfficial = true }
        open(index: index)
        return true
    }

    /// Switches between the digest and the imported official text; false when none is imported.
    @discardableResult
    public func toggleOfficial() -> Bool {
        guard official != nil else { return false }
        showOfficial.toggle()
        jumpRequest += 1
        notifyChanged()
        return true
    }
}
