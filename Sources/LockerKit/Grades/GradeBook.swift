import FoundationEssentials

/// One course of a unit: a weighted mark, possibly not given yet, possibly locked (final).
public struct GradeCourse: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    /// A positive weight within the unit; decimals allowed.
    public var coefficient: Double
    /// 0 … scale, or nil while the course is not graded.
    /// Written `"mark": null` for an ungraded course, as the format shows.
    @NullWhenAbsent public var mark: Double?
    /// A locked mark is final: sliders do not move it.
    public var locked: Bool

    public init(id: String, name: String, coefficient: Double, mark: Double? = nil, locked: Bool = false) {
        self.id = id
        self.name = name
        self.coefficient = coefficient
        self.mark = mark
        self.locked = locked
    }

    private enum CodingKeys: String, CodingKey { case id, name, coefficient, mark, locked }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        coefficient = try c.decode(Double.self, forKey: .coefficient)
        mark = try c.decodeIfPresent(Double.self, forKey: .mark)
        locked = try c.decodeIfPresent(Bool.self, forKey: .locked) ?? false
    }

}

/// A teaching unit (UE): defined once, listed by id in any number of blocks.
public struct GradeUnit: Equatable, Sendable, Codable {
    public var id: String
    public var code: Int
    public var name: String
    public var coefficient: Double
    /// Project and internship units count in the professional block.
    public var professional: Bool
    public var courses: [GradeCourse]

    /// "UE3 Physiologie": the unit's code and name, as the tree shows it.
    public var title: String { "UE\(code) \(name)" }

    public init(id: String, code: Int, name: String, coefficient: Double, professional: Bool = false, courses: [GradeCourse] = []) {
        self.id = id
        self.code = code
        self.name = name
        self.coefficient = coefficient
        self.professional = professional
        self.courses = courses
    }
}

/// A named set of units that must reach the pass mark together.
public struct GradeBlock: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    public var units: [String]

    public init(id: String, name: String, units: [String]) {
        self.id = id
        self.name = name
        self.units = units
    }
}

/// The whole grades.json file (version 1; docs/DATA-FORMATS.md §6).
public struct GradeBook: Equatable, Sendable, Codable {
    public static let format = "locker-grades"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var scale: Double
    public var passMark: Double
    public var units: [GradeUnit]
    public var blocks: [GradeBlock]

    public init(scale: Double = 20, passMark: Double = 10, units: [GradeUnit], blocks: [GradeBlock]) {
        format = GradeBook.format
        version = GradeBook.currentVersion
        self.scale = scale
        self.passMark = passMark
        self.units = units
        self.blocks = blocks
    }

    public func unit(_ id: String) -> GradeUnit? { units.first { $0.id == id } }

    /// Where a course is: (unit index, course index).
    public func location(ofCourse id: String) -> (unit: Int, course: Int)? {
        for (u, unit) in units.enumerated() {
            if let c = unit.courses.firstIndex(where: { $0.id == id }) { return (u, c) }
        }
        return nil
    }

