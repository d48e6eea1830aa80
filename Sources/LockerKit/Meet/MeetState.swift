import FoundationEssentials

/// Why an entry cannot be recorded, or a meet cannot be read. The command line translates these.
public enum MeetError: Error, Equatable, Sendable {
    case noSuchDiver(String)
    case noSuchRound(diver: String, round: Int)
    case alreadyEntered(String)
    /// This attempt of this dive already has awards (a correction is a later attempt's or the console's).
    case alreadyAwarded(diver: String, round: Int, attempt: Int)
    /// Attempt N comes after attempt N − 1.
    case attemptOutOfOrder(diver: String, round: Int, attempt: Int)
    case wrongNumberOfAwards(given: Int, judges: Int)
    case badAward(String)
    case nothingToCorrect(diver: String, round: Int, attempt: Int)
    case drawAfterDiving
    /// The running order is drawn among the divers entered before the first dive.
    case enterAfterDiving
    case reasonMissing
    /// A withdrawn diver has no further dive.
    case withdrawn(String)
    /// A dive that has awards can no longer be changed.
    case changeAfterDiving(diver: String, round: Int)
    case nothingToUndo
    case nothingToRedo
    /// A pad's award for a dive the referee has not called (or no longer calls).
    case notCalled(diver: String, round: Int)
    /// A pad's seat beyond the panel.
    case noSuchSeat(Int)
    /// This seat already sent another award for this dive.
    case alreadyJudged(seat: Int, award: Int)
    /// The referee has accepted this dive: its awards can no longer be sent.
    case alreadyAccepted(diver: String, round: Int)
    /// Seats that have sent nothing for the called dive (the referee must accept each).
    case silentSeats([Int])
    /// Awards that differ from what a seat sent from its pad for this dive.
    case padDisagrees(seat: Int, sent: Int)
    /// The dive has its awards: calling it again is its void attempt's redo, said so.
    case calledWithAwards(diver: String, round: Int)
    /// A seat given twice, or both typed and missing.
    case seatTwice(Int)
    /// Awards the panel cannot score (more than one missing in a judge group, 7.9, 7.10).
    case unscoreable(PanelScoreError)
    /// A late change to a height the event is not dived at.
    case wrongHeight(code: String, height: String, event: String)
    case journal(MeetJournalError)
}

/// The meet as its journal makes it: the setup, the divers and their sheets, the running order
/// and every dive's awards (each attempt kept). Built only by replaying the journal, so every
/// process that reads the same journal sees the same meet.
public struct MeetState: Equatable, Sendable {
    public var setup: MeetSetup
    public private(set) var entrants: [MeetEntrant] = []
    /// Where each entrant is in `entrants`, by lower-cased name: a name is found without
    /// lower-casing every entrant's (a meet of 2,000 divers took a second a command).
    private var entrantPlaces: [String: Int] = [:]
    public var order: [String] = []
    public var seed: UInt64?
    /// Every award recorded, in journal order, each as last corrected.
    public var awards: [MeetAward] = []
    /// Every correction, in journal order: the awards it replaced and why.
    public var corrections: [MeetCorrection] = []
    /// Withdrawn divers and why, in journal order.
    public private(set) var withdrawals: [Withdrawal] = []
    /// Late changes, in journal order: the dive before, the dive after, why.
    public var changes: [MeetChange] = []
    /// The lines of the decisions still standing, latest last: `undo` takes back the last one.
    public var undoable: [Int] = []
    /// The lines an undo took back, latest last: `redo` puts back the last one, until a new decision.
    public var redoable: [Int] = []
    /// Lines in the journal.
    public var lineCount = 0
    /// The dive the referee called last for the judges' pads.
    public var calledOnPads: CalledDive?
    /// The pads' awards (half points) by dive and seat.
    public var judged: [CalledDive: [Int: Int]] = [:]

    /// One attempt of one diver's round, as the pads see it.
    public struct CalledDive: Hashable, Sendable, Codable {
        public var diver: String
        public var round: Int
        public var attempt: Int
        public init(diver: String, round: Int, attempt: Int) { self.diver = diver; self.round = round; self.attempt = attempt }
    }

    /// A diver who takes no further dive, and why.
    public struct Withdrawal: Equatable, Sendable {
        public var diver: String
        public var reason: String
    }

