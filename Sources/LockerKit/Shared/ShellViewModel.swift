import FoundationEssentials

/// A message for the status line: what just happened or what went wrong, already translated.
public struct Notice: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, success, warning, error }
    public var kind: Kind
    public var message: String
    public var postedAt: Date

    public init(_ kind: Kind, _ message: String, postedAt: Date = Date()) {
        self.kind = kind
        self.message = message
        self.postedAt = postedAt
    }

    /// A warning or an error (as opposed to a confirmation).
    public var isProblem: Bool { kind == .warning || kind == .error }

    /// How long the notice stays: problems stay longer than confirmations.
    public var lifetime: TimeInterval {
        switch kind {
        case .info, .success: return 4
        case .warning, .error: return 12
        }
    }
}

/// What the command line asked for at start-up (nil = not given).
public struct StartupChoices: Equatable, Sendable {
    public var tab: Tab?
    public var language: Language?
    public var theme: ThemeChoice?
    /// The language the environment asks for (LC_ALL, LC_MESSAGES, LANG).
    public var environmentLanguage: Language
    /// False when `NO_COLOR` is set and non-empty: the theme is then always mono.
    public var colorAllowed: Bool

    public init(tab: Tab? = nil, language: Language? = nil, theme: ThemeChoice? = nil,
                environmentLanguage: Language = .en, colorAllowed: Bool = true) {
        self.tab = tab
        self.language = language
        self.theme = theme
        self.environmentLanguage = environmentLanguage
        self.colorAllowed = colorAllowed
    }
}

/// The shell's state: current tab, language, theme, the status-line notice, and the settings
/// that remember them. The App maps global keys to these intents.
///
/// Precedence at start: command line, then settings.json, then the environment / defaults.
/// Settings are written atomically; the tab is saved lazily (`saveSettingsIfNeeded`) so that
/// switching tabs never waits for the disk.
public final class ShellViewModel: ViewModel {
    public let localizer: Localizer
    public private(set) var tab: Tab
    public private(set) var theme: ThemeChoice
    public private(set) var notice: Notice?
    /// Problems waiting for the status line while another one is shown (several files set aside
    /// at start-up): each gets its full time, one after the other.
    private var waiting: [Notice] = []
    public let colorAllowed: Bool
    /// True when the data directory cannot be written: nothing is saved, the app still runs.
    public private(set) var readOnly: Bool
    private let savesSettings: Bool
    private var settings: Settings
    /// The settings as last read or written: what this run changed is what differs from them.
    private var savedSettings: Settings
    private let repository: any Repository<Settings>
    private var settingsDirty = false

    public var language: Language { localizer.language }

    /// `savesSettings` false: language and theme changes last for this run only (a judge's pad,
    /// the scoreboard), without the read-only warning.
    public init(localizer: Localizer, repository: any Repository<Settings>, choices: StartupChoices,
                writable: Bool, savesSettings: Bool = true) {
        self.savesSettings = savesSettings
        self.localizer = localizer
        self.repository = repository
        self.colorAllowed = choices.colorAllowed
        self.readOnly = !writable
        var corruptBackup: String?
        switch repository.load() {
        case .loaded(let stored):
            settings = stored
        case .missing:
            settings = Settings()
        case .corrupt(let backup, _):
            settings = Settings()
            corruptBackup = backup?.lastPathComponent ?? "—"
        }
        savedSettings = settings
        tab = choices.tab ?? settings.lastTab ?? .rules
        theme = choices.colorAllowed ? (choices.theme ?? settings.theme ?? .dark) : .mono
        super.init()
        localizer.setLanguage(choices.language ?? settings.language ?? choices.environmentLanguage)
        if let corruptBackup {
            show(Notice(.warning, localizer.t("Your settings could not be read; they were kept as {file} and defaults are used.", ["file": corruptBackup])))
        }
        if readOnly {
            show(Notice(.warning, localizer.t("Your data folder cannot be written; Locker runs read-only and will not save changes.")))
        }
    }

    // MARK: Intents

    public func select(_ newTab: Tab) {
        guard newTab != tab else { return }
        tab = newTab
        settings.lastTab = newTab
        settingsDirty = true
        notifyChanged()
    }

    public func nextTab() { select(Tab.allCases[(tab.number) % Tab.allCases.count]) }

    public func previousTab() { select(Tab.allCases[(tab.number + Tab.allCases.count - 2) % Tab.allCases.count]) }

    public func cycleLanguage() {
        let next = localizer.language.next
        let knownProblems = localizer.problems.count
        localizer.setLanguage(next)
        settings.language = next
        settingsDirty = true
        if localizer.problems.count > knownProblems {
            show(Notice(.warning, localizer.t("A translation could not be loaded ({problem}); English is shown instead.",
                                              ["problem": localizer.problems[knownProblems...].joined(separator: "; ")])))
        } else {
            show(Notice(.info, localizer.t("Language: {name}", ["name": next.nativeName])))
        }
        notifyChanged()
        saveSettingsIfNeeded()
    }

    public func cycleTheme() {
        guard colorAllowed else {
            post(.info, localizer.t("Colours are off because NO_COLOR is set."))
            return
        }
        theme = theme.next
        settings.theme = theme
        settingsDirty = true
        let name: String
        switch theme {
        case .dark: name = localizer.t("dark")
        case .light: name = localizer.t("light")
        case .mono: name = localizer.t("no colour")
        }
        show(Notice(.info, localizer.t("Theme: {name}", ["name": name])))
        notifyChanged()
        saveSettingsIfNeeded()
    }

