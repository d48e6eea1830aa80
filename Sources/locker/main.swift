// The `locker` command line: parses options with swift-argument-parser, then runs the
// full-screen app or a subcommand. A line of nothing but root options (how the app is usually
// started) is read without it, by `QuickRootOptions`, into the same `Locker` value. Help texts
// and errors are translated, so the localizer is made before parsing, from `--lang` if present,
// else the environment. (The language saved in settings.json applies inside the app, where the
// data directory is known.)
import ArgumentParser
import CMalloc
import FoundationEssentials
import LockerApp
import LockerCommandLine
import LockerKit
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

struct Locker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locker",
        abstract: localizer.t("Locker: diving rules, penalties and quiz, grades, workouts and pickup games in one terminal app."),
        discussion: localizer.t("Keys inside the app: 1…6 switch tabs, ? shows help, L changes language, T changes theme, q quits. Data is kept in --data-dir, else $LOCKER_DATA_DIR, else $XDG_DATA_HOME/locker, else ~/.local/share/locker."),
        version: "locker \(LockerVersion.current)",
        subcommands: [RulesCommand.self, PenaltiesCommand.self, QuizCommand.self, DiveCommand.self, MeetCommand.self, GradesCommand.self, WorkoutCommand.self,
                      AccountCommand.self, LoginCommand.self, LogoutCommand.self, GamesCommand.self,
                      DebugSaveLoopCommand.self])

    @Option(name: .long, help: ArgumentHelp(localizer.t("Tab to open: {values}.", ["values": validValues(Tab.self)]), valueName: "tab"), completion: .list(Tab.allCases.map(\.rawValue))) var tab: String?
    @Option(name: .long, help: ArgumentHelp(localizer.t("Colour theme: {values}. NO_COLOR also turns colour off.", ["values": validValues(ThemeChoice.self)]), valueName: "theme"), completion: .list(ThemeChoice.allCases.map(\.rawValue))) var theme: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Draw with ASCII only (no box drawing or braille)."))) var ascii = false
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print what Locker is, its version and where its data comes from, then stop."))) var about = false
    @OptionGroup var shared: GamesOptions

    /// Hidden, for the crash tests: F12 then makes the app fail this way (see DebugFault).
    @Option(name: .customLong("debug-fault"), help: .hidden) var debugFault: DebugFault?

    func validate() throws {
        _ = resolveChoices()
    }

    func run() throws {
        if about {
            for section in AboutText.sections(localizer) {
                print(section.heading)
                for paragraph in section.paragraphs { print(""); WordWrap.wrap(paragraph, width: 78, hangingIndent: false).forEach { print($0) } }
                print("")
            }
            return
        }
        let choices = resolveChoices()
        let status = runFullScreen(choices: choices, ascii: ascii, shared: shared.file.common, games: shared, debugFault: debugFault) { options, terminal, notices in
            App(options: options, localizer: localizer, terminal: terminal, startupNotices: notices)
        }
        throw ExitCode(status)
    }

    /// One of the meet's full-screen programs (console, pad, board) with this command's `--theme`
    /// and `--ascii` (given before or after `meet`) and the subcommand's `shared` options.
    func runMeetProgram(_ shared: SharedOptions, make: (AppOptions, Terminal, [Notice]) -> App) -> Int32 {
        runFullScreen(choices: startupChoices(theme: theme, shared: shared), ascii: ascii, shared: shared, make: make)
    }

    /// Checks --tab, --lang and --theme; a bad value is a usage error.
    func resolveChoices() -> StartupChoices {
        var choices = startupChoices(theme: theme, shared: shared.file.common)
        if let tab {
            guard let value = Tab(rawValue: tab.lowercased()) else {
                usageError(localizer.t("Unknown tab \"{value}\". Valid tabs: {values}.", ["value": tab, "values": validValues(Tab.self)]))
            }
            choices.tab = value
        }
        return choices
    }
}

