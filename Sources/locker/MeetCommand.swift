// `locker meet …`: a diving meet in a folder, recorded in its journal (docs/DATA-FORMATS.md,
// "Meet folder"). Every command replays the journal; the ones that record append one entry
// under the journal's lock, on disk before they say so.
import ArgumentParser
import FoundationEssentials
import LockerApp
import LockerCommandLine
import LockerKit
#if canImport(Glibc)
import Glibc
#endif

struct MeetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meet",
        abstract: localizer.t("Run a diving meet: entries, awards, results, all kept in the meet folder's journal."),
        discussion: localizer.t("locker meet DIR opens the meet's full-screen console: call each dive, type its awards, read them back, record them; ? lists its keys."),
        subcommands: [MeetConsoleCommand.self, MeetNewCommand.self, MeetPacksCommand.self, MeetImportCommand.self, MeetCheckCommand.self, MeetDrawCommand.self,
                      MeetAwardCommand.self, MeetCorrectCommand.self, MeetWithdrawCommand.self, MeetChangeCommand.self, MeetUndoCommand.self,
                      MeetRedoCommand.self, MeetPhaseCommand.self, MeetCallCommand.self, MeetAcceptCommand.self, MeetJudgeCommand.self,
                      MeetBoardCommand.self, MeetFeedCommand.self, MeetResultsCommand.self, MeetReplayCommand.self, MeetVerifyCommand.self],
        defaultSubcommand: MeetConsoleCommand.self)
}

/// `locker meet DIR`: the referee's and recorder's console, full screen.
struct MeetConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console", abstract: localizer.t("Open the meet's full-screen console (also: locker meet DIR)."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir"), completion: .directory) var directory: String
    /// `--theme` and `--ascii` are the root command's, before or after `meet`.
    @ParentCommand var root: Locker
    @OptionGroup var shared: SharedOptions

    func validate() throws { _ = startupChoices(theme: root.theme, shared: shared) }

    func run() throws {
        // The folder is checked before the screen is taken, so a wrong path is one line in the shell.
        let failures = Meet.failures(synchro: Meet.read(directory).1.setup.synchro)
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let status = root.runMeetProgram(shared) { options, terminal, notices in
            App(meet: folder, packs: Meet.packs, failures: failures, options: options, localizer: localizer, terminal: terminal, startupNotices: notices)
        }
        throw ExitCode(status)
    }
}

