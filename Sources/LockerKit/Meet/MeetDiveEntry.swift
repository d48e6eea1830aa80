import FoundationEssentials

/// A dive typed as a recorder writes it on a sheet: `5253B 3`, or `5253B 3 3.2` with the DD the
/// diver claimed. The number and height give the dive's name and its DD from the formula; a
/// claimed DD that differs is flagged, never taken.
public struct MeetDiveEntry: Equatable, Sendable {
    public var code: DiveCode
    public var height: DiveHeight
    /// The DD from the formula, in tenths.
    public var ddTenths: Int
    /// The DD the sheet claimed, in tenths, when one was typed.
    public var claimedTenths: Int?

    /// True when a claimed DD differs from the formula's.
    public var claimMismatch: Bool { claimedTenths.map { $0 != ddTenths } ?? false }

    /// Why typed text is not a dive yet.
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case noHeight
        case badHeight(String)
        case badClaim(String)
        /// Words after the claimed DD.
        case extra(String)
        case notADive(code: String, height: DiveHeight, DiveCodeError)

        public func message(_ l: Localizer) -> String {
            switch self {
            case .empty: return l.t("Type the dive number and height, e.g. 5253B 3 (a claimed DD may follow).")
            case .noHeight: return l.t("Add the height after the dive number, e.g. 5253B 3.")
            case .badHeight(let text): return l.t("“{value}” is not a height: 1, 3, 5, 7.5 or 10.", ["value": TerminalText.inert(text)])
            case .badClaim(let text): return l.t("“{value}” is not a DD: a DD goes from 1.0 to 5.0, written as 3.2.", ["value": TerminalText.inert(text)])
            case .extra(let text):
                return l.t("“{value}” is left over: type the dive number, its height and, when the sheet claims one, its DD.", ["value": TerminalText.inert(text)])
            case .notADive(let code, let height, let error): return error.message(l, code: code, height: height)
            }
        }
    }

    /// Parses `text`; the height may be left out when the event has one.
    public static func parse(_ text: String, eventHeight: String?) -> Result<MeetDiveEntry, Problem> {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let codeText = words.first else { return .failure(.empty) }
        if words.count > 3 { return .failure(.extra(words[3...].joined(separator: " "))) }
        var heightText: String? = words.count > 1 ? words[1] : eventHeight
        var claimText: String? = words.count > 2 ? words[2] : nil
        // Two words and an event height: the second is the height if it is one, else a claimed DD
        // written with its decimal ("3.2"; a bare "2" is a height that does not exist, not DD 2.0).
        if words.count == 2, let eventHeight, DiveHeight(parsing: words[1]) == nil, words[1].contains(where: { $0 == "." || $0 == "," }),
           Self.tenths(words[1]) != nil {
            heightText = eventHeight
            claimText = words[1]
        }
        guard let heightText else { return .failure(.noHeight) }
        guard let height = DiveHeight(parsing: heightText) else { return .failure(.badHeight(heightText)) }
        var claimed: Int?
        if let claimText {
            guard let value = Self.tenths(claimText) else { return .failure(.badClaim(claimText)) }
            claimed = value
        }
        do {
            let code = try DiveCode(parsing: codeText)
            let dd = try DegreeOfDifficulty.compute(code, height: height).tenths
            return .success(MeetDiveEntry(code: code, height: height, ddTenths: dd, claimedTenths: claimed))
        } catch let error as DiveCodeError {
            return .failure(.notADive(code: codeText.uppercased(), height: height, error))
        } catch {
            return .failure(.notADive(code: codeText.uppercased(), height: height, .malformed))
        }
    }

    /// A claimed DD ("3.2", "3,2") in tenths, as the calculator reads a DD; nil outside 1.0–5.0.
    static func tenths(_ text: String) -> Int? {
        PanelScore.parseTenths(text).flatMap { (10...50).contains($0) ? $0 : nil }
    }
}
