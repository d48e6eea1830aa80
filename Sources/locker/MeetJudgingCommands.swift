// Electronic judging on the recorder's machine (World Aquatics art. 13.3): the referee calls a
// dive, each judge's pad (`locker meet judge DIR --seat N`, over SSH) sends its award to the
// journal, the referee accepts the dive, and only then do the pads, the board and the feed
// show its awards. Every step is a line of the meet's journal, appended as every other.
import ArgumentParser
import FoundationEssentials
import LockerApp
import LockerCommandLine
import LockerKit
#if canImport(Glibc)
import Glibc
#endif

struct MeetCallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: localizer.t("Call a dive on the judges' pads: they show it and take its awards."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The diver (a synchronised pair as \"A / B\")."), valueName: "name")) var diver: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("The round."), valueName: "n")) var round: Int
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Call a dive that has its awards again: the redo of a void attempt (6.4.6, 6.4.10)."))) var redo = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        guard round >= 1 else { usageError(localizer.t("Rounds and attempts count from 1.")) }
        let redo = self.redo
        let line = Meet.record(directory, prepare: { [try $0.call(diver: diver, round: round, redo: redo)] })
        guard case .called(let name, let round, let attempt) = line.entry else { return }
        print(localizer.t("Called on the pads: {diver}, round {round}, attempt {attempt}.",
                          ["diver": TerminalText.inert(name), "round": String(round), "attempt": String(attempt)]))
    }
}

struct MeetAcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: localizer.t("Accept the called dive with the awards the pads sent (art. 13.3.2.7): only then do the pads and the board show them."),
        discussion: localizer.t("A seat that sent nothing must be given: --award SEAT=VALUE types the judge's flash card, --missing SEAT declares the award missing (7.9, 7.10). Exit 1 names the seats still silent."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("A seat whose award is missing (7.9, 7.10); repeat for more."), valueName: "seat")) var missing: [Int] = []
    @Option(name: .long, help: ArgumentHelp(localizer.t("A seat's award typed from its flash card, as SEAT=VALUE (3=7.5); repeat for more."), valueName: "seat=value")) var award: [String] = []
    @OptionGroup var referee: RefereeCallOptions
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        var typed: [Int: Int] = [:]
        for item in award {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0].utf8.count <= 2, let seat = Int(parts[0]), !parts[1].isEmpty else {
                usageError(localizer.t("--award takes SEAT=VALUE, e.g. 3=7.5; “{value}” is not one.", ["value": TerminalText.inert(item)]))
            }
            // One award: a comma is its decimal comma (7,5), not a separator.
            guard let value = try? PanelScore.parseAwards(parts[1].replacing(",", with: ".")), value.count == 1, let points = value[0] else {
                usageError(MeetError.badAward(parts[1]).localized(localizer))
            }
            guard typed[seat] == nil else { usageError(MeetError.seatTwice(seat).localized(localizer)) }
            typed[seat] = Int((points * 2).rounded())
        }
        for seat in missing where typed[seat] != nil || missing.filter({ $0 == seat }).count > 1 {
            usageError(MeetError.seatTwice(seat).localized(localizer))
        }
        let call = referee.call()
        let state = Meet.read(directory).1
        Meet.checkFailedArticle(call.failedArticle, synchro: state.setup.synchro)
        let missing = Set(self.missing)
        let line = Meet.record(directory, prepare: { state in
            let (dive, awards) = try state.acceptedAwards(typed: typed, missing: missing)
            let award = MeetAward(diver: dive.diver, round: dive.round, attempt: dive.attempt, awards: awards, call: call)
            try state.check(award)
            return [.awarded(award)]
        })
        guard case .awarded(let award) = line.entry else { return }
        Meet.printRecorded(award, directory: directory, json: json)
    }
}

struct MeetJudgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge", abstract: localizer.t("A judge's pad, full screen (40×12 and up): the called dive, your award, sent and accepted."),
        discussion: localizer.t("Meant to be the command an SSH server runs for a judge's account (see the README). One process per seat: a second one is refused."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(localizer.t("Your seat on the panel, from 1."), valueName: "n")) var seat: Int
    @ParentCommand var root: Locker
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let state = Meet.read(directory).1
        guard (1...state.setup.judges).contains(seat) else { usageError(MeetError.noSuchSeat(seat).localized(localizer)) }
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let lock: MeetLock
        do {
            guard let claimed = try MeetLock.claim(MeetLock.seat(seat), in: folder) else {
                fail(localizer.t("Seat {seat} is taken: another pad is open on it.", ["seat": String(seat)]), status: 1)
            }
            lock = claimed
        } catch let error as MeetJournalError {
            fail(Meet.message(error), status: 1)
        }
        let seat = self.seat
        let status = root.runMeetProgram(shared) { options, terminal, notices in
            App(judge: folder, seat: seat, options: options, localizer: localizer, terminal: terminal, startupNotices: notices)
        }
        withExtendedLifetime(lock) {}
        throw ExitCode(status)
    }
}

struct MeetBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board", abstract: localizer.t("The meet's scoreboard, full screen, for a TV or projector: the last accepted dive in large digits, then the ranking."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @ParentCommand var root: Locker
    @OptionGroup var shared: SharedOptions

    func run() throws {
        _ = Meet.read(directory)
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let status = root.runMeetProgram(shared) { options, terminal, notices in
            App(board: folder, packs: Meet.packs, options: options, localizer: localizer, terminal: terminal, startupNotices: notices)
        }
        throw ExitCode(status)
    }
}

struct MeetFeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed", abstract: localizer.t("Every accepted dive as one JSON line, for scoreboards, video graphics or a web page; --follow keeps printing new ones."))

    @Argument(help: ArgumentHelp(localizer.t("The meet folder."), valueName: "dir")) var directory: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Keep following the journal after the dives accepted so far."))) var follow = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        var printed = 0, lastPrintedHash = ""
        var stamp: [Int]? = [-1]
        while true {
            let now = JournalWatcher.stamp(Meet.journal(directory).url.path)
            if now != stamp {
                stamp = now
                // Read and verified whole: an altered line ends the feed with why.
                let (contents, _) = Meet.read(directory)
                // The lines the feed went through must still be there: a journal cut back or
                // replaced (an old copy restored) is another history, which a scoreboard fed from
                // this one must not take as its sequel.
                if printed > 0, contents.lines.count < printed || contents.lines[printed - 1].hash != lastPrintedHash {
                    fail(localizer.t("The journal was rewritten while it was followed: its line {line} is no longer the one read. Start the feed again.",
                                     ["line": String(printed)]), status: 1)
                }
                for line in MeetFeed.lines(contents.lines, after: printed) { printJSONLine(line) }
                printed = contents.lines.count
                lastPrintedHash = contents.lines.last?.hash ?? ""
                fflush(stdout)
            }
            guard follow else { return }
            usleep(20_000)
        }
    }
}