/// What every meet command shares: the folder, its journal read and checked, and the words for
/// what can go wrong.
enum Meet {
    static func journal(_ path: String) -> MeetJournal {
        MeetJournal(directory: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// The journal's lines, or exit 1 saying why they cannot be used; a line cut off by a crash
    /// is said on standard error (the next recording command sets it aside).
    static func read(_ path: String) -> (MeetJournal.Contents, MeetState) {
        do {
            let contents = try journal(path).read()
            if let torn = contents.torn {
                warn(localizer.t("The journal's last line was cut off (a crash while it was written); it is left out: {text}",
                                 ["text": TerminalText.inert(String(torn.prefix(80)))]))
            }
            return (contents, try MeetState(lines: contents.lines, path: path))
        } catch let error as MeetJournalError {
            fail(message(error), status: 1)
        } catch let error as MeetError {
            fail(message(error), status: 1)
        } catch {
            fail(String(describing: error), status: 1)
        }
    }

    /// Appends `entry`, checked against the meet as the journal holds it at that moment.
    @discardableResult
    static func record(_ path: String, _ entry: MeetEntry, check: @escaping (MeetState) throws -> Void = { _ in }) -> MeetJournalLine {
        record(path, [entry], check: check)[0]
    }

    /// Appends `entries` together (all or none), checked as `record` checks one.
    @discardableResult
    static func record(_ path: String, _ entries: [MeetEntry], check: @escaping (MeetState) throws -> Void = { _ in }) -> [MeetJournalLine] {
        do {
            let result = try journal(path).append(entries, at: Instant.string(Date().timeIntervalSince1970)) { lines in
                try check(try MeetState(lines: lines, path: path))
            }
            if let aside = result.setAside {
                warn(localizer.t("The journal's last line had been cut off by a crash; it was set aside in {file}.", ["file": aside]))
            }
            return result.lines
        } catch let error as MeetJournalError {
            fail(message(error), status: 1)
        } catch let error as MeetError {
            fail(message(error), status: 1)
        } catch {
            fail(String(describing: error), status: 1)
        }
    }

    /// Appends the entries `prepare` makes from the meet as the journal holds at that moment
    /// (under its lock), or exits saying why there are none.
    static func record(_ path: String, prepare: @escaping (MeetState) throws -> [MeetEntry]) -> MeetJournalLine {
        do {
            let result = try journal(path).append(at: Instant.string(Date().timeIntervalSince1970)) { lines in
                try prepare(try MeetState(lines: lines, path: path))
            }
            return result.lines[0]
        } catch let error as MeetJournalError {
            fail(message(error), status: 1)
        } catch let error as MeetError {
            fail(message(error), status: 1)
        } catch {
            fail(String(describing: error), status: 1)
        }
    }

    /// "Undone: the awards of Bea, round 2." for an undo or redo line just written.
    static func undoRedoText(_ line: MeetJournalLine, directory: String) -> String {
        let (contents, _) = read(directory)
        switch line.entry {
        case .undone(let seq):
            let what = contents.lines.first { $0.seq == seq }.map { MeetConsoleViewModel.describeDecision($0.entry, localizer) } ?? ""
            return localizer.t("Undone: {decision}.", ["decision": TerminalText.inert(what)])
        case .redone(let seq):
            let what = contents.lines.first { $0.seq == seq }.map { MeetConsoleViewModel.describeDecision($0.entry, localizer) } ?? ""
            return localizer.t("Redone: {decision}.", ["decision": TerminalText.inert(what)])
        default: return ""
        }
    }

    /// The dive `award` recorded, as the journal now scores it: one sentence, or `--json`'s object.
    static func printRecorded(_ award: MeetAward, directory: String, json: Bool) {
        let (_, state) = read(directory)
        let name = state.entrant(award.diver)?.diver ?? award.diver
        let results: MeetResults
        do { results = try state.results() } catch { fail(String(describing: error), status: 1) }
        guard let row = results.rows.first(where: { $0.diver == name }),
              let scored = row.dives.first(where: { $0.planned.round == award.round }), let score = scored.score else { return }
        if json {
            printJSON(MeetResultsJSON.Dive(scored))
            return
        }
        print(localizer.t("{diver}, round {round} ({code}, DD {dd}): {score}; total {total}, place {place}.",
                          ["diver": TerminalText.inert(row.diver), "round": String(award.round), "code": scored.planned.code,
                           "dd": DegreeOfDifficulty.format(tenths: scored.planned.ddTenths, localizer),
                           "score": PanelScore.formatHundredths(score.hundredths),
                           "total": PanelScore.formatHundredths(row.totalHundredths), "place": String(row.place)]))
    }

    /// The pack `id` of the bundled packs, or exit (64 for an unknown id: a value the option cannot take).
    static func pack(_ id: String) -> MeetPack {
        do {
            return try MeetPack.load(id, from: packs)
        } catch MeetPack.LoadError.unknown(let id) {
            usageError(localizer.t("“{value}” is not a rule pack; locker meet packs lists them.", ["value": TerminalText.inert(id)]))
        } catch MeetPack.LoadError.newerVersion(let id) {
            fail(localizer.t("The rule pack {pack} was written for a newer Locker; update Locker to use it.", ["pack": id]), status: 1)
        } catch {
            fail(localizer.t("The rule pack {pack} cannot be used: {reason}", ["pack": id, "reason": String(describing: error)]), status: 1)
        }
    }

    static var packs: URL { MeetPack.directory(bundledData().deletingLastPathComponent()) }

    /// The penalties that fail a dive in this kind of event (the synchronised ones, art. 9, only
    /// in synchro): the list the console picks a failed dive's article from.
    static func failures(synchro: Bool) -> [Penalty] {
        let book = (try? divingFiles?.penalties.value.get()) ?? (try? PenaltyBook.load(from: bundledData().appendingPathComponent("diving/penalties.json")))
        return (book?.penalties ?? []).filter { penalty in
            penalty.sanction == .failed && (synchro || !penalty.articles.allSatisfy { $0.hasPrefix("9.") })
        }
    }

    /// Exits 64 when `article` is not one that fails a dive in this kind of event.
    static func checkFailedArticle(_ article: String?, synchro: Bool) {
        guard let article else { return }
        let articles = failures(synchro: synchro).flatMap(\.articles)
        guard articles.isEmpty || articles.contains(article) else {
            usageError(localizer.t("{article} is not an article that fails a dive in this event; the penalties that do: {articles}.",
                                   ["article": TerminalText.inert(article), "articles": Array(Set(articles)).sorted().joined(separator: ", ")]))
        }
    }

    static func message(_ error: MeetJournalError) -> String { error.localized(localizer) }

    static func message(_ error: MeetError) -> String { error.localized(localizer) }
}

struct MeetNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: localizer.t("Make a meet folder with one event."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The event's name."), valueName: "name")) var event: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The rule pack, e.g. wa2024-individual-women."), valueName: "pack")) var pack: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Judges on the panel: 5 or 7; synchronised 9 or 11."), valueName: "n")) var judges: Int
    @Option(name: .long, help: ArgumentHelp(localizer.t("The event's height in metres: 1, 3, 5, 7.5 or 10."), valueName: "h")) var height: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The last place that goes through to the next phase (12 for a semi-final): the console shows what each diver needs for it."), valueName: "place")) var cut: Int?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let rules = Meet.pack(pack)
        guard rules.judges.contains(judges) else {
            usageError(localizer.t("The pack {pack} takes a panel of {judges} judges.",
                                   ["pack": pack, "judges": rules.judges.map(String.init).joined(separator: " " + localizer.t("or") + " ")]))
        }
        if let height, DiveHeight(parsing: height) == nil {
            usageError(localizer.t("“{value}” is not a diving height: use 1, 3, 5, 7.5 or 10.", ["value": height]))
        }
        let eventHeight = height.flatMap(DiveHeight.init(parsing:))?.rawValue
        if rules.heights.isEmpty, eventHeight != nil {
            usageError(localizer.t("The pack {pack} sets every round's height itself: leave out --height.", ["pack": pack]))
        }
        if !rules.heights.isEmpty, !rules.heights.contains(eventHeight ?? "") {
            usageError(localizer.t("The pack {pack} is dived at {heights} m: give one with --height.",
                                   ["pack": pack, "heights": rules.heights.joined(separator: ", ")]))
        }
        guard !directory.split(whereSeparator: \.isWhitespace).isEmpty else { usageError(localizer.t("Name the meet folder to make.")) }
        let trimmed = event.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !trimmed.isEmpty, !GamesLimits.hasForbiddenCharacters(trimmed) else { usageError(localizer.t("Give the event a name.")) }
        if let cut, !(1...999).contains(cut) { usageError(localizer.t("--cut is a place from 1 to 999.")) }
        let setup = MeetSetup(format: MeetSetup.currentFormat, event: trimmed, pack: pack, judges: judges, synchro: rules.isSynchro,
                              height: eventHeight, cut: cut)
        do {
            try Meet.journal(directory).create(setup, at: Instant.string(Date().timeIntervalSince1970))
        } catch let error as MeetJournalError {
            fail(Meet.message(error), status: 1)
        }
        print(localizer.t("Meet “{event}” made in {path}.", ["event": TerminalText.inert(trimmed), "path": directory]))
    }
}

struct MeetImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: localizer.t("Enter divers and their dive sheets from a CSV file."),
        discussion: localizer.t("One row per planned dive, with the header diver,club,round,code,height (a synchronised pair as \"A / B\"). Every row is checked first: nothing is entered when one is wrong."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Argument(help: ArgumentHelp(localizer.t("The CSV file."), valueName: "file")) var file: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            fail(localizer.t("{path} cannot be read.", ["path": file]), status: 1)
        }
        let (_, state) = Meet.read(directory)
        let entrants: [MeetEntrant]
        do {
            let rules = Meet.pack(state.setup.pack)
            entrants = try MeetSheetCSV.read(data, eventHeight: state.setup.height,
                                             pairs: rules.kind == "team" ? nil : rules.isSynchro).map { entrant in
                var entrant = entrant
                entrant.dives = entrant.dives.map { var dive = $0; dive.ddTenths = rules.ddTenths(round: dive.round, formula: dive.ddTenths); return dive }
                return entrant
            }
        } catch let error as MeetSheetCSV.Problem {
            fail(localizer.t("{file}, line {line}: {problem}", ["file": file, "line": String(error.line), "problem": error.message(localizer)]), status: 1)
        }
        // One append for every diver, checked against the meet as it is at that moment: all or none.
        var drawn = false
        Meet.record(directory, .entered(entrants)) { state in
            if !state.awards.isEmpty { throw MeetError.enterAfterDiving }
            if let twice = entrants.first(where: { state.entrant($0.diver) != nil }) { throw MeetError.alreadyEntered(twice.diver) }
            drawn = state.seed != nil
        }
        print(localizer.n("{count} diver entered.", "{count} divers entered.", count: entrants.count))
        if drawn, !entrants.isEmpty {
            warn(localizer.t("The running order was drawn before: draw it again (locker meet draw {path}) to give the divers entered now a place by lot.",
                             ["path": TerminalText.inert(directory)]))
        }
    }
}