    /// Replays `lines`; a journal of a newer format is refused. Undo and redo entries decide which
    /// decisions stand; the standing ones are applied in journal order.
    public init(lines: [MeetJournalLine], path: String) throws {
        guard let first = lines.first, case .created(let setup) = first.entry else { throw MeetError.journal(.notAMeet(path: path)) }
        guard setup.format <= MeetSetup.currentFormat else { throw MeetError.journal(.newerFormat(path: path)) }
        self.setup = setup
        lineCount = lines.count
        var standing = Set<Int>()
        for line in lines {
            switch line.entry {
            case .undone(let seq):
                standing.remove(seq)
                undoable.removeAll { $0 == seq }
                redoable.append(seq)
            case .redone(let seq):
                standing.insert(seq)
                redoable.removeAll { $0 == seq }
                undoable.append(seq)
            case let entry where entry.isUndoable:
                standing.insert(line.seq)
                undoable.append(line.seq)
                redoable.removeAll()
            default: standing.insert(line.seq)
            }
        }
        for line in lines.dropFirst() where standing.contains(line.seq) { apply(line.entry) }
    }

    mutating func apply(_ entry: MeetEntry) {
        switch entry {
        case .created, .undone, .redone: break
        case .called(let diver, let round, let attempt):
            calledOnPads = CalledDive(diver: entrant(diver)?.diver ?? diver, round: round, attempt: attempt)
        case .judged(let seat, let diver, let round, let attempt, let award):
            judged[CalledDive(diver: entrant(diver)?.diver ?? diver, round: round, attempt: attempt), default: [:]][seat] = award
        case .withdrawn(let diver, let reason):
            withdrawals.append(Withdrawal(diver: entrant(diver)?.diver ?? diver, reason: reason))
        case .changed(let diver, let dive, let reason):
            guard let index = entrantPlace(diver),
                  let at = entrants[index].dives.firstIndex(where: { $0.round == dive.round }) else { break }
            changes.append(MeetChange(diver: entrants[index].diver, before: entrants[index].dives[at], after: dive, reason: reason))
            entrants[index].dives[at] = dive
        case .entered(let added):
            entrants += added
            indexEntrants()
            order += added.map(\.diver)
        case .drawn(let seed, let order): self.seed = seed; self.order = order
        case .awarded(var award):
            // A name as the recorder typed it ("bea") is the entrant's as entered ("Bea").
            award.diver = entrant(award.diver)?.diver ?? award.diver
            awards.append(award)
        case .corrected(var award, let reason):
            award.diver = entrant(award.diver)?.diver ?? award.diver
            if let at = awards.firstIndex(where: { $0.diver == award.diver && $0.round == award.round && $0.attempt == award.attempt }) {
                corrections.append(MeetCorrection(before: awards[at], after: award, reason: reason))
                awards[at] = award
            }
        }
    }

    public func entrant(_ name: String) -> MeetEntrant? {
        entrantPlace(name).map { entrants[$0] }
    }

    private func entrantPlace(_ name: String) -> Int? { entrantPlaces[name.lowercased()] }

    /// Indexes the entrants (the first of two names that differ only in case is the one found).
    private mutating func indexEntrants() {
        entrantPlaces = [:]
        for (place, entrant) in entrants.enumerated() where entrantPlaces[entrant.diver.lowercased()] == nil {
            entrantPlaces[entrant.diver.lowercased()] = place
        }
    }

    /// Why `diver` withdrew, when they did.
    public func withdrawal(of diver: String) -> String? {
        guard !withdrawals.isEmpty else { return nil }
        return withdrawals.first { $0.diver.lowercased() == diver.lowercased() }?.reason
    }

    /// The awards that count for `diver`'s `round` (the latest attempt), if any.
    public func latestAward(diver: String, round: Int) -> MeetAward? {
        awards.filter { $0.diver == diver && $0.round == round }.max { $0.attempt < $1.attempt }
    }

    /// One dive of the event as the running order calls it.
    public struct Call: Hashable, Sendable {
        public var diver: String
        public var round: Int
        public init(diver: String, round: Int) { self.diver = diver; self.round = round }
    }

    /// Every dive of the event in the order it is called: round by round, each in running
    /// order (art. 2.1.1). A withdrawn diver's dives not yet dived are left out.
    public var callOrder: [Call] {
        let rounds = Set(entrants.flatMap { $0.dives.map(\.round) }).sorted()
        var calls: [Call] = []
        for round in rounds {
            for name in order {
                guard let entrant = entrant(name), entrant.dives.contains(where: { $0.round == round }) else { continue }
                if withdrawal(of: name) != nil && latestAward(diver: entrant.diver, round: round) == nil { continue }
                calls.append(Call(diver: entrant.diver, round: round))
            }
        }
        return calls
    }

