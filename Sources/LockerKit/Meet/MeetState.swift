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
    case reasonMissing
    case journal(MeetJournalError)
}

/// The meet as its journal makes it: the setup, the divers and their sheets, the running order
/// and every dive's awards (each attempt kept). Built only by replaying the journal, so every
/// process that reads the same journal sees the same meet.
public struct MeetState: Equatable, Sendable {
    public var setup: MeetSetup
    public var entrants: [MeetEntrant] = []
    public var order: [String] = []
    public var seed: UInt64?
    /// Every award recorded, in journal order, each as last corrected.
    public var awards: [MeetAward] = []
    /// Every correction, in journal order: the awards it replaced and why.
    public var corrections: [MeetCorrection] = []
    /// Lines in the journal.
    public var lineCount = 0

    /// Replays `lines`; a journal of a newer format is refused.
    public init(lines: [MeetJournalLine], path: String) throws {
        guard let first = lines.first, case .created(let setup) = first.entry else { throw MeetError.journal(.notAMeet(path: path)) }
        guard setup.format <= MeetSetup.currentFormat else { throw MeetError.journal(.newerFormat(path: path)) }
        self.setup = setup
        lineCount = lines.count
        for line in lines.dropFirst() { apply(line.entry) }
    }

    mutating func apply(_ entry: MeetEntry) {
        switch entry {
        case .created: break
        case .entered(let added):
            entrants += added
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
        entrants.first { $0.diver.lowercased() == name.lowercased() }
    }

    /// Refuses `award` when it names a diver or round the meet does not have, has the wrong
    /// number of awards, repeats an attempt, or skips one. Called under the journal's lock.
    public func check(_ award: MeetAward) throws {
        guard let entrant = entrant(award.diver) else { throw MeetError.noSuchDiver(award.diver) }
        guard entrant.dives.contains(where: { $0.round == award.round }) else { throw MeetError.noSuchRound(diver: entrant.diver, round: award.round) }
        guard award.awards.count == setup.judges else { throw MeetError.wrongNumberOfAwards(given: award.awards.count, judges: setup.judges) }
        let earlier = awards.filter { $0.diver == entrant.diver && $0.round == award.round }.map(\.attempt)
        if earlier.contains(award.attempt) { throw MeetError.alreadyAwarded(diver: entrant.diver, round: award.round, attempt: award.attempt) }
        guard award.attempt == 1 || earlier.contains(award.attempt - 1) else {
            throw MeetError.attemptOutOfOrder(diver: entrant.diver, round: award.round, attempt: award.attempt)
        }
    }

    /// Refuses a correction of an attempt that has no awards yet, or one without a reason.
    public func checkCorrection(_ award: MeetAward, reason: String) throws {
        guard let entrant = entrant(award.diver) else { throw MeetError.noSuchDiver(award.diver) }
        guard award.awards.count == setup.judges else { throw MeetError.wrongNumberOfAwards(given: award.awards.count, judges: setup.judges) }
        guard awards.contains(where: { $0.diver == entrant.diver && $0.round == award.round && $0.attempt == award.attempt }) else {
            throw MeetError.nothingToCorrect(diver: entrant.diver, round: award.round, attempt: award.attempt)
        }
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
            rows.append(MeetResults.Row(place: 0, diver: entrant.diver, club: entrant.club, order: index, dives: dives))
        }
        rows.sort { ($0.totalHundredths, -$0.order) > ($1.totalHundredths, -$1.order) }
        for index in rows.indices {
            rows[index].place = index > 0 && rows[index].totalHundredths == rows[index - 1].totalHundredths ? rows[index - 1].place : index + 1
        }
        return MeetResults(event: setup.event, pack: setup.pack, rows: rows)
    }
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
        public var dives: [Dive]
        public var totalHundredths: Int { dives.reduce(0) { $0 + ($1.score?.hundredths ?? 0) } }
    }

    public var event: String
    public var pack: String
    public var rows: [Row]
}
