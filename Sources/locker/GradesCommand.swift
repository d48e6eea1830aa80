// `locker grades`: results, "what do I need", CSV export and import of grades.json.
import ArgumentParser
import FoundationEssentials
import LockerCommandLine
import LockerKit
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The grades file a command works on: `--file`, else grades.json in the data folder, else the
/// bundled default curriculum (no marks) when the data folder has none yet.
struct GradesSource: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(localizer.t("A grades.json file (default: the one in the data folder)."), valueName: "file")) var file: String?
    @OptionGroup var shared: SharedOptions

    func load() -> GradeBook { Self.load(file: file, paths: shared.paths) }

    /// `file`, else the data folder's grades.json, else the bundled curriculum; or exit 1.
    static func load(file: String?, paths: DataPaths) -> GradeBook {
        let url: URL
        if let file {
            url = URL(fileURLWithPath: file)
        } else {
            url = paths.gradesFile
            if !FileManager.default.fileExists(atPath: url.path) {
                return loadBook(bundledData().appendingPathComponent("grades/grades.json"))
            }
        }
        return loadBook(url)
    }

    private static func loadBook(_ url: URL) -> GradeBook {
        guard FileManager.default.fileExists(atPath: url.path) else {
            fail(localizer.t("Cannot read {file}.", ["file": url.path]), status: 1)
        }
        do {
            return try GradeBook.load(from: url, localizer)
        } catch {
            fail(localizer.t("{file} is not a valid grades file: {reason}", ["file": url.path, "reason": "\(error)"]), status: 1)
        }
    }
}

struct GradesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grades",
        abstract: localizer.t("Unit and block averages and whether the year is passed."),
        subcommands: [GradesResultsCommand.self, GradesNeedCommand.self, GradesExportCommand.self, GradesImportCommand.self],
        defaultSubcommand: GradesResultsCommand.self)
}

/// `locker grades [--file F] [--json]` (the default subcommand, so each subcommand owns its options).
struct GradesResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: localizer.t("Unit and block averages and whether the year is passed."))

    @OptionGroup var source: GradesSource
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    func run() throws {
        let book = source.load()
        if json {
            printJSON(GradesJSON(book: book))
            return
        }
        let l = localizer
        // Columns: code, average (right-aligned), coefficient, name; then blocks by name.
        let codes = book.units.map { "UE\($0.code)" }, coefficients = book.units.map { "×" + NumberText.compact($0.coefficient) }
        let codeWidth = codes.map(\.displayWidth).max() ?? 0, coefficientWidth = coefficients.map(\.displayWidth).max() ?? 0
        for (index, unit) in book.units.enumerated() {
            let average = GradeFormat.mark(book.average(ofUnit: unit)).padded(toWidth: 5, alignment: .right)
            print("\(codes[index].padded(toWidth: codeWidth))  \(average)  \(coefficients[index].padded(toWidth: coefficientWidth))  \(TerminalText.inert(unit.name))")
        }
        print("")
        let outlook = book.outlook()
        let names = book.blocks.map { TerminalText.inert($0.name) }
        let nameWidth = names.map(\.displayWidth).max() ?? 0
        for (index, (block, entry)) in zip(book.blocks, outlook.blocks).enumerated() {
            let average = GradeFormat.mark(book.average(ofBlock: block)).padded(toWidth: 5, alignment: .right)
            print("\(names[index].padded(toWidth: nameWidth))  \(average)  \(entry.status.sentence(needed: entry.needed, unbounded: entry.unbounded, l))")
        }
        let year = outlook.year
        print(l.t("Year") + ": " + year.status.sentence(needed: year.needed, unbounded: year.unbounded, l))
    }
}

/// `locker grades --json`: averages as numbers (not rounded) or null.
struct GradesJSON: Encodable {
    let book: GradeBook

    private enum Keys: String, CodingKey { case units, blocks, passed, status, needed, id, code, name, average }

    func encode(to encoder: Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        var units = root.nestedUnkeyedContainer(forKey: .units)
        for (unit, tally) in zip(book.units, book.tallies()) {
            var item = units.nestedContainer(keyedBy: Keys.self)
            try item.encode(unit.id, forKey: .id)
            try item.encode(unit.code, forKey: .code)
            try item.encode(unit.name, forKey: .name)
            try item.encode(book.average(ofUnit: unit), forKey: .average)
            try item.encode(tally.status(passMark: book.passMark, scale: book.scale), forKey: .status)
        }
        let outlook = book.outlook()
        var blocks = root.nestedUnkeyedContainer(forKey: .blocks)
        for (block, entry) in zip(book.blocks, outlook.blocks) {
            var item = blocks.nestedContainer(keyedBy: Keys.self)
            try item.encode(block.id, forKey: .id)
            try item.encode(block.name, forKey: .name)
            try item.encode(book.average(ofBlock: block), forKey: .average)
            try item.encode(entry.status, forKey: .status)
            try item.encode(entry.needed, forKey: .needed)
            try item.encode(entry.status == .passed, forKey: .passed)
        }
        try root.encode(outlook.year.status, forKey: .status)
        try root.encode(outlook.year.needed, forKey: .needed)
        try root.encode(outlook.year.status == .passed, forKey: .passed)
    }
}

