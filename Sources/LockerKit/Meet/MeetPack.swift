import FoundationEssentials

/// A rule pack (`Data/diving/meet-packs/ID.json`, whose README is the format's contract): what a
/// dive sheet must contain for one kind of event, as data. The checker has no event-specific code.
public struct MeetPack: Decodable, Sendable {
    public struct Texts: Decodable, Sendable {
        public var en, fr, es, it: String

        public func text(_ language: Language) -> String {
            switch language {
            case .en: return en
            case .fr: return fr
            case .es: return es
            case .it: return it
            }
        }
    }

    public struct AssignedDD: Decodable, Sendable {
        public var rounds: [Int]
        public var dd: String
        public var article: String
    }

    public struct Rule: Decodable, Sendable {
        public var kind: String
        public var article: String
        public var heights: [String]?
        public var rounds: [Int]?
        public var n: Int?
        public var atLeast: Int?
        public var minDD: String?
        public var maxDD: String?
        public var allowed: [String]?
        public var says: Texts

        /// Whether the rule applies at the meet's event height.
        func applies(at height: String?) -> Bool {
            guard let heights else { return true }
            return height.map(heights.contains) ?? false
        }

        /// The dives the rule looks at: those whose round is in `rounds`, or all.
        func selected(_ dives: [PlannedDive]) -> [PlannedDive] {
            guard let rounds, rounds.count == 2 else { return dives }
            return dives.filter { (rounds[0]...rounds[1]).contains($0.round) }
        }
    }

    public var format: String
    public var version: Int
    public var id: String
    public var name: Texts
    public var kind: String
    public var heights: [String]
    public var judges: [Int]
    public var dives: [String: Int]
    public var assignedDD: [AssignedDD]
    public var rules: [Rule]

    /// The six rule kinds of the format (README §5); a pack with any other is refused whole.
    public static let ruleKinds: Set<String> = ["count", "distinct-numbers", "groups", "dd-total", "dive-dd", "dive-height"]
    public static let currentVersion = 1

    public var isSynchro: Bool { kind == "synchro" }

    /// The number of dives a sheet has at `height`.
    public func diveCount(at height: String?) -> Int? { height.flatMap { dives[$0] } ?? dives["*"] }

    /// The DD a round is dived at: the assigned one (synchro rounds 1–2 at 2.0, art. 3.6.3) or
    /// the formula's.
    public func ddTenths(round: Int, formula: Int) -> Int {
        for assigned in assignedDD where assigned.rounds.count == 2 && (assigned.rounds[0]...assigned.rounds[1]).contains(round) {
            if let tenths = MeetPack.tenths(assigned.dd) { return tenths }
        }
        return formula
    }

    /// "9.5" as 95; nil for anything but digits, a point and one decimal.
    static func tenths(_ text: String?) -> Int? {
        guard let text else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 1, !parts[0].isEmpty, parts[0].count <= 3,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let whole = Int(parts[0]), let tenth = Int(parts[1]) else { return nil }
        return whole * 10 + tenth
    }

    /// Why a pack cannot be used.
    public enum LoadError: Error, Equatable, Sendable {
        case unknown(String)
        case unreadable(id: String, reason: String)
        case newerVersion(String)
    }

    /// The bundled packs' folder.
    public static func directory(_ resources: URL) -> URL { resources.appendingPathComponent("Data/diving/meet-packs") }

    /// The pack `id` from `directory`, checked (README §8): a rule kind it does not know, or a
    /// parameter missing, makes the whole pack unusable rather than a rule skipped in silence.
    public static func load(_ id: String, from directory: URL) throws -> MeetPack {
        guard !id.isEmpty, id.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }),
              let data = FileManager.default.contents(atPath: directory.appendingPathComponent(id + ".json").path) else {
            throw LoadError.unknown(id)
        }
        let pack: MeetPack
        do { pack = try JSONDecoder().decode(MeetPack.self, from: data) } catch {
            throw LoadError.unreadable(id: id, reason: String(describing: error))
        }
        guard pack.version <= currentVersion else { throw LoadError.newerVersion(id) }
        guard pack.format == "locker-meet-pack", pack.id == id else { throw LoadError.unreadable(id: id, reason: "format or id") }
        for rule in pack.rules {
            guard ruleKinds.contains(rule.kind) else { throw LoadError.unreadable(id: id, reason: "rule kind \(rule.kind)") }
            let complete: Bool
            switch rule.kind {
            case "count": complete = rule.n != nil
            case "groups": complete = rule.atLeast != nil
            case "dd-total": complete = tenths(rule.maxDD) != nil
            case "dive-dd": complete = rule.minDD.map { tenths($0) != nil } ?? true && rule.maxDD.map { tenths($0) != nil } ?? true
                && (rule.minDD != nil || rule.maxDD != nil)
            case "dive-height": complete = !(rule.allowed ?? []).isEmpty
            default: complete = true
            }
            guard complete else { throw LoadError.unreadable(id: id, reason: "rule \(rule.kind) \(rule.article) lacks its parameters") }
        }
        return pack
    }

    /// Every pack in `directory`, by id.
    public static func all(in directory: URL) throws -> [MeetPack] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return try names.filter { $0.hasSuffix(".json") && $0 != "fixtures.json" }.sorted()
            .map { try load(String($0.dropLast(5)), from: directory) }
    }
}

