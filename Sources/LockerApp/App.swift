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
    /// The bundled diving files, when the program started decoding them before parsing its
    /// command line; otherwise the tabs start it when the app is built.
    public var divingFiles: DivingFiles?

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
    public convenience init(options: AppOptions, localizer: Localizer, terminal: Terminal, startupNotices: [Notice] = []) {
        self.init(options: options, localizer: localizer, terminal: terminal, startupNotices: startupNotices) { viewModel, work, glyphs in
            let (screens, games) = ScreenFactory.makeScreens(options: options, localizer: localizer, work: work) { [weak viewModel] tab in
                viewModel?.select(tab)
            }
            return Shell(viewModel: viewModel, tabs: screens, attention: [games], glyphs: glyphs)
        }
    }

    /// The meet console of `locker meet DIR` on the same terminal layer: its own screen under the
    /// event's title, with the app's global keys (help, language, theme, quit).
    public convenience init(meet directory: URL, packs: URL, failures: [Penalty], options: AppOptions, localizer: Localizer,
                            terminal: Terminal, startupNotices: [Notice] = []) {
        self.init(options: options, localizer: localizer, terminal: terminal, startupNotices: startupNotices) { viewModel, work, glyphs in
            let meet = MeetConsoleViewModel(directory: directory, packsDirectory: packs, localizer: localizer, work: work)
            meet.start()
            let screen = MeetScreen(viewModel: meet, failures: failures)
            return Shell(viewModel: viewModel, console: screen, title: { [weak meet] l in
                guard let event = meet?.meet?.state.setup.event else { return l.t("Meet") }
                return l.t("Meet — {event}", ["event": TerminalText.inert(event)])
            }, glyphs: glyphs)
        }
    }

    /// A judge's pad (`locker meet judge DIR --seat N`): its own screen under the seat and the
    /// event, down to a phone's 40×12.
    public convenience init(judge directory: URL, seat: Int, options: AppOptions, localizer: Localizer,
                            terminal: Terminal, startupNotices: [Notice] = []) {
        self.init(options: options, localizer: localizer, terminal: terminal, startupNotices: startupNotices, savesSettings: false) { viewModel, work, glyphs in
            let pad = MeetPadViewModel(directory: directory, seat: seat, localizer: localizer, work: work)
            pad.start()
            return Shell(viewModel: viewModel, console: JudgePadScreen(viewModel: pad), title: { l in
                l.t("Judge {seat}", ["seat": String(seat)])
            }, glyphs: glyphs, minimumSize: Size(width: 40, height: 12))
        }
    }

    /// The meet's scoreboard (`locker meet board DIR`): it follows the journal and never leads.
    public convenience init(board directory: URL, packs: URL, options: AppOptions, localizer: Localizer,
                            terminal: Terminal, startupNotices: [Notice] = []) {
        self.init(options: options, localizer: localizer, terminal: terminal, startupNotices: startupNotices, savesSettings: false) { viewModel, work, glyphs in
            let meet = MeetConsoleViewModel(directory: directory, packsDirectory: packs, localizer: localizer, work: work)
            meet.start(leading: false)
            return Shell(viewModel: viewModel, console: MeetBoardScreen(viewModel: meet), title: { [weak meet] l in
                guard let event = meet?.meet?.state.setup.event else { return l.t("Scoreboard") }
                return l.t("Scoreboard — {event}", ["event": TerminalText.inert(event)])
            }, glyphs: glyphs, minimumSize: Size(width: 40, height: 12))
        }
    }

    /// The shared start: settings, glyphs, background work and the surface; `makeShell` frames the screens.
    /// `savesSettings` is false for a judge's pad and the scoreboard: judges share one account
    /// over SSH, and one judge's `L` or `T` must not become every later pad's language or theme.
    private init(options: AppOptions, localizer: Localizer, terminal: Terminal, startupNotices: [Notice], savesSettings: Bool = true,
                 makeShell: (ShellViewModel, BackgroundWork, Glyphs) -> Shell) {
        self.terminal = terminal
        debugFault = options.debugFault
        let writable = options.paths.prepare()
        let repository = JSONRepository<Settings>(url: options.paths.settingsFile)
        let viewModel = ShellViewModel(localizer: localizer, repository: repository,
                                       choices: options.choices, writable: writable, savesSettings: savesSettings)
        for notice in startupNotices { viewModel.post(notice.kind, notice.message) }
        let glyphs: Glyphs = options.ascii ? .ascii : .unicode
        ASCIIText.isOn = options.ascii
        // Searches forgive the word forms of the interface language (L changes both).
        TextMatcher.language = localizer.language.rawValue
        // Slow work runs off the UI thread; its results wake the run loop through the terminal.
        let work = BackgroundWork(wake: terminal.makeWaker())
        viewModel.work = work
        shell = makeShell(viewModel, work, glyphs)
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
        shell.viewModel.saveSettingsBeforeQuit()
        shell.finishBeforeQuit()
        terminal.stop()
        return 0
    }

    private func draw() {
        surface.beginFrame()
        if shell.takeBell() { surface.bellRequested = true }
        if let text = shell.takeClipboard() { surface.clipboard = text }
        shell.render(into: surface)
        surface.present()
    }
}

/// Creates the screen of every tab, from `TabRegistry`.
enum ScreenFactory {
    /// `navigate` switches tabs (used for links from one tab to another).
    static func makeScreens(options: AppOptions, localizer: Localizer, work: BackgroundWork,
                            navigate: @escaping (Tab) -> Void) -> ([TabSlot], GamesViewModel) {
        let context = TabContext(options: options, localizer: localizer, work: work, navigate: navigate)
        // Each tab is built when first shown.
        let screens = TabRegistry.entries.map { entry in TabSlot(tab: entry.tab) { entry.make(context) } }
        return (screens, context.games)
    }
}