struct GradesNeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "need",
        abstract: localizer.t("The mark every ungraded course needs for each block, and for the year, to pass."))

    @OptionGroup var source: GradesSource
    @Flag(name: .long, help: ArgumentHelp(localizer.t("Print JSON instead of text."))) var json = false

    private struct Output: Encodable {
        struct Block: Encodable {
            var id: String
            @NullWhenAbsent var needed: Double?
            var status: String
        }
        var blocks: [Block]
        @NullWhenAbsent var needed: Double?
        var status: String
    }

    func run() throws {
        let book = source.load()
        // The same statuses as `locker grades` and the tab (GradeStatus), with the mark needed.
        let outlook = book.outlook()
        if json {
            printJSON(Output(blocks: zip(book.blocks, outlook.blocks).map { Output.Block(id: $0.id, needed: $1.needed, status: $1.status.rawValue) },
                             needed: outlook.year.needed, status: outlook.year.status.rawValue))
            return
        }
        let l = localizer
        for (block, entry) in zip(book.blocks, outlook.blocks) {
            print("\(TerminalText.inert(block.name)): \(entry.status.sentence(needed: entry.needed, unbounded: entry.unbounded, l))")
        }
        print(l.t("Year") + ": " + outlook.year.status.sentence(needed: outlook.year.needed, unbounded: outlook.year.unbounded, l))
    }
}

struct GradesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: localizer.t("Write the grades as a CSV file (one row per course) for a spreadsheet."))

    @OptionGroup var source: GradesSource
    @Option(name: .long, help: ArgumentHelp(localizer.t("The CSV file to write (- writes it to standard output)."), valueName: "file")) var csv: String

    func run() throws {
        let book = source.load()
        if csv == "-" {
            print(GradesCSV.export(book), terminator: "")
            return
        }
        do {
            try AtomicFile.write(Data(GradesCSV.export(book).utf8), to: URL(fileURLWithPath: csv), creatingFolders: false)
        } catch {
            fail(localizer.t("{file} could not be written: {reason}", ["file": csv, "reason": StorageError.explain(error, localizer)]), status: 1)
        }
        let courses = book.units.reduce(0) { $0 + $1.courses.count }
        print(localizer.n("Wrote {count} course to {file}.", "Wrote {count} courses to {file}.", count: courses, ["file": csv]))
    }
}

struct GradesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: localizer.t("Replace the units and courses of grades.json by those of a CSV file (every row is checked first)."))

    @Argument(help: ArgumentHelp(localizer.t("A CSV file as written by locker grades export."), valueName: "file.csv")) var file: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            fail(localizer.t("Cannot read {file}.", ["file": file]), status: 1)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            fail(localizer.t("{file} is not UTF-8 text; save it from the spreadsheet as CSV UTF-8.", ["file": file]), status: 1)
        }
        let paths = shared.paths
        let current = GradesSource.load(file: nil, paths: paths)
        let imported: GradeBook
        do {
            imported = try GradesCSV.importing(text, into: current, localizer)
        } catch let error as GradesCSV.ImportError {
            for problem in error.problems.prefix(20) {
                warn(localizer.t("{file}, line {line}: {problem}", ["file": file, "line": String(problem.line), "problem": problem.message]))
            }
            if error.problems.count > 20 {
                warn(localizer.n("… and {count} more problem.", "… and {count} more problems.", count: error.problems.count - 20))
            }
            fail(localizer.t("Nothing was imported; grades.json is unchanged."), status: 1)
        }
        guard paths.prepare() else {
            fail(localizer.t("The data folder {path} cannot be written.", ["path": paths.directory.path]), status: 1)
        }
        do {
            try GradesViewModel.repository(paths.gradesFile, localizer).save(imported)
        } catch {
            fail(localizer.t("Your grades could not be saved: {reason}. The file keeps the last saved version.", ["reason": StorageError.explain(error, localizer)]), status: 1)
        }
        let courses = imported.units.reduce(0) { $0 + $1.courses.count }
        print(localizer.t("Imported {units} units and {courses} courses into {file}.",
                          ["units": String(imported.units.count), "courses": String(courses), "file": paths.gradesFile.path]))
    }
}

extension GradesSource {
    init(file: String?) {
        self.init()
        self.file = file
    }
}