    /// The first dive in calling order that has no awards yet (nil: the event is over).
    public var nextCall: Call? {
        callOrder.first { latestAward(diver: $0.diver, round: $0.round) == nil }
    }

    /// True when the referee has accepted `dive` (its attempt has awards).
    public func isAccepted(_ dive: CalledDive) -> Bool {
        awards.contains { $0.diver == dive.diver && $0.round == dive.round && $0.attempt == dive.attempt }
    }

    /// The entries that call `dive` on the pads, after checking it: its diver and round exist,
    /// the diver has not withdrawn; the attempt is the next one without awards.
    public func call(diver: String, round: Int, redo: Bool = false) throws -> MeetEntry {
        guard let entrant = entrant(diver) else { throw MeetError.noSuchDiver(diver) }
        guard entrant.dives.contains(where: { $0.round == round }) else { throw MeetError.noSuchRound(diver: entrant.diver, round: round) }
        if withdrawal(of: entrant.diver) != nil { throw MeetError.withdrawn(entrant.diver) }
        let done = latestAward(diver: entrant.diver, round: round)
        if done != nil && !redo { throw MeetError.calledWithAwards(diver: entrant.diver, round: round) }
        let attempt = (done?.attempt ?? 0) + 1
        return .called(diver: entrant.diver, round: round, attempt: attempt)
    }

    /// The pad entries for `seat`'s `award` of `dive`: none when the journal holds that very award
    /// already (a resend after a dropped link is harmless), else one `judged` line. Refuses a dive
    /// that is not the one called, one the referee has accepted, a seat beyond the panel, an award
    /// outside 0–10, and a second, different award from the same seat.
    public func judge(seat: Int, dive: CalledDive, award: Int) throws -> [MeetEntry] {
        guard (1...setup.judges).contains(seat) else { throw MeetError.noSuchSeat(seat) }
        guard (0...20).contains(award) else { throw MeetError.badAward(String(Double(award) / 2)) }
        if let sent = judged[dive]?[seat] {
            guard sent == award else { throw MeetError.alreadyJudged(seat: seat, award: sent) }
            return []
        }
        if isAccepted(dive) { throw MeetError.alreadyAccepted(diver: dive.diver, round: dive.round) }
        guard calledOnPads == dive else { throw MeetError.notCalled(diver: dive.diver, round: dive.round) }
        return [.judged(seat: seat, diver: dive.diver, round: dive.round, attempt: dive.attempt, award: award)]
    }

    /// The called dive's awards as the referee accepts them: each seat's from its pad, unless
    /// `typed` gives one (the judge's flash card) or `missing` names it (7.9, 7.10). Throws the
    /// seats left silent.
    public func acceptedAwards(typed: [Int: Int], missing: Set<Int>) throws -> (dive: CalledDive, awards: [Int?]) {
        guard let dive = calledOnPads else { throw MeetError.notCalled(diver: "", round: 0) }
        if isAccepted(dive) { throw MeetError.alreadyAccepted(diver: dive.diver, round: dive.round) }
        for seat in Set(typed.keys).union(missing) where !(1...setup.judges).contains(seat) { throw MeetError.noSuchSeat(seat) }
        let sent = judged[dive] ?? [:]
        var awards: [Int?] = []
        var silent: [Int] = []
        for seat in 1...setup.judges {
            if let value = typed[seat] { awards.append(value) } else if missing.contains(seat) { awards.append(nil) } else if let value = sent[seat] {
                awards.append(value)
            } else {
                silent.append(seat)
                awards.append(nil)
            }
        }
        if !silent.isEmpty { throw MeetError.silentSeats(silent) }
        return (dive, awards)
    }

    /// Refuses a withdrawal of a diver the meet does not have, one already withdrawn, or one without a reason.
    public func checkWithdrawal(diver: String, reason: String) throws {
        guard let entrant = entrant(diver) else { throw MeetError.noSuchDiver(diver) }
        if withdrawal(of: entrant.diver) != nil { throw MeetError.withdrawn(entrant.diver) }
        guard !reason.split(whereSeparator: \.isWhitespace).isEmpty else { throw MeetError.reasonMissing }
    }

