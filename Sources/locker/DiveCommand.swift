// `locker dive dd` and `locker dive score`: the dive calculator of the Rules tab on the command line.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerKit

struct DiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dive",
        abstract: localizer.t("Degree of difficulty of a dive and panel scores."),
        subcommands: [DiveDDCommand.self, DiveScoreCommand.self])
}

struct DiveDDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dd",
        abstract: localizer.t("Print a dive's degree of difficulty at a height, its components A–E and its name."))

    @Argument(help: ArgumentHelp(localizer.t("Dive number and position, e.g. 105B, 5253B, 626C, 600A."), valueName: "code")) var code: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("Board or platform height in metres: 1, 3, 5, 7.5 or 10."), valueName: "h")) var height: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    struct Output: Encodable {
        var code: String
        var height: Double
        var dd: Double
        var components: [String: Double]
        var name: String
    }

    func run() throws {
        guard let height = DiveHeight(parsing: height) else {
            usageError(localizer.t("“{value}” is not a diving height: use 1, 3, 5, 7.5 or 10.", ["value": self.height]))
        }
        let dive: DiveCode
        let components: DDComponents
        do {
            dive = try DiveCode(parsing: code)
            components = try DegreeOfDifficulty.compute(dive, height: height)
        } catch let error as DiveCodeError {
            fail(error.message(localizer, code: code.uppercased(), height: height), status: 1)
        }
        let parts = [("A", components.a), ("B", components.b), ("C", components.c), ("D", components.d), ("E", components.e)]
        if json {
            printJSON(Output(code: dive.text, height: Double(height.rawValue) ?? 0, dd: components.value,
                             components: Dictionary(uniqueKeysWithValues: parts.map { ($0.0, Double($0.1) / 10) }),
                             name: dive.name(localizer)))
            return
        }
        print("\(dive.text)  \(dive.name(localizer))  \(height.label(localizer))")
        print(localizer.t("DD {dd} = {components}", ["dd": DegreeOfDifficulty.format(tenths: components.tenths, localizer),
                                                     "components": parts.map { "\($0.0) \(DegreeOfDifficulty.format(tenths: $0.1, localizer))" }.joined(separator: " + ")]))
    }
}

struct DiveScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: localizer.t("Score one dive: the judges' awards, which are cancelled, and the points."),
        discussion: localizer.t("Individual events have 5 or 7 judges. Synchronised events (--synchro) have 11 judges listed as 3 execution awards for diver A, 3 for diver B, then 5 synchronisation awards, or 9 judges as 2 + 2 + 5. A judge who gave no award is written - and replaced by the rounded average of the other judges; in synchro, of the same diver's other execution judges or of the other synchronisation judges (art. 7.9–7.10)."))

    @Option(name: .long, help: ArgumentHelp(localizer.t("Degree of difficulty, e.g. 2.8."), valueName: "dd")) var dd: String
    @Option(name: .long, help: ArgumentHelp(localizer.t("The awards in judge order, separated by commas, e.g. 8,7.5,7.5,7.5,7."), valueName: "list")) var awards: String
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Synchronised diving panel (9 or 11 judges)."))) var synchro = false
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false
    @OptionGroup var shared: SharedOptions

    struct Output: Encodable {
        var dd: Double
        var judges: Int
        var synchro: Bool
        var awards: [ScoredAward]
        var kept: [Double]
        var cancelled: [Double]
        var keptTotal: Double
        var score: Double
    }

    func run() throws {
        let result: PanelScore
        do {
            result = try PanelScore.compute(difficulty: dd, awards: try PanelScore.parseAwards(awards), synchro: synchro)
        } catch let error as PanelScoreError {
            // Every one of these is a value the options cannot take.
            usageError(error.message(localizer))
        }
        if json {
            printJSON(Output(dd: Double(result.difficultyTenths) / 10, judges: result.panel.rawValue, synchro: synchro,
                             awards: result.awards, kept: result.kept.map(\.value),
                             cancelled: result.awards.filter(\.cancelled).map(\.value),
                             keptTotal: Double(result.keptHalfPoints) / 2, score: result.score))
            return
        }
        for line in result.describe(localizer) { print(line) }
    }
}
