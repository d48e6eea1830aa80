import Foundation
import LockerKit

/// Reads the council's open-data export of playgrounds (CSV or GeoJSON, or a plain CSV with the
/// same columns) into grounds. Columns are found by name: a record id, the playground name, the
/// suburb name, the postcode, latitude and longitude. Every record is checked; one bad record
/// stops the import with its line (CSV) or its feature number (GeoJSON), said in the interface
/// language.
public enum GroundsImport {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var place: String
        public var message: String
        public var description: String { place + ": " + message }
    }

    public static func read(_ data: Data, fileName: String, _ l: Localizer) throws -> [Ground] {
        let text = String(decoding: data, as: UTF8.self)
        let first = text.first { !$0.isWhitespace && $0 != "\u{FEFF}" }
        if first == "{" || first == "[" { return try geoJSON(data, fileName: fileName, l) }
        return try csv(text, fileName: fileName, l)
    }

    static func line(_ fileName: String, _ line: Int, _ l: Localizer) -> String {
        l.t("{file}, line {line}", ["file": fileName, "line": String(line)])
    }

    /// Column aliases, lower case: the council's field names first, then plain ones.
    static let aliases: [(field: String, names: [String])] = [
        ("id", ["recordid", "record_id", "record id", "id"]),
        ("name", ["playground_name", "playground name", "name"]),
        ("suburb", ["suburb_name", "suburb name", "suburb"]),
        ("postcode", ["postcode", "post_code"]),
        ("latitude", ["latitude", "lat"]),
        ("longitude", ["longitude", "lon", "lng"]),
    ]

    static func csv(_ text: String, fileName: String, _ l: Localizer) throws -> [Ground] {
        let records: [CSV.Record]
        do { records = try CSV.parse(text) } catch let error as CSV.ParseError {
            throw Problem(place: line(fileName, error.line, l), message: error.message(l))
        }
        guard let header = records.first else { throw Problem(place: fileName, message: l.t("the file is empty")) }
        let names = header.fields.map { $0.lowercased().filter { !$0.isWhitespace || $0 == " " } }
        var columns: [String: Int] = [:]
        for (field, candidates) in aliases {
            guard let index = candidates.lazy.compactMap({ names.firstIndex(of: $0) }).first else {
                throw Problem(place: line(fileName, 1, l), message: l.t("no column for {field} (expected one of {names})",
                                                                         ["field": field, "names": candidates.joined(separator: ", ")]))
            }
            columns[field] = index
        }
        return try records.dropFirst().map { record in
            func value(_ field: String) -> String {
                let i = columns[field]!
                return i < record.fields.count ? record.fields[i].filter { $0 != "\r" } : ""
            }
            return try ground(id: value("id"), name: value("name"), suburb: value("suburb"), postcode: value("postcode"),
                              latitude: value("latitude"), longitude: value("longitude"), place: line(fileName, record.line, l), l)
        }
    }

    static func geoJSON(_ data: Data, fileName: String, _ l: Localizer) throws -> [Ground] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw Problem(place: fileName, message: l.t("this is not valid JSON"))
        }
        // A FeatureCollection, or the records API's list of {recordid, fields, geometry}.
        let features: [Any]
        if let collection = object as? [String: Any], let list = collection["features"] as? [Any] { features = list }
        else if let collection = object as? [String: Any], let list = collection["records"] as? [Any] { features = list }
        else if let list = object as? [Any] { features = list }
        else { throw Problem(place: fileName, message: l.t("this is neither a GeoJSON FeatureCollection nor a list of records")) }
        return try features.enumerated().map { index, item in
            let place = l.t("{file}, feature {number}", ["file": fileName, "number": String(index + 1)])
            guard let feature = item as? [String: Any] else { throw Problem(place: place, message: l.t("this feature is not a JSON object")) }
            let properties = (feature["properties"] as? [String: Any]) ?? (feature["fields"] as? [String: Any]) ?? [:]
            func text(_ keys: [String], in dictionary: [String: Any]) -> String {
                for key in keys {
                    if let s = dictionary[key] as? String { return s }
                    if let n = dictionary[key] as? NSNumber { return n.stringValue }
                }
                return ""
            }
            var latitude = text(["latitude", "lat"], in: properties)
            var longitude = text(["longitude", "lon", "lng"], in: properties)
            if let geometry = feature["geometry"] as? [String: Any], let coordinates = geometry["coordinates"] as? [NSNumber], coordinates.count >= 2 {
                longitude = coordinates[0].stringValue   // GeoJSON order: longitude, latitude
                latitude = coordinates[1].stringValue
            }
            let id = text(["recordid", "record_id", "id"], in: properties).isEmpty
                ? text(["recordid", "id"], in: feature) : text(["recordid", "record_id", "id"], in: properties)
            return try ground(id: id, name: text(["playground_name", "name"], in: properties), suburb: text(["suburb_name", "suburb"], in: properties),
                              postcode: text(["postcode", "post_code"], in: properties), latitude: latitude, longitude: longitude, place: place, l)
        }
    }

    static func ground(id: String, name: String, suburb: String, postcode: String, latitude: String, longitude: String, place: String,
                       _ l: Localizer) throws -> Ground {
        let trimmedID = id.filter { !$0.isWhitespace }
        guard !trimmedID.isEmpty else { throw Problem(place: place, message: l.t("the record id is missing")) }
        let cleanName = TerminalText.inert(name).trimmingCharacters(in: .whitespaces)
        guard !cleanName.isEmpty else { throw Problem(place: place, message: l.t("the playground name is missing")) }
        let code = postcode.filter { !$0.isWhitespace }
        guard code.count == 4, code.allSatisfy(\.isNumber) else { throw Problem(place: place, message: l.t("the postcode “{value}” is not 4 digits", ["value": TerminalText.inert(postcode)])) }
        guard let lat = Double(latitude.filter { !$0.isWhitespace }), (-90...90).contains(lat) else {
            throw Problem(place: place, message: l.t("the latitude “{value}” is not a number from -90 to 90", ["value": TerminalText.inert(latitude)]))
        }
        guard let lon = Double(longitude.filter { !$0.isWhitespace }), (-180...180).contains(lon) else {
            throw Problem(place: place, message: l.t("the longitude “{value}” is not a number from -180 to 180", ["value": TerminalText.inert(longitude)]))
        }
        let slug = "casey-" + trimmedID.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return Ground(id: slug, name: cleanName, suburb: TerminalText.inert(suburb).trimmingCharacters(in: .whitespaces),
                      postcode: code, latitude: lat, longitude: lon, approximate: false)
    }
}