/// Checks --lang and --theme; a bad value is a usage error.
func startupChoices(theme: String?, shared: SharedOptions) -> StartupChoices {
    var choices = StartupChoices(environmentLanguage: Language.fromEnvironment(environment),
                                 colorAllowed: (environment["NO_COLOR"] ?? "").isEmpty)
    if let lang = shared.lang { choices.language = checkedLanguage(lang) }
    if let theme {
        guard let value = ThemeChoice(rawValue: theme.lowercased()) else {
            usageError(localizer.t("Unknown theme \"{value}\". Valid themes: {values}.", ["value": theme, "values": validValues(ThemeChoice.self)]))
        }
        choices.theme = value
    }
    return choices
}

/// Starts the terminal (or says why it cannot), builds the full-screen app with `make` and runs
/// it until the user quits; returns the exit status. `games` are the Games tab's options, where
/// the command has them.
func runFullScreen(choices: StartupChoices, ascii: Bool, shared: SharedOptions, games: GamesOptions? = nil, debugFault: DebugFault? = nil,
                   make: (AppOptions, Terminal, [Notice]) -> App) -> Int32 {
    let paths = games?.paths ?? shared.paths
    let utf8 = Terminal.prepareLocale()
    let terminal: Terminal
    do {
        terminal = try Terminal()
    } catch TerminalError.notATerminal {
        fail(localizer.t("Locker needs a terminal: run it in a terminal window, not through a pipe. Subcommands such as 'locker --help' work anywhere."), status: 1)
    } catch TerminalError.unknownTerminal(let name) {
        fail(localizer.t("Your terminal type \"{term}\" is not known to ncurses. Try TERM=xterm-256color.", ["term": name]), status: 1)
    } catch {
        fail(String(describing: error), status: 1)
    }
    var notices: [Notice] = []
    if !utf8 {
        notices.append(Notice(.warning, localizer.t("Your locale is not UTF-8; Locker draws with ASCII only. Set LANG to a UTF-8 locale such as en_US.UTF-8.")))
    }
    if !localizer.problems.isEmpty {
        notices.append(Notice(.warning, localizer.t("A translation could not be loaded ({problem}); English is shown instead.",
                                                    ["problem": localizer.problems.joined(separator: "; ")])))
    }
    var options = AppOptions(choices: choices, ascii: ascii || !utf8, paths: paths, resources: resources)
    options.debugFault = debugFault
    if let games {
        options.gamesServer = games.gamesServer
        options.gamesServerInsecure = games.gamesServerInsecure
        options.gamesCA = games.gamesCA
    }
    options.divingFiles = divingFiles
    return make(options, terminal, notices).run()
}

extension Locker {
    /// The command ArgumentParser would make of `arguments` when they hold only root options
    /// (the usual way to start the app), made without it; nil for any other line. Every option
    /// is set, as a parse would, and checked by the same `validate()`s.
    static func quick(_ arguments: [String]) -> Locker? {
        guard let given = QuickRootOptions.locker(arguments) else { return nil }
        var common = SharedOptions()
        common.lang = given.values["lang"]
        common.dataDir = given.values["data-dir"]
        var file = GamesFileOptions()
        file.common = common
        file.gamesDB = given.values["games-db"]
        var games = GamesOptions()
        games.file = file
        games.gamesServer = given.values["games-server"]
        games.gamesServerInsecure = given.flags.contains("games-server-insecure")
        games.gamesCA = given.values["games-ca"]
        var locker = Locker()
        locker.tab = given.values["tab"]
        locker.theme = given.values["theme"]
        locker.ascii = given.flags.contains("ascii")
        locker.about = given.flags.contains("about")
        locker.shared = games
        locker.debugFault = nil
        do {
            try common.validate()
            try games.validate()
            try locker.validate()
        } catch {
            return nil
        }
        return locker
    }
}