struct MeetPacksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "packs", abstract: localizer.t("The rule packs a meet can be run under, and what each requires."))

    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    struct Output: Encodable {
        struct Rule: Encodable { var rule: String; var article: String; var says: String; var heights: [String]? }
        var id: String
        var name: String
        var kind: String
        var heights: [String]
        var judges: [Int]
        var dives: [String: Int]
        var rules: [Rule]
    }

    func run() throws {
        let packs: [MeetPack]
        do { packs = try MeetPack.all(in: Meet.packs) } catch { fail(String(describing: error), status: 1) }
        let language = localizer.language
        if json {
            printJSON(packs.map { pack in
                Output(id: pack.id, name: pack.name.text(language), kind: pack.kind, heights: pack.heights, judges: pack.judges, dives: pack.dives,
                       rules: pack.rules.map { Output.Rule(rule: $0.kind, article: $0.article, says: $0.says.text(language), heights: $0.heights) })
            })
            return
        }
        for pack in packs {
            print("\(pack.id)  \(pack.name.text(language))")
            for rule in pack.rules {
                let heights = rule.heights.map { " [" + $0.joined(separator: ", ") + " m]" } ?? ""
                print("    \(rule.article)\(heights)  \(rule.says.text(language))")
            }
        }
    }
}

struct MeetCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: localizer.t("Check every dive sheet against the meet's rule pack; exit 1 when one breaks a rule."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    struct Output: Encodable {
        struct Problem: Encodable {
            var diver: String
            /// Null for a rule about the whole sheet, never left out.
            @NullWhenAbsent var round: Int?
            var rule: String; var article: String; var says: String; var found: String
        }
        var ok: Bool
        var errors: [Problem]
    }

    func run() throws {
        let (_, state) = Meet.read(directory)
        let pack = Meet.pack(state.setup.pack)
        let errors = state.entrants.flatMap { pack.check($0, height: state.setup.height, language: localizer.language) }
        if json {
            printJSON(Output(ok: errors.isEmpty, errors: errors.map {
                Output.Problem(diver: $0.diver, round: $0.round, rule: $0.rule, article: $0.article, says: $0.says, found: $0.foundText(localizer))
            }))
        } else if errors.isEmpty {
            print(localizer.n("Every sheet keeps the rules ({count} diver).", "Every sheet keeps the rules ({count} divers).", count: state.entrants.count))
        } else {
            for error in errors {
                let round = error.round.map { ", " + localizer.t("round {round}", ["round": String($0)]) } ?? ""
                print("\(TerminalText.inert(error.diver))\(round): \(error.foundText(localizer)) — \(error.says) (\(error.article))")
            }
        }
        if !errors.isEmpty { Glibc.exit(1) }
    }
}