/// A game as an iCalendar file (RFC 5545): one VEVENT, lines folded at 75 octets, CRLF.
public enum GameCalendar {
    /// How long an event is assumed to last (games have a start, not an end).
    public static let assumedHours = 3.0

    /// `store` tells the game's store from others (`GamesConnection.storeTag`), so game 1 of a
    /// server and game 1 of the local file are two events in a calendar, not one.
    public static func ics(_ game: GameListing, store: String, now: Double) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Locker//Games//EN", "CALSCALE:GREGORIAN", "BEGIN:VEVENT",
                     "UID:game-\(game.id)-\(store)@locker",
                     "DTSTAMP:" + utc(now), "DTSTART:" + utc(game.start), "DTEND:" + utc(game.start + assumedHours * 3600),
                     "SUMMARY:" + escape("Cricket at \(game.groundName)"),
                     "LOCATION:" + escape("\(game.groundName), \(game.suburb) \(game.postcode)"),
                     "GEO:\(game.latitude);\(game.longitude)",
                     "URL:" + game.map]
        var description = "Organised by \(game.organiser). \(game.seatsUsed)/\(game.capacity) players."
        if let note = game.note { description += "\n" + note }
        if let reason = game.cancelReason { description += "\nCancelled: " + reason }
        lines.append("DESCRIPTION:" + escape(description))
        lines.append("STATUS:" + (game.status == .cancelled ? "CANCELLED" : "CONFIRMED"))
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT escaping of RFC 5545 §3.3.11; control characters other than newline are dropped.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Folds a content line so no line exceeds 75 octets, never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var result = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.append(character)
            octets += size
        }
        return result
    }

    static func utc(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