    /// Refuses a change of a dive that has awards, of a round the diver has not, or without a reason.
    public func checkChange(diver: String, dive: PlannedDive, reason: String) throws {
        guard let entrant = entrant(diver) else { throw MeetError.noSuchDiver(diver) }
        if withdrawal(of: entrant.diver) != nil { throw MeetError.withdrawn(entrant.diver) }
        guard entrant.dives.contains(where: { $0.round == dive.round }) else { throw MeetError.noSuchRound(diver: entrant.diver, round: dive.round) }
        if latestAward(diver: entrant.diver, round: dive.round) != nil { throw MeetError.changeAfterDiving(diver: entrant.diver, round: dive.round) }
        if let event = setup.height, dive.height != event { throw MeetError.wrongHeight(code: dive.code, height: dive.height, event: event) }
        guard !reason.split(whereSeparator: \.isWhitespace).isEmpty else { throw MeetError.reasonMissing }
    }

    /// The undo entry for the latest decision still standing.
    public func undo() throws -> MeetEntry {
        guard let seq = undoable.last else { throw MeetError.nothingToUndo }
        return .undone(seq: seq)
    }

    /// The redo entry for the decision the latest undo took back.
    public func redo() throws -> MeetEntry {
        guard let seq = redoable.last else { throw MeetError.nothingToRedo }
        return .redone(seq: seq)
    }

    /// Refuses an undo or redo that is not of the latest standing (or taken back) decision: two
    /// consoles pressing `u` at once take back two decisions, never the same one twice.
    public func checkUndoRedo(_ entry: MeetEntry) throws {
        switch entry {
        case .undone(let seq): guard seq == undoable.last else { throw MeetError.nothingToUndo }
        case .redone(let seq): guard seq == redoable.last else { throw MeetError.nothingToRedo }
        default: break
        }
    }

    /// Refuses `award` when it names a diver or round the meet does not have, has the wrong
    /// number of awards, repeats an attempt, or skips one. Called under the journal's lock.
    public func check(_ award: MeetAward) throws {
        guard let entrant = entrant(award.diver) else { throw MeetError.noSuchDiver(award.diver) }
        guard entrant.dives.contains(where: { $0.round == award.round }) else { throw MeetError.noSuchRound(diver: entrant.diver, round: award.round) }
        if withdrawal(of: entrant.diver) != nil { throw MeetError.withdrawn(entrant.diver) }
        guard award.awards.count == setup.judges else { throw MeetError.wrongNumberOfAwards(given: award.awards.count, judges: setup.judges) }
        try checkScoreable(award, entrant)
        try checkPads(award, entrant)
        let earlier = awards.filter { $0.diver == entrant.diver && $0.round == award.round }.map(\.attempt)
        if earlier.contains(award.attempt) { throw MeetError.alreadyAwarded(diver: entrant.diver, round: award.round, attempt: award.attempt) }
        guard award.attempt == 1 || earlier.contains(award.attempt - 1) else {
            throw MeetError.attemptOutOfOrder(diver: entrant.diver, round: award.round, attempt: award.attempt)
        }
    }

    /// Refuses awards for a dive judged on the pads that differ from what a seat sent: the pads'
    /// awards are the judges' (a correction after acceptance changes one, with a reason).
    func checkPads(_ award: MeetAward, _ entrant: MeetEntrant) throws {
        let dive = CalledDive(diver: entrant.diver, round: award.round, attempt: award.attempt)
        for (seat, sent) in (judged[dive] ?? [:]).sorted(by: { $0.key < $1.key }) where seat <= award.awards.count {
            if award.awards[seat - 1] != sent { throw MeetError.padDisagrees(seat: seat, sent: sent) }
        }
    }

    /// Refuses awards the panel cannot score, so that no line the results cannot replay is written.
    func checkScoreable(_ award: MeetAward, _ entrant: MeetEntrant) throws {
        guard let planned = entrant.dives.first(where: { $0.round == award.round }) else { return }
        do {
            _ = try MeetDiveScore.compute(given: award.awards, call: award.call, difficultyTenths: planned.ddTenths, synchro: setup.synchro)
        } catch let error as PanelScoreError {
            throw MeetError.unscoreable(error)
        }
    }

    /// Refuses a correction of an attempt that has no awards yet, or one without a reason.
    public func checkCorrection(_ award: MeetAward, reason: String) throws {
        guard let entrant = entrant(award.diver) else { throw MeetError.noSuchDiver(award.diver) }
        guard award.awards.count == setup.judges else { throw MeetError.wrongNumberOfAwards(given: award.awards.count, judges: setup.judges) }
        guard awards.contains(where: { $0.diver == entrant.diver && $0.round == award.round && $0.attempt == award.attempt }) else {
            throw MeetError.nothingToCorrect(diver: entrant.diver, round: award.round, attempt: award.attempt)
        }
        try checkScoreable(award, entrant)
        guard !reason.split(whereSeparator: \.isWhitespace).isEmpty else { throw MeetError.reasonMissing }
    }