struct MeetDrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "draw", abstract: localizer.t("Draw the running order (art. 2.1.1); the seed is kept in the journal."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The draw's seed, to draw the same order again."), valueName: "n")) var seed: UInt64?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let seed = self.seed ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let (_, state) = Meet.read(directory)
        var generator = SeededRandomNumberGenerator(seed: seed)
        let order = state.entrants.map(\.diver).shuffled(using: &generator)
        Meet.record(directory, .drawn(seed: seed, order: order)) { state in
            // The running order is fixed once the first dive has awards.
            if !state.awards.isEmpty { throw MeetError.drawAfterDiving }
        }
        for (index, diver) in order.enumerated() { print("\(index + 1). \(TerminalText.inert(diver))") }
        print(localizer.t("Seed: {seed}", ["seed": String(seed)]))
    }
}

/// One dive's awards and the referee's call, as `award` and `correct` both take them.
struct DiveAwardOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(localizer.t("The diver (a synchronised pair as \"A / B\")."), valueName: "name")) var diver: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The round."), valueName: "n")) var round: Int
    @Option(name: .long, help: ArgumentHelp(localizer.t("The awards in judge order, separated by commas or spaces; x for a missing one (or -, then write --awards=LIST)."), valueName: "list")) var awards: String
    @OptionGroup var referee: RefereeCallOptions
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The attempt (2 for a void dive done again)."), valueName: "n")) var attempt = 1

    /// The award the options describe, or exit 64 naming the value that is not one.
    func award() -> MeetAward {
        let given: [Int?]
        do {
            given = try PanelScore.parseAwards(awards).map { $0.map { Int(($0 * 2).rounded()) } }
        } catch PanelScoreError.badAward(let text) {
            fail(Meet.message(MeetError.badAward(text)), status: 64)
        } catch {
            fail(Meet.message(MeetError.badAward(awards)), status: 64)
        }
        guard round >= 1, attempt >= 1 else { usageError(localizer.t("Rounds and attempts count from 1.")) }
        return MeetAward(diver: diver, round: round, attempt: attempt, awards: given, call: referee.call())
    }
}

