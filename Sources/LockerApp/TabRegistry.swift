import FoundationEssentials
import LockerKit
import TerminalUI

/// One tab of the app: its name and how its screen is built.
struct TabEntry {
    /// The tab's id (settings.json and `--tab` use it).
    let tab: Tab
    /// The tab's name in the interface language (tab bar, help title, the digit keys' help).
    let title: (Localizer) -> String
    /// The name abbreviated by the catalogue ("Penaliz."), used by the tab bar before it cuts
    /// names itself: a cut made by count can read as a misspelling ("Penalizacion.").
    let shortTitle: (Localizer) -> String
    /// Builds the tab's screen, when it is first shown.
    let make: (TabContext) -> Screen
}

/// Every tab, in the order of the tab bar and of the digit keys. Adding a tab is adding an
/// entry here (and its id to `Tab`, in the same place of the order): the shell enumerates this
/// list and never names a tab.
enum TabRegistry {
    static let entries: [TabEntry] = [
        TabEntry(tab: .rules, title: { $0.t("Rules") }, shortTitle: { $0.t("Rules", context: "short tab title") }) { context in
            RulesScreen(viewModel: context.rules.get, calculator: DiveCalculatorViewModel(localizer: context.localizer),
                        navigate: context.navigate)
        },
        TabEntry(tab: .penalties, title: { $0.t("Penalties") }, shortTitle: { $0.t("Penalties", context: "short tab title") }) { context in
            let screen = PenaltiesScreen(viewModel: context.penalties.get)
            screen.openArticle = { context.openArticle($0, from: .penalties, preferOfficial: true) }
            return screen
        },
        TabEntry(tab: .quiz, title: { $0.t("Quiz") }, shortTitle: { $0.t("Quiz", context: "short tab title") }) { context in
            let bank = try? context.divingFiles.questions.value.get()
            let quiz = QuizViewModel(
                localizer: context.localizer, penalties: context.penalties.get.book, bank: bank,
                historyRepository: JSONRepository<QuizHistory>(url: context.options.paths.quizHistoryFile),
                leitnerRepository: JSONRepository<LeitnerBoxes>(url: context.options.paths.quizLeitnerFile))
            quiz.work = context.work
            let screen = QuizScreen(viewModel: quiz)
            screen.openArticle = { context.openArticle($0, from: .quiz, preferOfficial: false) }
            return screen
        },
        TabEntry(tab: .grades, title: { $0.t("Grades") }, shortTitle: { $0.t("Grades", context: "short tab title") }) { context in
            let defaultsFile = context.options.resources?.dataDirectory.appendingPathComponent("grades/grades.json")
            return GradesScreen(viewModel: GradesViewModel(
                localizer: context.localizer, repository: GradesViewModel.repository(context.options.paths.gradesFile, context.localizer.snapshot()),
                work: context.work, defaultsFile: defaultsFile))
        },
        TabEntry(tab: .workout, title: { $0.t("Workout") }, shortTitle: { $0.t("Workout", context: "short tab title") }) { context in
            // Read without side effects: the shell owns settings.json and reports its problems.
            let settings = try? DataFileError.decode(Settings.self, from: context.options.paths.settingsFile)
            return WorkoutScreen(viewModel: WorkoutViewModel(
                localizer: context.localizer,
                library: WorkoutLibrary(directory: context.options.paths.workoutsDirectory,
                                        sample: context.options.resources?.dataDirectory.appendingPathComponent("workout/sample-run.gpx")),
                maxHeartRate: settings?.maxHeartRate, work: context.work))
        },
        TabEntry(tab: .games, title: { $0.t("Games") }, shortTitle: { $0.t("Games", context: "short tab title") }) { context in
            GamesScreen(viewModel: context.games, exportDirectory: context.options.paths.directory.path)
        },
    ]

    /// The entry of `tab`.
    static func entry(_ tab: Tab) -> TabEntry {
        guard let entry = entries.first(where: { $0.tab == tab }) else { preconditionFailure("\(tab) is not in TabRegistry") }
        return entry
    }

    /// The tab's name in the interface language.
    static func title(of tab: Tab, _ localizer: Localizer) -> String { entry(tab).title(localizer) }
}

/// What the tabs' factories share: the options, the localizer, background work, the link from
/// one tab to another, and the models more than one tab reads (each built once, when needed).
final class TabContext {
    let options: AppOptions
    let localizer: Localizer
    let work: BackgroundWork
    /// Switches to another tab (Penalties → Rules opens an article there).
    let navigate: (Tab) -> Void
    /// The penalty table, the question bank and the start language's digest, decoded on another
    /// core (started by the program before it parsed its command line, or here).
    let divingFiles: DivingFiles
    /// Rules and the Penalties links share the digest's view-model.
    let rules: Lazy<RulesViewModel>
    /// Penalties and Quiz share the penalty table, read once.
    let penalties: Lazy<PenaltiesViewModel>
    /// The Games tab's view-model, which is also the shell's attention source (today's games above
    /// every tab), so it exists from the start; it reads nothing until the shell starts it.
    let games: GamesViewModel

    init(options: AppOptions, localizer: Localizer, work: BackgroundWork, navigate: @escaping (Tab) -> Void) {
        self.options = options
        self.localizer = localizer
        self.work = work
        self.navigate = navigate
        let diving = options.resources?.dataDirectory.appendingPathComponent("diving") ?? URL(fileURLWithPath: "Data/diving")
        let files = options.divingFiles ?? DivingFiles(directory: diving, language: localizer.language)
        divingFiles = files
        rules = Lazy {
            RulesViewModel(localizer: localizer, digestDirectory: diving.appendingPathComponent("digest"),
                           officialRepository: JSONRepository<OfficialRules>(url: options.paths.officialRulesFile),
                           preloaded: (files.digestLanguage, files.digest.value))
        }
        penalties = Lazy { PenaltiesViewModel(localizer: localizer, loaded: files.penalties.value) }
        // The database lives in locker-games (ARCHITECTURE §7j), found beside locker.
        let program = Resources.executableURL()?.deletingLastPathComponent().appendingPathComponent("locker-games").path ?? "locker-games"
        var helperArguments = ["--data-dir", options.paths.directory.path, "--games-db", options.paths.gamesDatabase.path]
        if let server = options.gamesServer { helperArguments += ["--games-server", server] }
        if options.gamesServerInsecure { helperArguments.append("--games-server-insecure") }
        if let file = options.gamesCA { helperArguments += ["--games-ca", file] }
        let gamesClient = BridgeGamesClient(program: program, arguments: { helperArguments + ["--lang", localizer.language.rawValue] })
        games = GamesViewModel(localizer: localizer, client: gamesClient, work: work)
    }

    /// Opens article `number` in the Rules tab and goes there, from `tab` (Esc goes back to it);
    /// false when the digest has no such article.
    func openArticle(_ number: String, from tab: Tab, preferOfficial: Bool) -> Bool {
        guard rules.get.open(number, preferOfficial: preferOfficial) else { return false }
        rules.get.openedFrom = tab
        navigate(.rules)
        return true
    }
}