/// One way a dive sheet breaks its pack: the entry, the round at fault (nil when the rule is
/// about the sheet or a series as a whole), the rule's kind and article, and what was found.
public struct SheetError: Equatable, Sendable {
    public var diver: String
    public var round: Int?
    public var rule: String
    public var article: String
    /// The rule in words, in the interface language.
    public var says: String
    public var found: Found

    public enum Found: Equatable, Sendable {
        case diveCount(Int)
        case repeats(code: String, round: Int, earlier: String, earlierRound: Int)
        case groups([Int])
        case ddTotal(Int)
        case diveDD(Int)
        case height(String)
    }

    /// What was found, in the interface language.
    public func foundText(_ l: Localizer) -> String {
        switch found {
        case .diveCount(let count): return l.n("the sheet has {count} dive", "the sheet has {count} dives", count: count)
        case .repeats(let code, let round, let earlier, let earlierRound):
            return l.t("{code} in round {round} repeats {earlier} of round {earlierRound}",
                       ["code": code, "round": String(round), "earlier": earlier, "earlierRound": String(earlierRound)])
        case .groups(let groups):
            return l.n("{count} group: {groups}", "{count} groups: {groups}", count: groups.count,
                       ["groups": groups.map(String.init).joined(separator: ", ")])
        case .ddTotal(let tenths): return l.t("the DD total is {dd}", ["dd": DegreeOfDifficulty.format(tenths: tenths, l)])
        case .diveDD(let tenths): return l.t("its DD is {dd}", ["dd": DegreeOfDifficulty.format(tenths: tenths, l)])
        case .height(let height): return l.t("it is dived from {height} m", ["height": height])
        }
    }
}

extension MeetPack {
    /// Every way `entrant`'s sheet breaks this pack at the meet's event `height`, in rule order,
    /// then round order (README §4): the referee wants the whole list corrected at once. Each
    /// dive's `ddTenths` is the DD it is dived at (`ddTenths(round:formula:)`, given at import).
    public func check(_ entrant: MeetEntrant, height: String?, language: Language) -> [SheetError] {
        let sheet = entrant.dives.sorted { $0.round < $1.round }
        var errors: [SheetError] = []
        for rule in rules where rule.applies(at: height) {
            func error(_ round: Int?, _ found: SheetError.Found) {
                errors.append(SheetError(diver: entrant.diver, round: round, rule: rule.kind, article: rule.article,
                                         says: rule.says.text(language), found: found))
            }
            let dives = rule.selected(sheet)
            switch rule.kind {
            case "count":
                if sheet.map(\.round) != Array(1...max(1, rule.n ?? 0)) || sheet.count != rule.n { error(nil, .diveCount(sheet.count)) }
            case "distinct-numbers":
                var seen: [String: PlannedDive] = [:]
                for dive in dives {
                    let number = String(dive.code.dropLast())
                    if let earlier = seen[number] {
                        error(dive.round, .repeats(code: dive.code, round: dive.round, earlier: earlier.code, earlierRound: earlier.round))
                    } else {
                        seen[number] = dive
                    }
                }
            case "groups":
                let groups = Set(dives.compactMap { $0.code.first?.wholeNumberValue }).sorted()
                if groups.count < (rule.atLeast ?? 0) { error(nil, .groups(groups)) }
            case "dd-total":
                let total = dives.reduce(0) { $0 + $1.ddTenths }
                if let cap = MeetPack.tenths(rule.maxDD), total > cap { error(nil, .ddTotal(total)) }
            case "dive-dd":
                for dive in dives {
                    let dd = dive.ddTenths
                    if let low = MeetPack.tenths(rule.minDD), dd < low { error(dive.round, .diveDD(dd)) }
                    else if let high = MeetPack.tenths(rule.maxDD), dd > high { error(dive.round, .diveDD(dd)) }
                }
            case "dive-height":
                for dive in dives where !(rule.allowed ?? []).contains(dive.height) { error(dive.round, .height(dive.height)) }
            default:
                break
            }
        }
        return errors
    }
}