/// The referee's call, as `award`, `correct` and `accept` take it.
struct RefereeCallOptions: ParsableArguments {
    @Flag(name: .long, help: ArgumentHelp(localizer.t("A re-start: 2 points off every award (6.5.1, 6.5.2)."))) var restart = false
    @Option(name: .long, help: ArgumentHelp(localizer.t("The highest award that counts: 2 or 4.5."), valueName: "award")) var max: String?
    @Option(name: .long, help: ArgumentHelp(localizer.t("A failed dive, and the article that fails it."), valueName: "article")) var failed: String?
    @Flag(name: .long, help: ArgumentHelp(localizer.t("The unsafe-dive majority (8.5.4): every award above 2 counts as 2."))) var unsafe = false

    /// The call the options describe, or exit 64 naming the value that is not one.
    func call() -> RefereeCall {
        var cap: Int?
        if let max {
            switch max.replacing(",", with: ".") {
            case "2", "2.0": cap = 4
            case "4.5", "4½": cap = 9
            default: usageError(localizer.t("--max is 2 (position other than announced) or 4.5 (arms at entry)."))
            }
        }
        if let failed, failed.isEmpty || GamesLimits.hasForbiddenCharacters(failed) { usageError(localizer.t("--failed takes the article that fails the dive, e.g. 6.4.12.")) }
        return RefereeCall(restart: restart, capHalfPoints: cap, unsafe: unsafe, failedArticle: failed)
    }
}

