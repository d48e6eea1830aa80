// The fuzz targets: each feeds bytes to one of Locker's parsers the way the app or the command
// line would, then uses what came out (docs/RELIABILITY.md, rule 3: none crashes on any input). A thrown
// error is a good outcome (the parser said no); a trap, a sanitizer report, a hang or runaway
// memory is a bug.
//
// Compiled twice: by `scripts/fuzz` into the libFuzzer binary (with FuzzMain.swift, the LockerKit
// sources and the plain TerminalUI/LockerGames files it needs), and into LockerKitTests through
// a symbolic link, where CorpusReplayTests runs every seed and every saved crash on each
// `swift test`.
import FoundationEssentials
import LockerKit
#if canImport(LockerGames)
import LockerGames
#endif
#if canImport(TerminalUI)
import TerminalUI
#endif

/// The parsers that files and terminals feed, by the name `scripts/fuzz` uses.
enum FuzzTarget: String, CaseIterable {
    case po, grades, workoutJSON = "workout-json", gpx, tcx, fit, gradesCSV = "grades-csv",
         grounds, rules, officialRules = "official-rules", keys

    func run(_ bytes: [UInt8]) {
        switch self {
        case .po: fuzzPO(bytes)
        case .grades: fuzzGrades(bytes)
        case .workoutJSON: fuzzWorkout(bytes, name: "fuzz.json")
        case .gpx: fuzzWorkout(bytes, name: "fuzz.gpx")
        case .tcx: fuzzWorkout(bytes, name: "fuzz.tcx")
        case .fit: fuzzWorkout(bytes, name: "fuzz.fit")
        case .gradesCSV: fuzzGradesCSV(bytes)
        case .grounds: fuzzGrounds(bytes)
        case .rules: fuzzRules(bytes)
        case .officialRules: fuzzOfficialRules(bytes)
        case .keys: fuzzKeys(bytes)
        }
    }
}

private let english = Localizer.english

/// A PO catalogue, then every lookup a screen would make with it: plain, with placeholders and
/// plural forms for several counts.
private func fuzzPO(_ bytes: [UInt8]) {
    guard let catalog = try? POCatalog(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
    for language in Language.allCases {
        let localizer = Localizer(language: language, catalogs: [language: catalog])
        for key in catalog.order.prefix(16) {
            guard let entry = catalog.entries[key] else { continue }
            _ = localizer.t(entry.msgid, context: entry.context, ["value": "7", "name": "x"])
            if let plural = entry.msgidPlural {
                for count in [0, 1, 2, 5, 21, 1_000_001, -1, Int.max] {
                    _ = localizer.n(entry.msgid, plural, count: count, context: entry.context)
                }
            }
        }
    }
}

/// grades.json as the tab loads it, then everything computed from a valid book.
private func fuzzGrades(_ bytes: [UInt8]) {
    guard let book = try? GradeBook.load(data: Data(bytes), file: "grades.json", english) else { return }
    _ = book.passed
    _ = book.outlook()
    for block in book.blocks { _ = GradeFormat.mark(book.average(ofBlock: block)) }
    let needs = book.needs()
    if let needed = needs.needed { _ = GradeFormat.needed(needed) }
    _ = try? GradesCSV.importing(GradesCSV.export(book), into: book, english)
}

/// A workout file, its analysis and the summary lines the tab shows.
private func fuzzWorkout(_ bytes: [UInt8], name: String) {
    guard let workout = try? WorkoutReader.read(bytes: bytes, name: name) else { return }
    for activity in WorkoutActivities.split(workout) {
        let analysis = WorkoutAnalysis(activity, maxHeartRate: 190)
        _ = WorkoutSummaryText.lines(analysis, fileName: name, english)
    }
}

/// A grades CSV import into a small book.
private func fuzzGradesCSV(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let book = GradeBook(units: [GradeUnit(id: "u1", code: 1, name: "Unit", coefficient: 2,
                                           courses: [GradeCourse(id: "c1", name: "Course", coefficient: 1, mark: 12)])],
                         blocks: [GradeBlock(id: "b1", name: "Block", units: ["u1"])])
    guard let imported = try? GradesCSV.importing(text, into: book, english) else { return }
    _ = imported.needs()
    _ = GradesCSV.export(imported)
}

/// The council's grounds export (CSV or GeoJSON) and the generic CSV reader under it.
private func fuzzGrounds(_ bytes: [UInt8]) {
    _ = try? CSV.parse(String(decoding: bytes, as: UTF8.self))
    _ = try? GroundsImport.read(Data(bytes), fileName: "grounds.csv", english)
}

/// The rules digest format (bundled and user-imported digests).
private func fuzzRules(_ bytes: [UInt8]) {
    guard let digest = try? RulesDigest.parse(String(decoding: bytes, as: UTF8.self), file: "rules.md") else { return }
    for article in digest.articles.prefix(8) { _ = digest.index(of: article.number) }
}

/// The text of an official rule book (`pdftotext -layout` output) split into articles.
private func fuzzOfficialRules(_ bytes: [UInt8]) {
    for article in OfficialRules.split(String(decoding: bytes, as: UTF8.self)).prefix(8) {
        _ = article.number.split(separator: ".").count
    }
}

/// Key codes as `wget_wch` hands them over: a status byte then a 32-bit value, repeated.
private func fuzzKeys(_ bytes: [UInt8]) {
    var index = 0
    let extended = KeyDecoder.Extended(shiftUp: 0o1100, shiftDown: 0o1101)
    while index + 5 <= bytes.count {
        let value = UInt32(bytes[index + 1]) | UInt32(bytes[index + 2]) << 8
            | UInt32(bytes[index + 3]) << 16 | UInt32(bytes[index + 4]) << 24
        let key = bytes[index] & 1 == 0
            ? KeyDecoder.decode(character: value)
            : KeyDecoder.decode(keyCode: Int(Int32(bitPattern: value)), extended: extended)
        _ = key.debugName
        index += 5
    }
}