    /// The results: every diver's dives as scored (the latest attempt of each round), totals in
    /// hundredths, and places shared by equal totals (1, 1, 3: the rules have no countback,
    /// art. 2.1.7). Equal totals are listed in running order.
    public func results() throws -> MeetResults {
        var rows: [MeetResults.Row] = []
        for (index, name) in order.enumerated() {
            guard let entrant = entrant(name) else { continue }
            var dives: [MeetResults.Dive] = []
            for planned in entrant.dives.sorted(by: { $0.round < $1.round }) {
                let attempts = awards.filter { $0.diver == entrant.diver && $0.round == planned.round }
                guard let last = attempts.max(by: { $0.attempt < $1.attempt }) else {
                    dives.append(MeetResults.Dive(planned: planned, attempts: 0, score: nil))
                    continue
                }
                let score = try MeetDiveScore.compute(given: last.awards, call: last.call, difficultyTenths: planned.ddTenths,
                                                      synchro: setup.synchro)
                dives.append(MeetResults.Dive(planned: planned, attempts: attempts.count, score: score))
            }
            rows.append(MeetResults.Row(place: 0, diver: entrant.diver, club: entrant.club, order: index, dives: dives,
                                        withdrawn: withdrawal(of: entrant.diver) != nil))
        }
        rows.sort { ($0.totalHundredths, -$0.order) > ($1.totalHundredths, -$1.order) }
        for index in rows.indices {
            rows[index].place = index > 0 && rows[index].totalHundredths == rows[index - 1].totalHundredths ? rows[index - 1].place : index + 1
        }
        return MeetResults(event: setup.event, pack: setup.pack, rows: rows, cut: setup.cut)
    }
}

/// A late change as the protocol lists it.
public struct MeetChange: Equatable, Sendable {
    public var diver: String
    public var before: PlannedDive
    public var after: PlannedDive
    public var reason: String
}

/// A correction as the protocol lists it: the awards (and call) it replaced, the new ones, why.
public struct MeetCorrection: Equatable, Sendable {
    public var before: MeetAward
    public var after: MeetAward
    public var reason: String
}

/// A meet's ranking and every dive behind it, kept exactly (hundredths).
public struct MeetResults: Equatable, Sendable {
    public struct Dive: Equatable, Sendable {
        public var planned: PlannedDive
        /// Attempts recorded for the round (0: not dived yet).
        public var attempts: Int
        public var score: MeetDiveScore?
    }

    public struct Row: Equatable, Sendable {
        public var place: Int
        public var diver: String
        public var club: String
        /// Place in the running order, from 0.
        public var order: Int
        public var dives: [Dive] { didSet { totalHundredths = Row.total(dives) } }
        public var withdrawn = false
        /// The sum of the dives' scores, kept with them (the ranking and every frame read it).
        public private(set) var totalHundredths: Int

        public init(place: Int, diver: String, club: String, order: Int, dives: [Dive], withdrawn: Bool = false) {
            self.place = place; self.diver = diver; self.club = club; self.order = order; self.dives = dives
            self.withdrawn = withdrawn
            totalHundredths = Row.total(dives)
        }

        static func total(_ dives: [Dive]) -> Int { dives.reduce(0) { $0 + ($1.score?.hundredths ?? 0) } }
    }

    public var event: String
    public var pack: String
    public var rows: [Row]
    /// The last place that goes through to the next phase, when there is one.
    public var cut: Int?

    /// What a diver needs to reach a place: the points (hundredths) between their total and the
    /// total now at that place (equal totals share a place, so reaching it is enough); nil when
    /// they hold it already, no one does yet, or they have withdrawn.
    public struct Needs: Equatable, Sendable {
        public var first: Int?
        public var third: Int?
        public var cut: Int?
    }

    /// What `row` needs for first, third and the cut.
    public func needs(_ row: Row) -> Needs {
        func gap(to place: Int?) -> Int? {
            // A withdrawn diver dives no more: there is nothing to need.
            guard !row.withdrawn, let place, place >= 1, place <= rows.count, row.place > place else { return nil }
            return rows[place - 1].totalHundredths - row.totalHundredths
        }
        return Needs(first: gap(to: 1), third: gap(to: 3), cut: gap(to: cut))
    }
}