struct MeetAwardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "award", abstract: localizer.t("Record one dive's awards, in judge order."),
        discussion: localizer.t("Any diver and round in any order, as a recorder catching up from paper does. A re-start takes 2 points off every award (6.5.1); --max 2 for a position other than announced (6.4.13), --max 4.5 for arms wrong at entry (6.5.8); --unsafe for the majority of 8.5.4; --failed ARTICLE for a failed dive. A void attempt's redo is --attempt 2: the first awards stay in the journal."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @OptionGroup var dive: DiveAwardOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let award = dive.award()
        Meet.checkFailedArticle(award.call.failedArticle, synchro: Meet.read(directory).1.setup.synchro)
        _ = Meet.record(directory, .awarded(award)) { state in try state.check(award) }
        Meet.printRecorded(award, directory: directory, json: json)
    }
}

struct MeetCorrectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct", abstract: localizer.t("Correct a dive's recorded awards or call, with the reason; the first ones stay in the journal and the protocol."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @OptionGroup var dive: DiveAwardOptions
    @Option(name: .long, help: ArgumentHelp(localizer.t("Why the awards are corrected."), valueName: "text")) var reason: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let award = dive.award()
        Meet.checkFailedArticle(award.call.failedArticle, synchro: Meet.read(directory).1.setup.synchro)
        let text = reason.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !GamesLimits.hasForbiddenCharacters(text) else { usageError(Meet.message(.reasonMissing)) }
        Meet.record(directory, .corrected(award, reason: text)) { state in try state.checkCorrection(award, reason: text) }
        print(localizer.t("Corrected: {diver}, round {round}.", ["diver": TerminalText.inert(dive.diver), "round": String(dive.round)]))
    }
}

/// A reason as the journal keeps it: one line, blanks joined; a usage error when there is none.
func meetReason(_ text: String) -> String {
    let reason = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard !reason.isEmpty, !GamesLimits.hasForbiddenCharacters(reason) else { usageError(Meet.message(.reasonMissing)) }
    return reason
}

struct MeetWithdrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "withdraw", abstract: localizer.t("Withdraw a diver from the event, with the reason; the dives done still count."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The diver (a synchronised pair as \"A / B\")."), valueName: "name")) var diver: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("Why the diver withdraws."), valueName: "text")) var reason: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let text = meetReason(reason)
        // The name as entered ("Bea"), also when typed "bea".
        let name = Meet.read(directory).1.entrant(diver)?.diver ?? diver
        Meet.record(directory, .withdrawn(diver: name, reason: text)) { state in try state.checkWithdrawal(diver: name, reason: text) }
        print(localizer.t("{diver} withdrawn.", ["diver": TerminalText.inert(name)]))
    }
}

