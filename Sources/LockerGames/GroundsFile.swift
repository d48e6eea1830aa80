import LockerKit
import FoundationEssentials

/// A Casey suburb: name, postcode and centre.
public struct Suburb: Equatable, Sendable {
    public var name: String
    public var postcode: String
    public var latitude: Double
    public var longitude: Double
}

/// The bundled Data/games/suburbs.csv (`suburb,postcode,latitude,longitude,confidence`).
public enum SuburbsFile {
    public static func read(_ url: URL) throws -> [Suburb] {
        try CSVTable.rows(url, columns: ["suburb", "postcode", "latitude", "longitude"]).map { row in
            Suburb(name: row.fields[0], postcode: row.fields[1], latitude: try row.number(2), longitude: try row.number(3))
        }
    }
}

/// The bundled Data/games/grounds.csv (`id,name,suburb,postcode,latitude,longitude,confidence,timeZone`).
public enum GroundsFile {
    public static func read(_ url: URL) throws -> [Ground] {
        try CSVTable.rows(url, columns: ["id", "name", "suburb", "postcode", "latitude", "longitude", "confidence", "timeZone"]).map { row in
            Ground(id: row.fields[0], name: row.fields[1], suburb: row.fields[2], postcode: row.fields[3],
                   latitude: try row.number(4), longitude: try row.number(5), approximate: row.fields[6] != "verified",
                   timeZone: row.fields[7])
        }
    }
}

/// The bundled Data/games/common-passwords.txt: one lowercase password per line, `#` comments.
public enum CommonPasswordsFile {
    public static func read(_ url: URL) throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DataFileError(file: url.lastPathComponent, reason: "cannot be read")
        }
        return Set(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }.map { $0.lowercased() })
    }
}

/// A CSV file with a header row, checked to have the expected leading columns.
enum CSVTable {
    struct Row {
        var file: String
        var line: Int
        var fields: [String]

        func number(_ index: Int) throws -> Double {
            guard let value = Double(fields[index].filter { !$0.isWhitespace }), value.isFinite else {
                throw DataFileError(file: file, reason: "line \(line): “\(fields[index])” is not a number")
            }
            return value
        }
    }

    static func rows(_ url: URL, columns: [String]) throws -> [Row] {
        let name = url.lastPathComponent
        guard let data = FileManager.default.contents(atPath: url.path) else { throw DataFileError(file: name, reason: "cannot be read") }
        let records: [CSV.Record]
        do { records = try CSV.parse(String(decoding: data, as: UTF8.self)) } catch { throw DataFileError(file: name, reason: "\(error)") }
        guard let header = records.first, Array(header.fields.prefix(columns.count)) == columns else {
            throw DataFileError(file: name, reason: "the header must start with " + columns.joined(separator: ","))
        }
        return try records.dropFirst().map { record in
            guard record.fields.count >= columns.count else {
                throw DataFileError(file: name, reason: "line \(record.line): \(record.fields.count) fields where \(columns.count) are expected")
            }
            return Row(file: name, line: record.line, fields: record.fields)
        }
    }
}
