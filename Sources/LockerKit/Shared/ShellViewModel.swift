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
        saveSettingsIfNeeded()
        notifyChanged()
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
        saveSettingsIfNeeded()
        notifyChanged()
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

    /// settings.json changed under the app (`locker games server URL`, an editor): its new
    /// settings stay, with this run's own changes (language, theme, last tab) written into them.
    private func takeSettingsChangedOnDisk() {
        guard case .loaded(var theirs) = repository.load() else {
            settingsDirty = true
            return
        }
        if settings.language != savedSettings.language { theirs.language = settings.language }
        if settings.theme != savedSettings.theme { theirs.theme = settings.theme }
        if settings.lastTab != savedSettings.lastTab { theirs.lastTab = settings.lastTab }
        settings = theirs
        savedSettings = theirs
        settingsDirty = true
        show(Notice(.info, localizer.t("settings.json was changed by another program: Locker keeps its new settings and adds this run's language, theme and tab to them.")))
        saveSettingsIfNeeded()
    }

    /// Writes settings.json if something changed. A failure is reported once in the status line
    /// and does not stop the app.
    public func saveSettingsIfNeeded() {
        guard settingsDirty else { return }
        settingsDirty = false
        guard !readOnly, savesSettings else { return }
        do {
            try repository.save(settings)
            savedSettings = settings
        } catch is FileChangedOnDisk {
            takeSettingsChangedOnDisk()
        } catch {
            readOnly = true
            show(Notice(.error, localizer.t("Settings could not be saved: {reason}", ["reason": StorageError.explain(error, localizer)])))
            notifyChanged()
        }
    }
}