struct MeetChangeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change", abstract: localizer.t("Change a diver's planned dive before it is dived (a late change), with the reason."),
        discussion: localizer.t("The dive is written as on a sheet: 5253B 3, or 5253B 3 3.2 with the DD the sheet claims; the DD from the formula counts, and a claimed one that differs is said."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The diver (a synchronised pair as \"A / B\")."), valueName: "name")) var diver: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The round."), valueName: "n")) var round: Int
    @Option(name: .long, help: ArgumentHelp(localizer.t("The new dive: number and height, e.g. \"5253B 3\"."), valueName: "dive")) var dive: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("Why the dive is changed."), valueName: "text")) var reason: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let text = meetReason(reason)
        let (_, state) = Meet.read(directory)
        let entry: MeetDiveEntry
        switch MeetDiveEntry.parse(dive, eventHeight: state.setup.height) {
        case .success(let parsed): entry = parsed
        case .failure(let problem): usageError(problem.message(localizer))
        }
        let pack = Meet.pack(state.setup.pack)
        let planned = PlannedDive(round: round, code: entry.code.text, height: entry.height.rawValue,
                                  ddTenths: pack.ddTenths(round: round, formula: entry.ddTenths))
        if entry.claimMismatch, let claimed = entry.claimedTenths {
            warn(localizer.t("The sheet claims DD {claimed} for {code}; the formula gives {dd}, which counts.",
                                  ["claimed": DegreeOfDifficulty.format(tenths: claimed, localizer), "code": entry.code.text,
                                   "dd": DegreeOfDifficulty.format(tenths: entry.ddTenths, localizer)]))
        }
        let name = state.entrant(diver)?.diver ?? diver
        Meet.record(directory, .changed(diver: name, dive: planned, reason: text)) { state in
            try state.checkChange(diver: name, dive: planned, reason: text)
        }
        print(localizer.t("{diver}'s round {round} is now {code}.", ["diver": TerminalText.inert(name), "round": String(round), "code": planned.code]))
        for problem in pack.check(state.entrant(diver).map { entrant in
            var changed = entrant
            changed.dives = entrant.dives.map { $0.round == round ? planned : $0 }
            return changed
        } ?? MeetEntrant(diver: diver, club: "", dives: []), height: state.setup.height, language: localizer.language) {
            let round = problem.round.map { ", " + localizer.t("round {round}", ["round": String($0)]) } ?? ""
            warn("\(TerminalText.inert(problem.diver))\(round): \(problem.foundText(localizer)) — \(problem.says) (\(problem.article))")
        }
    }
}

/// `undo` and `redo`: one journal line that takes a decision back, or puts it back (nothing is
/// ever deleted); what the line is comes from the meet's state.
protocol MeetTakeBackCommand: ParsableCommand {
    var directory: String { get }
    static func entry(_ state: MeetState) throws -> MeetEntry
}

extension MeetTakeBackCommand {
    func run() throws {
        let line = Meet.record(directory, prepare: { try [Self.entry($0)] })
        print(Meet.undoRedoText(line, directory: directory))
    }
}

struct MeetUndoCommand: MeetTakeBackCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: localizer.t("Take back the latest decision still standing (a new journal line; nothing is deleted)."))
    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @OptionGroup var shared: SharedOptions
    static func entry(_ state: MeetState) throws -> MeetEntry { try state.undo() }
}

struct MeetRedoCommand: MeetTakeBackCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: localizer.t("Put back the decision the latest undo took back."))
    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @OptionGroup var shared: SharedOptions
    static func entry(_ state: MeetState) throws -> MeetEntry { try state.redo() }
}