    /// Shows a message in the status line.
    public func post(_ kind: Notice.Kind, _ message: String) {
        show(Notice(kind, message))
        notifyChanged()
    }

    /// Shows `new`: a problem waits behind a problem still shown; a confirmation is shown at
    /// once and the problem it interrupts comes back after it.
    private func show(_ new: Notice) {
        if let current = notice, current.isProblem, Date().timeIntervalSince(current.postedAt) < current.lifetime {
            if new.isProblem {
                if !waiting.contains(where: { $0.message == new.message }) && current.message != new.message { waiting.append(new) }
                return
            }
            waiting.insert(current, at: 0)
        }
        notice = new
    }

    /// Takes the notice away (Esc); a waiting problem is shown next, for its full time.
    public func clearNotice(now: Date = Date()) {
        guard notice != nil || !waiting.isEmpty else { return }
        if waiting.isEmpty {
            notice = nil
        } else {
            let next = waiting.removeFirst()
            notice = Notice(next.kind, next.message, postedAt: now)
        }
        notifyChanged()
    }

    /// Drops the notice once its time is up (showing the next waiting problem); returns whether
    /// it did.
    @discardableResult
    public func expireNotice(now: Date = Date()) -> Bool {
        guard let notice, now.timeIntervalSince(notice.postedAt) >= notice.lifetime else { return false }
        clearNotice(now: now)
        return true
    }

    /// Whether settings changed since they were last written.
    public var hasPendingSettings: Bool { settingsDirty }

    /// Where settings.json is written: on a background thread once the app gives its
    /// `BackgroundWork` (so `L`, `T` and a tab switch never wait for the disk); at once without.
    public var work: BackgroundWork? {
        didSet { writer = work.map { work in SingleJob<SettingsWritten>(work) { [weak self] in self?.written($0) } } }
    }
    private var writer: SingleJob<SettingsWritten>?

    /// What a write of settings.json did: the settings now in the file, and whether another
    /// program's were found there (this run's changes were then written into them).
    struct SettingsWritten: Sendable {
        var file: Settings
        var merged: Bool
    }

    /// Writes `mine` (read or last written as `saved`): over a file another program changed
    /// since (`locker games server URL`, an editor), its settings stay and this run's changes
    /// (language, theme, last tab) are written into them.
    private static func write(_ mine: Settings, since saved: Settings, to repository: any Repository<Settings>) throws -> SettingsWritten {
        do {
            try repository.save(mine)
            return SettingsWritten(file: mine, merged: false)
        } catch is FileChangedOnDisk {
            guard case .loaded(let theirs) = repository.load() else { throw FileChangedOnDisk(url: URL(fileURLWithPath: "settings.json")) }
            let merged = theirs.keeping(changesOf: mine, since: saved)
            try repository.save(merged)
            return SettingsWritten(file: merged, merged: true)
        }
    }

    /// A write's outcome, on the UI thread.
    private func written(_ result: Result<SettingsWritten, Error>) {
        switch result {
        case .success(let written):
            let before = savedSettings
            savedSettings = written.file
            guard written.merged else { return }
            // Changed again meanwhile (another L): those changes go on top of the file's.
            settings = written.file.keeping(changesOf: settings, since: before)
            if settings != written.file { settingsDirty = true }
            show(Notice(.info, localizer.t("settings.json was changed by another program: Locker keeps its new settings and adds this run's language, theme and tab to them.")))
            notifyChanged()
        case .failure(is FileChangedOnDisk):
            // Unreadable just now (being written): tried again when keys next pause.
            settingsDirty = true
        case .failure(let error):
            readOnly = true
            show(Notice(.error, localizer.t("Settings could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)])))
            notifyChanged()
        }
    }

    /// Writes settings.json if something changed, on the background thread when there is one. A
    /// failure is reported once in the status line and does not stop the app.
    public func saveSettingsIfNeeded() {
        guard settingsDirty else { return }
        settingsDirty = false
        guard !readOnly, savesSettings else { return }
        guard let writer else { return written(Result(catching: writeAsNow())) }
        writer.request(makingWhenItStarts: { [unowned self] in
            let write = writeAsNow()
            return { _ in try write() }
        })
    }

    /// The write of the settings as they are now, to run on any thread.
    private func writeAsNow() -> @Sendable () throws -> SettingsWritten {
        let mine = settings, saved = savedSettings, file = UncheckedSendable(repository)
        return { try Self.write(mine, since: saved, to: file.value) }
    }

    /// At quit: waits for a write on its way, then writes what is left, here and now.
    public func saveSettingsBeforeQuit() {
        if let work, writer?.isRunning == true { work.wait(until: { self.writer?.isRunning != true }, seconds: 5) }
        writer = nil
        saveSettingsIfNeeded()
    }
}

extension Settings {
    /// These settings with what `mine` changed since `saved` (language, theme, last tab: what
    /// the app itself changes) written into them.
    func keeping(changesOf mine: Settings, since saved: Settings) -> Settings {
        var result = self
        if mine.language != saved.language { result.language = mine.language }
        if mine.theme != saved.theme { result.theme = mine.theme }
        if mine.lastTab != saved.lastTab { result.lastTab = mine.lastTab }
        return result
    }
}

