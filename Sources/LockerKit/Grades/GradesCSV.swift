/// Grades as a spreadsheet: one CSV row per course (RFC 4180).
///
/// Columns: unit code, unit name, unit coefficient, professional, course name, course
/// coefficient, mark (empty = not graded), locked. A unit without courses is one row with the
/// course columns empty. Blocks are not in the CSV: an import keeps the current blocks.
public enum GradesCSV {
    public static let header = ["unit_code", "unit_name", "unit_coefficient", "professional",
                                "course_name", "course_coefficient", "mark", "locked"]

    public static func export(_ book: GradeBook) -> String {
        var rows = [header]
        for unit in book.units {
            let unitFields = [String(unit.code), unit.name, NumberText.compact(unit.coefficient), unit.professional ? "true" : "false"]
            if unit.courses.isEmpty { rows.append(unitFields + ["", "", "", ""]) }
            for course in unit.courses {
                rows.append(unitFields + [course.name, NumberText.compact(course.coefficient),
                                          course.mark.map(NumberText.compact) ?? "", course.locked ? "true" : "false"])
            }
        }
        return CSV.write(rows)
    }

    /// One problem of an import, with the line of the file it is on.
    public struct Problem: Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    public struct ImportError: Error, Equatable {
        public var problems: [Problem]
    }

    /// Reads a CSV export into a copy of `current` (its scale, pass mark and blocks are kept;
    /// units and ids are matched by unit code and course name). Every row is checked; nothing is
    /// returned unless all rows are valid.
    public static func importing(_ text: String, into current: GradeBook, _ l: Localizer) throws -> GradeBook {
        let records: [CSV.Record]
        do {
            records = try CSV.parse(text)
        } catch let error as CSV.ParseError {
            throw ImportError(problems: [Problem(line: error.line, message: error.message(l))])
        }
        var problems: [Problem] = []
        var units: [GradeUnit] = []
        var unitLines: [Int: Int] = [:]   // code → first line
        let rows = records.first.map { $0.fields.first?.lowercased() == header[0] } == true ? Array(records.dropFirst()) : records
        if rows.isEmpty { throw ImportError(problems: [Problem(line: 1, message: l.t("there are no course rows"))]) }
        for record in rows {
            func problem(_ message: String) { problems.append(Problem(line: record.line, message: message)) }
            let f = record.fields.map { $0.trimmingSpaces }
            guard f.count == header.count else {
                problem(l.n("{count} field where 8 are expected", "{count} fields where 8 are expected", count: f.count))
                continue
            }
            guard let code = Int(f[0]), code >= 0 else { problem(l.t("unit code “{value}” is not a whole number", ["value": f[0]])); continue }
            guard !f[1].isEmpty else { problem(l.t("the unit name is empty")); continue }
            guard let unitCoefficient = number(f[2]), unitCoefficient > 0 else {
                problem(l.t("unit coefficient “{value}” must be a number above 0", ["value": f[2]])); continue
            }
            guard let professional = flag(f[3]) else { problem(l.t("“{value}” is not true or false", ["value": f[3]])); continue }
            var unitIndex = units.firstIndex { $0.code == code }
            if let index = unitIndex {
                let unit = units[index]
                if unit.name != f[1] || unit.coefficient != unitCoefficient || unit.professional != professional {
                    problem(l.t("unit {code} is described differently on line {line}", ["code": String(code), "line": String(unitLines[code] ?? 0)]))
                    continue
                }
            } else {
                let id = current.units.first { $0.code == code }?.id ?? "ue\(code)"
                units.append(GradeUnit(id: id, code: code, name: f[1], coefficient: unitCoefficient, professional: professional))
                unitLines[code] = record.line
                unitIndex = units.count - 1
            }
            if f[4].isEmpty && f[5].isEmpty && f[6].isEmpty { continue }   // a unit without courses
            guard !f[4].isEmpty else { problem(l.t("the course name is empty")); continue }
            guard let courseCoefficient = number(f[5]), courseCoefficient > 0 else {
                problem(l.t("course coefficient “{value}” must be a number above 0", ["value": f[5]])); continue
            }
            var mark: Double?
            if !f[6].isEmpty {
                guard let value = number(f[6]), value >= 0, value <= current.scale else {
                    problem(l.t("mark “{value}” must be empty or a number from 0 to {scale}", ["value": f[6], "scale": NumberText.compact(current.scale)])); continue
                }
                mark = value
            }
            guard let locked = f[7].isEmpty ? false : flag(f[7]) else { problem(l.t("“{value}” is not true or false", ["value": f[7]])); continue }
            if locked && mark == nil { problem(l.t("a course without a mark cannot be locked")); continue }
            guard let index = unitIndex else { continue }
            if units[index].courses.contains(where: { $0.name == f[4] }) {
                problem(l.t("the course “{name}” appears twice in unit {code}", ["name": f[4], "code": String(code)])); continue
            }
            let previous = current.units.first { $0.code == code }?.courses.first { $0.name == f[4] }
            units[index].courses.append(GradeCourse(id: previous?.id ?? "", name: f[4], coefficient: courseCoefficient, mark: mark, locked: locked))
        }
        guard problems.isEmpty else { throw ImportError(problems: problems) }
        // Give new courses ids that are unique in the book.
        var used = Set(units.flatMap { $0.courses.map(\.id) }.filter { !$0.isEmpty })
        for u in units.indices {
            for c in units[u].courses.indices where units[u].courses[c].id.isEmpty {
                var n = c + 1
                while used.contains("\(units[u].id)-c\(n)") { n += 1 }
                units[u].courses[c].id = "\(units[u].id)-c\(n)"
                used.insert(units[u].courses[c].id)
            }
        }
        var book = current
        book.units = units
        book.blocks = GradesCSV.blocks(current.blocks, oldUnits: current.units, newUnits: units)
        return book
    }

    /// Blocks keep the units they listed (matched by code); units new to the book join the block
    /// "total" when there is one; blocks left empty are dropped, and if none is left, one "Total"
    /// block holds every unit.
    static func blocks(_ blocks: [GradeBlock], oldUnits: [GradeUnit], newUnits: [GradeUnit]) -> [GradeBlock] {
        let codeOfOld = Dictionary(oldUnits.map { ($0.id, $0.code) }, uniquingKeysWith: { a, _ in a })
        let idOfCode = Dictionary(newUnits.map { ($0.code, $0.id) }, uniquingKeysWith: { a, _ in a })
        let oldCodes = Set(oldUnits.map(\.code))
        var result: [GradeBlock] = []
        for var block in blocks {
            block.units = block.units.compactMap { codeOfOld[$0].flatMap { idOfCode[$0] } }
            if block.id == "total" {
                block.units += newUnits.filter { !oldCodes.contains($0.code) }.map(\.id)
            }
            if !block.units.isEmpty { result.append(block) }
        }
        if result.isEmpty { result = [GradeBlock(id: "total", name: "Total", units: newUnits.map(\.id))] }
        return result
    }

    /// A number written with a point or a comma.
    static func number(_ text: String) -> Double? {
        guard let value = Double(text.replacing(",", with: ".")), value.isFinite else { return nil }
        return value
    }

    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1", "y", "x": return true
        case "false", "no", "0", "n", "": return false
        default: return nil
        }
    }
}