struct MeetPhaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phase", abstract: localizer.t("Start the next phase (semi-final, final) in a new meet folder: the best divers of this one, in reverse ranking order."),
        discussion: localizer.t("The divers placed up to --top go through with their dive sheets (all of those tied at the last place go through). They dive in reverse order of this phase's ranking, the best last; divers tied with each other are ordered by a seeded draw (art. 2.1.1). The seed is kept in the new journal."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder of the phase that ended."), valueName: "dir")) var directory: String
    @Argument(help: ArgumentHelp(localizer.t("The new meet folder."), valueName: "new-dir")) var next: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("How many go through: 12 for a semi-final or a final."), valueName: "n")) var top: Int
    @Option(name: .long, help: ArgumentHelp(localizer.t("The new phase's name."), valueName: "name")) var event: String?
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The draw's seed for tied divers, to draw the same order again."), valueName: "n")) var seed: UInt64?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        guard (1...999).contains(top) else { usageError(localizer.t("--top is a number of divers from 1 to 999.")) }
        let (_, state) = Meet.read(directory)
        let results: MeetResults
        do { results = try state.results() } catch { fail(String(describing: error), status: 1) }
        let seed = self.seed ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let order = MeetPhase.reverseRankingOrder(results, top: top, seed: seed)
        guard !order.isEmpty else { fail(localizer.t("No diver has a score yet: the next phase cannot be drawn."), status: 1) }
        var setup = state.setup
        if let event {
            let trimmed = event.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !trimmed.isEmpty, !GamesLimits.hasForbiddenCharacters(trimmed) else { usageError(localizer.t("Give the event a name.")) }
            setup.event = trimmed
        }
        setup.cut = nil
        let entrants = order.compactMap { state.entrant($0) }
        do {
            let journal = Meet.journal(next)
            try journal.create(setup, at: Instant.string(Date().timeIntervalSince1970))
            try journal.append([.entered(entrants), .drawn(seed: seed, order: order)], at: Instant.string(Date().timeIntervalSince1970))
        } catch let error as MeetJournalError {
            fail(Meet.message(error), status: 1)
        }
        for (index, diver) in order.enumerated() { print("\(index + 1). \(TerminalText.inert(diver))") }
        print(localizer.t("Seed: {seed}", ["seed": String(seed)]))
    }
}

struct MeetResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "results", abstract: localizer.t("The ranking and every dive behind it."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print CSV instead of text."))) var csv = false
    @Option(name: .long, help: ArgumentHelp(localizer.t("Write the printable protocol (every award, call and correction, the pack and the journal's hash) as HTML to this file."), valueName: "file"))
    var html: String?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        guard [json, csv, html != nil].filter({ $0 }).count <= 1 else { usageError(localizer.t("Give one of --json, --csv and --html.")) }
        let (contents, state) = Meet.read(directory)
        if let html {
            let target = URL(fileURLWithPath: html).standardizedFileURL
            let folder = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
            guard !html.isEmpty, !target.hasDirectoryPath else { usageError(localizer.t("--html takes the file to write the protocol to.")) }
            guard target.deletingLastPathComponent().path != folder.path else {
                fail(localizer.t("Write the protocol outside the meet folder: its files are the meet's record."), status: 1)
            }
            var info = stat()
            guard stat(target.deletingLastPathComponent().path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                fail(localizer.t("The folder {path} does not exist.", ["path": target.deletingLastPathComponent().path]), status: 1)
            }
            let results: MeetResults
            do { results = try state.results() } catch { fail(String(describing: error), status: 1) }
            do {
                try AtomicFile.write(Data(MeetProtocolHTML.page(results, state: state, lastHash: contents.lines.last?.hash ?? "").utf8),
                                     to: target)
            } catch let error as StorageError {
                fail(error.localized(localizer), status: 1)
            }
            print(localizer.t("The protocol is in {file}.", ["file": html]))
            return
        }
        MeetReport.print(state, json: json, csv: csv)
    }
}

struct MeetReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: localizer.t("Rebuild the results from the journal alone, entry by entry."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        // The journal is the meet's only record: the results are this replay, every time.
        let (_, state) = Meet.read(directory)
        MeetReport.print(state, json: json, csv: false)
    }
}

struct MeetVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: localizer.t("Check the journal's chain of hashes; exit 1 when a line was altered, removed or reordered."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let (contents, _) = Meet.read(directory)
        print(localizer.n("The journal is intact: {count} entry, last hash {hash}.", "The journal is intact: {count} entries, last hash {hash}.",
                          count: contents.lines.count, ["hash": contents.lines.last?.hash ?? ""]))
    }
}