/// The bundled rules digest of a language, or a clear error and exit status 1.
func loadDigest(_ language: Language) -> RulesDigest {
    do {
        return try RulesDigest.load(from: bundledData().appendingPathComponent("diving/digest/\(language.rawValue).md"))
    } catch {
        fail(localizer.t("The rules digest could not be loaded: {reason}", ["reason": "\(error)"]), status: 1)
    }
}

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: localizer.t("Print the contents of the rules digest, or the articles that match a search."),
        subcommands: [RulesImportCommand.self])

    @Option(name: .long, help: ArgumentHelp(localizer.t("Print the articles whose number, title or text contains this (case and accents ignored)."), valueName: "text")) var search: String?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let digest = loadDigest(localizer.language)
        TextMatcher.language = localizer.language.rawValue
        guard let search, !search.isEmpty else {
            for article in digest.articles {
                print(String(repeating: "  ", count: article.level - 1) + article.number + "  " + article.title)
            }
            return
        }
        let matches = digest.articles.filter {
            TextMatcher.matches($0.number + " " + $0.title + "\n" + $0.bodyText, query: search)
        }
        guard !matches.isEmpty else {
            fail(localizer.t("No article matches “{query}”.", ["query": search]), status: 1)
        }
        for article in matches {
            print(article.number + "  " + article.title)
            for line in WordWrap.wrap(article.bodyText, width: 76) { print("    " + line) }
            print("")
        }
    }
}

struct RulesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: localizer.t("Import your copy of the official rule book (PDF) so the Rules tab can show its text beside the digest (key o)."))

    @Argument(help: ArgumentHelp(localizer.t("The rule book PDF (World Aquatics Competition Regulations, Part Four — Diving)."), valueName: "file.pdf")) var file: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let digest = loadDigest(.en)
        guard FileManager.default.isReadableFile(atPath: file) else {
            fail(localizer.t("Cannot read {file}.", ["file": file]), status: 1)
        }
        let rules: OfficialRules
        do {
            let text = try OfficialRules.extractText(fromPDF: file)
            rules = try OfficialRules.make(fromText: text, source: URL(fileURLWithPath: file).lastPathComponent, digest: digest)
        } catch OfficialRules.ImportError.converterMissing {
            fail(localizer.t("pdftotext is not installed; it comes with the poppler-utils package (sudo apt-get install poppler-utils). Nothing was changed."), status: 1)
        } catch OfficialRules.ImportError.unreadable(let reason) {
            fail(localizer.t("{file} could not be read as a PDF ({reason}). Nothing was changed.", ["file": file, "reason": reason]), status: 1)
        } catch OfficialRules.ImportError.noArticles {
            fail(localizer.t("{file} has no numbered articles; is it the diving rule book? Nothing was changed.", ["file": file]), status: 1)
        } catch OfficialRules.ImportError.notARuleBook(let count) {
            fail(localizer.t("{file} does not look like the diving rule book (only {count} of the digest's articles found). Nothing was changed.", ["file": file, "count": String(count)]), status: 1)
        } catch {
            fail("\(error)", status: 1)
        }
        let paths = shared.paths
        guard paths.prepare() else {
            fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1)
        }
        do {
            try JSONRepository<OfficialRules>(url: paths.officialRulesFile).save(rules)
        } catch {
            fail(localizer.t("The official text could not be saved: {reason}. The previous copy is unchanged.", ["reason": StorageError.explain(error, localizer)]), status: 1)
        }
        print(localizer.n("Imported {count} article from {file}. Press o in the Rules tab to read it.", "Imported {count} articles from {file}. Press o in the Rules tab to read them.",
                               count: rules.articles.count, ["file": rules.source]))
    }
}

struct QuizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiz",
        abstract: localizer.t("Quiz results kept by the Quiz tab."),
        subcommands: [QuizHistoryCommand.self])
}