    /// Checks every rule of the format; the error names the field (`units[2].courses[0].mark`)
    /// and says what is wrong, in the interface language.
    public func validate(_ l: Localizer) throws {
        func fail(_ field: String, _ message: String) -> GradeBookError { GradeBookError(field: field, message: message) }
        guard format == GradeBook.format else {
            throw fail("format", l.t("expected \"{expected}\", found \"{found}\"", ["expected": GradeBook.format, "found": format]))
        }
        guard version == GradeBook.currentVersion else {
            throw fail("version", l.t("version {found} is not supported (this Locker reads version {expected})", ["found": String(version), "expected": String(GradeBook.currentVersion)]))
        }
        guard scale.isFinite, scale > 0 else { throw fail("scale", l.t("must be a number above 0")) }
        guard passMark.isFinite, passMark >= 0, passMark <= scale else {
            throw fail("passMark", l.t("must be between 0 and the scale ({scale})", ["scale": NumberText.compact(scale)]))
        }
        var unitIDs = Set<String>()
        var courseIDs = Set<String>()
        for (u, unit) in units.enumerated() {
            let path = "units[\(u)]"
            guard !unit.id.isEmpty, unitIDs.insert(unit.id).inserted else {
                throw fail(path + ".id", l.t("\"{id}\" is empty or used twice", ["id": unit.id]))
            }
            guard unit.coefficient.isFinite, unit.coefficient > 0 else {
                throw fail(path + ".coefficient", l.t("{value} is not a coefficient: it must be above 0", ["value": NumberText.compact(unit.coefficient)]))
            }
            for (c, course) in unit.courses.enumerated() {
                let coursePath = path + ".courses[\(c)]"
                guard !course.id.isEmpty, courseIDs.insert(course.id).inserted else {
                    throw fail(coursePath + ".id", l.t("\"{id}\" is empty or used twice", ["id": course.id]))
                }
                guard course.coefficient.isFinite, course.coefficient > 0 else {
                    throw fail(coursePath + ".coefficient", l.t("{value} is not a coefficient: it must be above 0", ["value": NumberText.compact(course.coefficient)]))
                }
                if let mark = course.mark, !(mark.isFinite && mark >= 0 && mark <= scale) {
                    throw fail(coursePath + ".mark", l.t("{value} is outside 0 … {scale}", ["value": NumberText.compact(mark), "scale": NumberText.compact(scale)]))
                }
            }
        }
        var blockIDs = Set<String>()
        for (b, block) in blocks.enumerated() {
            guard !block.id.isEmpty, blockIDs.insert(block.id).inserted else {
                throw fail("blocks[\(b)].id", l.t("\"{id}\" is empty or used twice", ["id": block.id]))
            }
            for (i, id) in block.units.enumerated() where !unitIDs.contains(id) {
                throw fail("blocks[\(b)].units[\(i)]", l.t("names the unit \"{id}\", which does not exist", ["id": id]))
            }
        }
    }

    /// Reads and validates a grades file (for the command line and imports).
    public static func load(from url: URL, _ l: Localizer) throws -> GradeBook {
        try load(data: DataFileError.contents(of: url), file: url.lastPathComponent, l)
    }

    /// Decodes and validates grades.json bytes; `file` names them in errors.
    public static func load(data: Data, file: String, _ l: Localizer) throws -> GradeBook {
        let book = try DataFileError.decode(GradeBook.self, from: data, file: file)
        do {
            try book.validate(l)
        } catch let error as GradeBookError {
            throw DataFileError(file: file, reason: error.description)
        }
        return book
    }
}

/// A rule of the grades format that a file breaks: the field and what is wrong with it.
public struct GradeBookError: Error, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public var description: String { field + ": " + message }
}

/// Numbers as the Grades tab writes them.
public enum GradeFormat {
    /// A mark or average with two decimals, cut (not rounded) so that a shown 10.00 always
    /// means at least 10: 9.996 shows as 9.99.
    /// With `l`, the decimal separator is the language's ("11,00" in fr, es and it).
    public static func mark(_ value: Double?, _ l: Localizer? = nil) -> String {
        guard let value, let hundredths = NumberText.whole(value * 100 + 1e-7, .down) else { return "—" }
        return twoDecimals(hundredths, l)
    }

    /// A needed mark with two decimals, rounded up: the shown mark is always enough.
    public static func needed(_ value: Double, _ l: Localizer? = nil) -> String {
        guard let hundredths = NumberText.whole(value * 100 - 1e-7, .up) else { return "—" }
        return twoDecimals(hundredths, l)
    }

    /// A coefficient as short as it can be ("2", "1.5"), with the language's separator.
    public static func coefficient(_ value: Double, _ l: Localizer) -> String {
        MeasureText.withDecimalSeparator(NumberText.compact(value), l)
    }

    private static func twoDecimals(_ hundredths: Int, _ l: Localizer?) -> String {
        let cents = abs(hundredths % 100)
        let separator = l.map(MeasureText.decimalSeparator) ?? "."
        return (hundredths < 0 ? "-" : "") + "\(abs(hundredths / 100))" + separator + (cents < 10 ? "0" : "") + "\(cents)"
    }
}
