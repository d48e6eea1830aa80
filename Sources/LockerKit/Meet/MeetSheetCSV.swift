import FoundationEssentials

/// Entries and dive sheets from a CSV file: one row per planned dive, the header
/// `diver,club,round,code,height` (columns in any order; a synchronised pair as "A / B"). Every
/// row is checked before anything is entered, and the first wrong one is said with its line and
/// field; the DD of each dive comes from the formula (art. 1.6 and appendices 8 and 10).
public enum MeetSheetCSV {
    public static let columns = ["diver", "club", "round", "code", "height"]

    /// The first row that cannot be entered, and why.
    public struct Problem: Error, Equatable, Sendable {
        public enum Reason: Equatable, Sendable {
            case csv(CSV.ParseError.Problem)
            case missingColumn(String)
            case empty(field: String)
            case badRound(String)
            case badHeight(String)
            case notADive(code: String, height: String, DiveCodeError)
            case roundTwice(diver: String, round: Int)
            case noRows
            /// A synchronised event's entry is a pair, "A / B"; an individual event's is one diver.
            case notAPair(String)
            case aPair(String)
            case notUTF8
        }
        public var line: Int
        public var reason: Reason

        public func message(_ l: Localizer) -> String {
            switch reason {
            case .csv(let problem): return CSV.ParseError(line: line, problem: problem).message(l)
            case .missingColumn(let name): return l.t("the header has no column “{column}” (it needs diver, club, round, code, height)", ["column": name])
            case .empty(let field): return l.t("“{column}” is empty", ["column": field])
            case .badRound(let text): return l.t("round “{value}” is not a whole number from 1 to 99", ["value": TerminalText.inert(text)])
            case .badHeight(let text): return l.t("“{value}” is not a diving height: use 1, 3, 5, 7.5 or 10.", ["value": TerminalText.inert(text)])
            case .notADive(let code, let height, let error):
                return error.message(l, code: code, height: DiveHeight(parsing: height) ?? .m3)
            case .roundTwice(let diver, let round):
                return l.t("{diver} has round {round} twice", ["diver": TerminalText.inert(diver), "round": String(round)])
            case .noRows: return l.t("no dive is listed")
            case .notAPair(let name):
                return l.t("“{name}” is not a pair: a synchronised event's entry is written “A / B”", ["name": TerminalText.inert(name)])
            case .aPair(let name):
                return l.t("“{name}” is a pair, and this event is for one diver at a time", ["name": TerminalText.inert(name)])
            case .notUTF8: return l.t("the file is not UTF-8 text (save it as UTF-8 and import it again)")
            }
        }
    }

    /// The entries of a file's bytes: UTF-8, or the first line that is not is said.
    public static func read(_ data: Data, eventHeight: String?, pairs: Bool?) throws -> [MeetEntrant] {
        guard let text = String(validating: data, as: UTF8.self) else {
            let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
            let bad = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0
            throw Problem(line: bad + 1, reason: .notUTF8)
        }
        return try read(text, eventHeight: eventHeight, pairs: pairs)
    }

    /// The divers of `text` in the order they first appear, each with their sheet in round
    /// order. `eventHeight` fills an empty height.
    /// `pairs`: true for a synchronised event (every entry "A / B", two different names), false
    /// for an individual one (no entry a pair), nil when either is allowed (a team's name is free).
    public static func read(_ text: String, eventHeight: String?, pairs: Bool? = nil) throws -> [MeetEntrant] {
        let records: [CSV.Record]
        do { records = try CSV.parse(text) } catch let error as CSV.ParseError { throw Problem(line: error.line, reason: .csv(error.problem)) }
        guard let header = records.first else { throw Problem(line: 1, reason: .noRows) }
        let names = header.fields.map { $0.trimmingSpaces.lowercased() }
        var index: [String: Int] = [:]
        for column in columns {
            guard let at = names.firstIndex(of: column) else { throw Problem(line: header.line, reason: .missingColumn(column)) }
            index[column] = at
        }
        var entrants: [MeetEntrant] = []
        // Where each diver is in `entrants`, by lower-cased name (rows of one diver are found at once).
        var places: [String: Int] = [:]
        for record in records.dropFirst() {
            func field(_ name: String) -> String {
                let at = index[name]!
                return at < record.fields.count ? record.fields[at].trimmingSpaces : ""
            }
            let diver = field("diver"), club = field("club"), roundText = field("round"), code = field("code")
            let heightText = field("height").isEmpty ? (eventHeight ?? "") : field("height")
            for (name, value) in [("diver", diver), ("round", roundText), ("code", code), ("height", heightText)] where value.isEmpty {
                throw Problem(line: record.line, reason: .empty(field: name))
            }
            let names = diver.split(separator: "/", omittingEmptySubsequences: false).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            let isPair = names.count == 2 && names.allSatisfy { !$0.isEmpty } && names[0].lowercased() != names[1].lowercased()
            if pairs == true, !isPair { throw Problem(line: record.line, reason: .notAPair(diver)) }
            if pairs == false, names.count > 1 { throw Problem(line: record.line, reason: .aPair(diver)) }
            guard roundText.utf8.count <= 2, let round = Int(roundText), (1...99).contains(round) else { throw Problem(line: record.line, reason: .badRound(roundText)) }
            guard let height = DiveHeight(parsing: heightText) else { throw Problem(line: record.line, reason: .badHeight(heightText)) }
            let dd: Int
            let dive: DiveCode
            do {
                dive = try DiveCode(parsing: code)
                dd = try DegreeOfDifficulty.compute(dive, height: height).tenths
            } catch let error as DiveCodeError {
                throw Problem(line: record.line, reason: .notADive(code: code.uppercased(), height: height.rawValue, error))
            }
            let planned = PlannedDive(round: round, code: dive.text, height: height.rawValue, ddTenths: dd)
            if let at = places[diver.lowercased()] {
                guard !entrants[at].dives.contains(where: { $0.round == round }) else {
                    throw Problem(line: record.line, reason: .roundTwice(diver: entrants[at].diver, round: round))
                }
                entrants[at].dives.append(planned)
            } else {
                places[diver.lowercased()] = entrants.count
                entrants.append(MeetEntrant(diver: diver, club: club, dives: [planned]))
            }
        }
        guard !entrants.isEmpty else { throw Problem(line: header.line, reason: .noRows) }
        for at in entrants.indices { entrants[at].dives.sort { $0.round < $1.round } }
        return entrants
    }
}