struct QuizHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: localizer.t("Print every finished quiz: date, kind, questions, points, percentage, passed."))

    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print one JSON array instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    struct Row: Encodable {
        var date: String
        var kind: String
        var questions: Int
        var points: Int
        var maxPoints: Int
        var percent: Int
        var passed: Bool
    }

    func run() throws {
        let file = shared.paths.quizHistoryFile
        let history: QuizHistory
        switch JSONRepository<QuizHistory>(url: file).load() {
        case .loaded(let stored): history = stored
        case .missing: history = QuizHistory()
        case .corrupt(let backup, let reason):
            fail(localizer.t("{file} could not be read ({reason}); it was kept as {backup}.",
                             ["file": file.path, "reason": reason.text(localizer), "backup": backup?.lastPathComponent ?? "—"]), status: 1)
        }
        let iso = Date.ISO8601FormatStyle()
        let rows = history.quizzes.map { record in
            Row(date: record.date.formatted(iso), kind: record.kind.rawValue, questions: record.items.count,
                points: record.points, maxPoints: record.maxPoints, percent: record.percent, passed: record.passed)
        }
        if json { printJSON(rows); return }
        if rows.isEmpty { print(localizer.t("No finished quiz yet.")); return }
        for (record, row) in zip(history.quizzes, rows) {
            let verdict = row.passed ? localizer.t("Passed") : localizer.t("Failed")
            print("\(LocalTime.minutes(record.date))  \(record.kind.name(localizer))  \(row.questions)  \(row.points)/\(row.maxPoints)  \(row.percent) %  \(verdict)")
        }
    }
}

struct PenaltiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "penalties",
        abstract: localizer.t("Print every diving penalty: what happens, the sanction, who applies it, the articles."))

    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print one JSON array instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    /// One penalty as the JSON output shows it.
    struct Row: Encodable {
        var id: String
        var number: Int
        var articles: [String]
        var summaryArticles: [String]
        var articles2017: [String]
        var sanction: String
        var sanctionLabel: String
        var referee: Bool
        var judge: Bool
        var description: String
    }

    func run() throws {
        let language = localizer.language
        let book: PenaltyBook
        do {
            book = try PenaltyBook.load(from: bundledData().appendingPathComponent("diving/penalties.json"))
        } catch {
            fail(localizer.t("The penalty table could not be loaded: {reason}", ["reason": "\(error)"]), status: 1)
        }
        let rows = book.penalties.map { p in
            Row(id: p.id, number: p.index + 1, articles: p.articles, summaryArticles: p.summaryArticles,
                articles2017: p.articles2017, sanction: p.sanction.rawValue,
                sanctionLabel: book.info(p.sanction).label.text(language),
                referee: p.referee, judge: p.judge, description: p.description.text(language))
        }
        if json { printJSON(rows); return }
        for row in rows {
            let owners = [row.referee ? localizer.t("Referee") : nil, row.judge ? localizer.t("Judge") : nil]
                .compactMap { $0 }.joined(separator: " + ")
            var articles = row.articles.joined(separator: ", ")
            if !row.articles2017.isEmpty { articles += " (2017: " + row.articles2017.joined(separator: ", ") + ")" }
            print("\(row.number). \(row.description)")
            print("    \(row.sanctionLabel) · \(owners) · \(articles)")
        }
    }
}

// Buffers of 128 KiB and more (a file's text, a decoder's map of it) are mapped from the kernel
// and given back when freed. By default glibc raises that threshold to the largest buffer freed
// so far, and the next ones then stay in the heap after use: the Grades tab on a 4,000-course
// book peaked 0.8 MiB higher at 200×60 (docs/PERFORMANCE.md). Set before any thread starts.
_ = lk_map_buffers_from(128 * 1024)

/// The bundled diving files, decoded on another core while the command line is parsed and the
/// terminal opened: only when both ends are a terminal, where the full-screen app may start.
let divingFiles: DivingFiles? = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    ? resources.map { DivingFiles(directory: $0.dataDirectory.appendingPathComponent("diving"), language: earlyLanguage()) }
    : nil
prepareProcess()
let arguments = Array(CommandLine.arguments.dropFirst())
if let locker = Locker.quick(arguments) { CommandLineEntry.run(locker, of: Locker.self) }
let command = CommandLineEntry.parse(Locker.self, arguments)
// The games commands run in `locker-games` (see GamesCommandDefinition).
if command is any GamesCommandDefinition { GamesForwarding.exec(arguments) }
CommandLineEntry.run(command, of: Locker.self)
