import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A judge's pad (`locker meet judge DIR --seat N`): the dive the referee called, the judge's
/// award sent to the meet's journal, and — only once the referee has accepted the dive — every
/// judge's award for it. It never holds the standings (art. 5.2.9).
///
/// An award is kept in `DIR/seat-N.pending` from Enter until the journal holds it, so a pad
/// killed in between (a dropped SSH link) sends it again when it starts; sending an award the
/// journal already has adds nothing.
public final class MeetPadViewModel: ViewModel {
    /// What the pad shows of the meet: the called dive and this seat's part in it.
    public struct Called: Equatable, Sendable {
        public var dive: MeetState.CalledDive
        public var planned: PlannedDive
        public var club: String
        /// This seat's award as the journal holds it (half points).
        public var sent: Int?
        /// Every judge's award, once the referee has accepted the dive; nil before.
        public var accepted: [Int?]?
        /// The score, once accepted.
        public var scoreHundredths: Int?
    }

    /// What became of an award sent (the screen's next mode follows from it).
    public enum Outcome: Equatable, Sendable {
        case sent(Int)
        case refused(String)
    }

    public let localizer: Localizer
    public let seat: Int
    public let journal: MeetJournal
    private let work: BackgroundWork
    public private(set) var event: String?
    public private(set) var judges = 0
    public private(set) var called: Called?
    /// The dive the referee accepted last, with every judge's award and its score (13.3.2.5):
    /// shown while the next dive is judged.
    public private(set) var lastAccepted: (diver: String, round: Int, awards: [Int?], scoreHundredths: Int?)?
    /// Why the pad cannot show the meet (not a meet folder, altered journal …).
    public private(set) var problem: String?
    /// An award on its way to the journal.
    public private(set) var sending: Int?
    public var onOutcome: ((Outcome) -> Void)?
    private var watcher: JournalWatcher?
    /// Reads of the journal: one at a time, a burst of changes costing one more read.
    private lazy var reads = SingleJob<Read>(work) { [weak self] result in self?.take(result) }
    /// A change seen while an award was being sent: read once it is sent.
    private var readAgain = false
    /// The journal's lines as last shown: an older read arriving late is not shown.
    private var shownLines = 0

    public init(directory: URL, seat: Int, localizer: Localizer, work: BackgroundWork) {
        self.localizer = localizer
        self.seat = seat
        journal = MeetJournal(directory: directory)
        self.work = work
        super.init()
    }

    deinit { watcher?.stop() }

    var pendingURL: URL { journal.directory.appendingPathComponent("seat-\(seat).pending") }

    /// Reads the journal, follows it, and sends again an award a killed pad left pending.
    public func start() {
        if watcher == nil {
            let changed = work.channel { [weak self] (_: Int) in self?.reload() }
            watcher = JournalWatcher(path: journal.url.path, changed: changed)
        }
        // The pending file is read off the UI thread, like the journal.
        let pending = pendingURL
        work.start({ _ in (try? Data(contentsOf: pending)).flatMap { try? JSONDecoder().decode(Pending.self, from: $0) } }) { [weak self] result in
            if case .success(let resend?) = result { self?.send(resend.award, for: resend.dive) } else { self?.reload() }
        }
    }

    /// An award between Enter and the journal, as kept in `seat-N.pending`.
    struct Pending: Codable, Sendable {
        var dive: MeetState.CalledDive
        var award: Int
    }

    /// Reads the journal again, unless an award is being sent (the send reads it after).
    public func reload() {
        guard sending == nil else { readAgain = true; return }
        let journal = self.journal, seat = self.seat
        reads.request { _ in try MeetPadViewModel.read(journal, seat: seat) }
    }

    private func take(_ result: Result<Read, Error>) {
        switch result {
        case .success(let read):
            guard read.lines >= shownLines else { return }
            shownLines = read.lines
            event = read.event
            judges = read.judges
            called = read.called
            lastAccepted = read.lastAccepted
            problem = nil
        case .failure(let error):
            problem = MeetConsoleViewModel.describe(error, localizer)
        }
        notifyChanged()
    }

    /// What a pad may see of the meet.
    struct Read: Sendable {
        /// The journal's lines when it was read.
        var lines: Int
        var event: String
        var judges: Int
        var called: Called?
        var lastAccepted: (diver: String, round: Int, awards: [Int?], scoreHundredths: Int?)?
    }

    /// The event, the panel's size, the called dive as this seat may see it, and the last dive accepted.
    static func read(_ journal: MeetJournal, seat: Int) throws -> Read {
        let contents = try journal.read()
        let state = try MeetState(lines: contents.lines, path: journal.directory.path)
        var read = Read(lines: contents.lines.count, event: state.setup.event, judges: state.setup.judges)
        if let last = state.awards.last, let planned = state.entrant(last.diver)?.dives.first(where: { $0.round == last.round }) {
            let score = try? MeetDiveScore.compute(given: last.awards, call: last.call, difficultyTenths: planned.ddTenths, synchro: state.setup.synchro)
            read.lastAccepted = (last.diver, last.round, last.awards, score?.hundredths)
        }
        guard let dive = state.calledOnPads, let entrant = state.entrant(dive.diver),
              let planned = entrant.dives.first(where: { $0.round == dive.round }) else { return read }
        var called = Called(dive: dive, planned: planned, club: entrant.club, sent: state.judged[dive]?[seat])
        if let award = state.awards.first(where: { $0.diver == dive.diver && $0.round == dive.round && $0.attempt == dive.attempt }) {
            called.accepted = award.awards
            called.scoreHundredths = try? MeetDiveScore.compute(given: award.awards, call: award.call, difficultyTenths: planned.ddTenths,
                                                                synchro: state.setup.synchro).hundredths
        }
        read.called = called
        return read
    }

    /// Sends `award` (half points) for the called dive: kept as pending, appended under the
    /// journal's lock (checked against the meet at that moment), then the journal is read again.
    public func send(_ award: Int) {
        guard let dive = called?.dive else { return }
        send(award, for: dive)
    }

    private func send(_ award: Int, for dive: MeetState.CalledDive) {
        guard sending == nil else { return }
        sending = award
        notifyChanged()
        let journal = self.journal, seat = self.seat, pending = pendingURL
        work.start({ _ -> Read in
            try AtomicFile.write(try JSONEncoder().encode(Pending(dive: dive, award: award)), to: pending)
            do {
                try journal.append(at: Instant.string(Date().timeIntervalSince1970)) { lines in
                    try MeetState(lines: lines, path: journal.directory.path).judge(seat: seat, dive: dive, award: award)
                }
            } catch let error as MeetError {
                // Refused for good (the dive is no longer called …): nothing is left to send again.
                unlink(pending.path)
                throw error
            }
            unlink(pending.path)
            return try MeetPadViewModel.read(journal, seat: seat)
        }) { [weak self] result in
            guard let self else { return }
            self.sending = nil
            switch result {
            case .success:
                self.take(result)
                self.onOutcome?(.sent(award))
            case .failure(let error):
                self.onOutcome?(.refused(MeetConsoleViewModel.describe(error, self.localizer)))
                // What the pad shows comes from the journal, also after a refused resend at start.
                self.readAgain = true
                self.notifyChanged()
            }
            if self.readAgain {
                self.readAgain = false
                self.reload()
            }
        }
    }
}
