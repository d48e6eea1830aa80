import FoundationEssentials
import LockerKit
import TerminalUI

/// Start-up options of the full-screen app, resolved from the command line and environment.
public struct AppOptions {
    public var choices: StartupChoices
    public var ascii: Bool
    public var paths: DataPaths
    public var resources: Resources?
    /// Set only by the hidden `--debug-fault` option: F12 then triggers this failure.
    public var debugFault: DebugFault?
    /// `--games-server` and `--games-server-insecure`, passed on to the games helper.
    public var gamesServer: String?
    public var gamesServerInsecure = false
    /// `--games-ca`, passed on to the games helper.
    public var gamesCA: String?

    public init(choices: StartupChoices, ascii: Bool, paths: DataPaths, resources: Resources?) {
        self.choices = choices
        self.ascii = ascii
        self.paths = paths
        self.resources = resources
    }
}

/// Builds the shell with its screens and runs it on the real terminal until the user quits.
public final class App {
    public let shell: Shell
    private let terminal: Terminal
    private let surface: TerminalSurface
    private let debugFault: DebugFault?

    /// Builds everything the app needs; `localizer` is shared with the command line.
    public init(options: AppOptions, localizer: Localizer, terminal: Terminal, startupNotices: [Notice] = []) {
        self.terminal = terminal
        debugFault = options.debugFault
        let writable = options.paths.prepare()
        let repository = JSONRepository<Settings>(url: options.paths.settingsFile)
        let viewModel = ShellViewModel(localizer: localizer, repository: repository,
                                       choices: options.choices, writable: writable)
        for notice in startupNotices { viewModel.post(notice.kind, notice.message) }
        let glyphs: Glyphs = options.ascii ? .ascii : .unicode
        // Slow work runs off the UI thread; its results wake the run loop through the terminal.
        let work = BackgroundWork(wake: terminal.makeWaker())
        let (screens, games) = ScreenFactory.makeScreens(options: options, localizer: localizer, work: work) { [weak viewModel] tab in
            viewModel?.select(tab)
        }
        shell = Shell(viewModel: viewModel, screens: screens, attention: [games], glyphs: glyphs)
        shell.background = work
        surface = terminal.makeSurface(theme: App.theme(for: viewModel.theme), glyphs: glyphs)
    }

    static func theme(for choice: ThemeChoice) -> Theme {
        switch choice {
        case .dark: return .dark
        case .light: return .light
        case .mono: return .mono
        }
    }

    /// Runs until quit; returns the exit status.
    public func run() -> Int32 {
        var theme = shell.viewModel.theme
        draw()
        while true {
            guard let key = terminal.readKey(timeout: shell.idleTimeout) else {
                shell.tick()
                if shell.needsRender { draw() }
                continue
            }
            if key == .function(12), let debugFault { debugFault.trigger() }
            let action = shell.handle(key, size: terminal.size)
            if action == .quit { break }
            if action == .repaint { surface.invalidate() }
            if shell.viewModel.theme != theme {
                theme = shell.viewModel.theme
                surface.configure(theme: App.theme(for: theme), glyphs: shell.glyphs)
            }
            if shell.needsRender || action == .repaint || key == .resize { draw() }
        }
        shell.viewModel.saveSettingsIfNeeded()
        shell.flushPendingWork()
        terminal.stop()
        return 0
    }

    private func draw() {
        surface.beginFrame()
        if shell.takeBell() { surface.bellRequested = true }
        shell.render(into: surface)
        surface.present()
    }
}

/// Creates the screen of every tab.
enum ScreenFactory {
    /// `navigate` switches tabs (used for links from one tab to another).
    static func makeScreens(options: AppOptions, localizer: Localizer, work: BackgroundWork,
                            navigate: @escaping (Tab) -> Void) -> ([Screen], GamesViewModel) {
        let diving = options.resources?.dataDirectory.appendingPathComponent("diving")
            ?? URL(fileURLWithPath: "Data/diving")
        // Each tab is built when first shown; bundled files are read once, when first needed.
        let rules = Lazy {
            RulesViewModel(localizer: localizer, digestDirectory: diving.appendingPathComponent("digest"),
                           officialRepository: JSONRepository<OfficialRules>(url: options.paths.officialRulesFile))
        }
        let penalties = Lazy { PenaltiesViewModel(localizer: localizer, loading: diving.appendingPathComponent("penalties.json")) }
        // The database lives in locker-games (ARCHITECTURE §7j), found beside locker. The games
        // view-model is also the shell's attention source (today's games above every tab), so it
        // exists from the start; it reads nothing until the shell starts it.
        let program = Resources.executableURL()?.deletingLastPathComponent().appendingPathComponent("locker-games").path ?? "locker-games"
        var helperArguments = ["--data-dir", options.paths.directory.path, "--games-db", options.paths.gamesDatabase.path]
        if let server = options.gamesServer { helperArguments += ["--games-server", server] }
        if options.gamesServerInsecure { helperArguments.append("--games-server-insecure") }
        if let file = options.gamesCA { helperArguments += ["--games-ca", file] }
        let gamesClient = BridgeGamesClient(program: program, arguments: { helperArguments + ["--lang", localizer.language.rawValue] })
        let games = GamesViewModel(localizer: localizer, client: gamesClient, work: work)
        return ([
            LazyScreen(tab: .rules) { RulesScreen(viewModel: rules.get, calculator: DiveCalculatorViewModel(localizer: localizer)) },
            LazyScreen(tab: .penalties) {
                let screen = PenaltiesScreen(viewModel: penalties.get)
                screen.openArticle = { number in
                    guard rules.get.open(number, preferOfficial: true) else { return false }
                    navigate(.rules)
                    return true
                }
                return screen
            },
            LazyScreen(tab: .quiz) {
                let bank = try? QuestionBank.load(from: diving.appendingPathComponent("questions.json"))
                return QuizScreen(viewModel: QuizViewModel(
                    localizer: localizer, penalties: penalties.get.book, bank: bank,
                    historyRepository: JSONRepository<QuizHistory>(url: options.paths.quizHistoryFile),
                    leitnerRepository: JSONRepository<LeitnerBoxes>(url: options.paths.quizLeitnerFile)))
            },
            LazyScreen(tab: .grades) {
                let defaultsFile = options.resources?.dataDirectory.appendingPathComponent("grades/grades.json")
                let (defaults, _) = GradesViewModel.bundledDefaults(defaultsFile, localizer)
                return GradesScreen(viewModel: GradesViewModel(
                    localizer: localizer, repository: GradesViewModel.repository(options.paths.gradesFile, localizer), defaults: defaults))
            },
            LazyScreen(tab: .games) { GamesScreen(viewModel: games, exportDirectory: options.paths.directory.path) },
            LazyScreen(tab: .workout) {
                // Read without side effects: the shell owns settings.json and reports its problems.
                let settings = try? DataFileError.decode(Settings.self, from: options.paths.settingsFile)
                return WorkoutScreen(viewModel: WorkoutViewModel(
                    localizer: localizer, library: WorkoutLibrary(directory: options.paths.workoutsDirectory),
                    sample: options.resources?.dataDirectory.appendingPathComponent("workout/sample-run.gpx"),
                    maxHeartRate: settings?.maxHeartRate, work: work))
            },
        ], games)
    }
}
