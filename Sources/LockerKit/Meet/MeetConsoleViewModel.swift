import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The meet as the console shows it: the state its journal makes, the results, the rule pack,
/// and the dive called now. Every decision is appended to the journal off the UI thread, on
/// disk before the console says so; the journal is then read again, so what is shown is always
/// what the journal holds — also what another Locker process recorded meanwhile (the console
/// looks at the journal's size twice a second).
public final class MeetConsoleViewModel: ViewModel {
    /// The meet as last read from the journal.
    public struct Loaded: Sendable {
        public var state: MeetState
        public var results: MeetResults
        /// The event's rule pack (nil when this Locker does not have it; the console still runs).
        public var pack: MeetPack?
        /// Every dive in calling order, the dives that have awards, and the rounds: worked out
        /// once per read, off the UI thread, so a key only looks them up.
        public let calls: [MeetState.Call]
        public let recorded: Set<MeetState.Call>
        /// How many dives of the calling order have awards.
        public let recordedCount: Int
        /// The rounds' numbers, in order.
        public let roundNumbers: [Int]
        public var rounds: Int { roundNumbers.count }

        init(state: MeetState, results: MeetResults, pack: MeetPack?) {
            self.state = state
            self.results = results
            self.pack = pack
            calls = state.callOrder
            recorded = Set(state.awards.map { MeetState.Call(diver: $0.diver, round: $0.round) })
            roundNumbers = Set(state.entrants.flatMap { $0.dives.map(\.round) }).sorted()
            let recorded = self.recorded
            recordedCount = calls.filter { recorded.contains($0) }.count
        }

        /// The first dive in calling order without awards (nil: the event is over).
        public var nextCall: MeetState.Call? { calls.first { !recorded.contains($0) } }

        /// The first dive without awards after `call` in calling order, else the first one at all.
        public func nextCall(after call: MeetState.Call) -> MeetState.Call? {
            guard let at = calls.firstIndex(of: call) else { return nextCall }
            return calls[(at + 1)...].first { !recorded.contains($0) } ?? nextCall
        }
    }

    /// What became of a decision the console sent to the journal (the screen's next mode is a
    /// pure function of its mode and this).
    public enum Outcome: Equatable, Sendable {
        /// On disk: what was recorded, in the interface language.
        case recorded(String)
        /// Refused, nothing written: why.
        case refused(String)
    }

    public let localizer: Localizer
    public let journal: MeetJournal
    private let packsDirectory: URL
    private let work: BackgroundWork
    public private(set) var meet: Loaded? { didSet { refreshCalled() } }
    /// Why the meet cannot be shown (not a meet folder, newer format, altered journal).
    public private(set) var problem: String?
    /// A line the last read found cut off by a crash (the next decision sets it aside).
    public private(set) var tornLine: String?
    /// The dive the console has called: the awards typed next are for it.
    public private(set) var called: MeetState.Call? { didSet { refreshCalled() } }
    /// Reads of the journal: one at a time, a burst of changes costing one more read.
    private lazy var reads = SingleJob<(Loaded, String?)>(work) { [weak self] result in self?.take(result) }
    /// A change seen while a decision was being written: read once it is written.
    private var readAgain = false
    /// Called on the UI thread with each decision's outcome.
    public var onOutcome: ((Outcome) -> Void)?
    private var watcher: JournalWatcher?
    /// The referee's lock: held, this console leads the meet; another console leading, this one
    /// only follows and records nothing.
    private var lead: MeetLock?
    /// True while this console leads the meet. One that follows looks again, at most twice a
    /// second, whether the leading one has gone, and then takes the lead.
    public var isLeading: Bool {
        takeLeadIfFree()
        return lead != nil
    }
    /// False for the scoreboard, which never leads.
    private var wantsLead = true
    private var leadLookedAt = Date.distantPast
    /// True when this console started behind another one.
    private var followed = false

    private func takeLeadIfFree() {
        guard wantsLead, lead == nil, Date().timeIntervalSince(leadLookedAt) > 0.5 else { return }
        leadLookedAt = Date()
        guard let claimed = (try? MeetLock.claim(MeetLock.referee, in: journal.directory)) ?? nil else { return }
        lead = claimed
        if followed { onOutcome?(.recorded(localizer.t("The console that led this meet has closed: this one leads it now."))) }
    }

    public init(directory: URL, packsDirectory: URL, localizer: Localizer, work: BackgroundWork) {
        self.localizer = localizer
        journal = MeetJournal(directory: directory)
        self.packsDirectory = packsDirectory
        self.work = work
        super.init()
    }

    deinit { watcher?.stop() }

    /// Takes the lead (unless another console has it), reads the journal (off the UI thread)
    /// and starts following it.
    public func start(leading: Bool = true) {
        wantsLead = leading
        if leading, lead == nil {
            lead = (try? MeetLock.claim(MeetLock.referee, in: journal.directory)) ?? nil
            leadLookedAt = Date()
            followed = lead == nil
        }
        reload()
        guard watcher == nil else { return }
        let changed = work.channel { [weak self] (_: Int) in self?.reload() }
        watcher = JournalWatcher(path: journal.url.path, changed: changed)
    }

    /// Reads the journal again, unless a write is under way (it reads the journal after).
    public func reload() {
        takeLeadIfFree()
        guard queue.isEmpty else { readAgain = true; return }
        let journal = self.journal, packs = packsDirectory
        reads.request { _ in try MeetConsoleViewModel.read(journal, packs: packs) }
    }

    private func take(_ result: Result<(Loaded, String?), Error>) {
        switch result {
        case .success(let (loaded, torn)):
            // A read that began before a write finished brings an older journal: it is not shown.
            if let shown = meet, loaded.state.lineCount < shown.state.lineCount { return }
            meet = loaded
            tornLine = torn
            problem = nil
            // The call stays where it was while that dive exists; at start, the dive on the pads
            // (a console started again carries on with it); otherwise the next dive.
            if let called, loaded.calls.contains(called) || loaded.recorded.contains(called) {
            } else if let onPads = loaded.state.calledOnPads, !loaded.state.isAccepted(onPads) {
                called = MeetState.Call(diver: onPads.diver, round: onPads.round)
            } else {
                called = loaded.nextCall ?? loaded.calls.last
            }
        case .failure(let error):
            problem = MeetConsoleViewModel.describe(error, localizer)
        }
        notifyChanged()
    }

    static func read(_ journal: MeetJournal, packs: URL) throws -> (Loaded, String?) {
        let contents = try journal.read()
        return (try load(contents, journal: journal, packs: packs), contents.torn)
    }

    /// The meet the journal's `contents` make.
    static func load(_ contents: MeetJournal.Contents, journal: MeetJournal, packs: URL) throws -> Loaded {
        let state = try MeetState(lines: contents.lines, path: journal.directory.path)
        let results = try state.results()
        let pack = try? MeetPack.load(state.setup.pack, from: packs)
        return Loaded(state: state, results: results, pack: pack)
    }

    static func describe(_ error: Error, _ l: Localizer) -> String {
        if let error = error as? MeetError { return error.localized(l) }
        if let error = error as? MeetJournalError { return error.localized(l) }
        if let error = error as? StorageError { return error.localized(l) }
        if let error = error as? PanelScoreError { return error.message(l) }
        return String(describing: error)
    }

    // MARK: The called dive

    /// Calls `call` (any diver, any round: a recorder catching up from paper).
    public func call(_ call: MeetState.Call) {
        called = call
        notifyChanged()
    }

    /// Calls the dive `offset` places after (or before) the called one in calling order.
    public func callStep(_ offset: Int) {
        guard let order = meet?.calls, !order.isEmpty else { return }
        let at = called.flatMap { order.firstIndex(of: $0) } ?? 0
        called = order[min(order.count - 1, max(0, at + offset))]
        notifyChanged()
    }

    /// Calls the same diver's next (`step` 1) or previous (−1) round that is in the calling order.
    public func callRound(_ step: Int) {
        guard let meet, let current = called else { return }
        let rounds = meet.calls.filter { $0.diver == current.diver }.sorted { $0.round < $1.round }
        guard let at = rounds.firstIndex(of: current) else { return }
        called = rounds[min(rounds.count - 1, max(0, at + step))]
        notifyChanged()
    }

    /// Calls the last dive of the event.
    public func callLast() {
        guard let last = meet?.calls.last else { return }
        called = last
        notifyChanged()
    }

    /// Calls the first dive that has no awards yet.
    public func callNextUndived() {
        guard let next = meet?.nextCall else { return }
        called = next
        notifyChanged()
    }

    /// The called dive's entrant, planned dive and awards so far.
    /// Worked out when the call or the meet changes, not at each key or frame that reads it.
    public private(set) var calledDive: (entrant: MeetEntrant, planned: PlannedDive, latest: MeetAward?)?

    /// The called dive as the pads see it, when it is the one on the pads and not accepted yet:
    /// each seat's award so far.
    public private(set) var padAwards: [Int: Int]?

    private func refreshCalled() {
        guard let called, let state = meet?.state, let entrant = state.entrant(called.diver),
              let planned = entrant.dives.first(where: { $0.round == called.round }) else {
            calledDive = nil
            padAwards = nil
            return
        }
        calledDive = (entrant, planned, state.latestAward(diver: entrant.diver, round: called.round))
        if let onPads = state.calledOnPads, onPads.diver == called.diver, onPads.round == called.round, !state.isAccepted(onPads) {
            padAwards = state.judged[onPads] ?? [:]
        } else {
            padAwards = nil
        }
    }

    // MARK: Decisions

    /// Records the awards of the called dive's next attempt (`attempt` 1, or the redo of a void one).
    public func record(_ award: MeetAward) {
        send(.decision(.awarded(award), check: { try $0.check(award) }))
    }

    /// Records new awards (or call) for an attempt already recorded, with why.
    public func correct(_ award: MeetAward, reason: String) {
        send(.decision(.corrected(award, reason: reason), check: { try $0.checkCorrection(award, reason: reason) }))
    }

    /// Records that `diver` withdrew, with why.
    public func withdraw(_ diver: String, reason: String) {
        send(.decision(.withdrawn(diver: diver, reason: reason), check: { try $0.checkWithdrawal(diver: diver, reason: reason) }))
    }

    /// Records a late change of `diver`'s dive in `dive.round`, with why.
    public func change(_ diver: String, to dive: PlannedDive, reason: String) {
        send(.decision(.changed(diver: diver, dive: dive, reason: reason), check: { try $0.checkChange(diver: diver, dive: dive, reason: reason) }))
    }

    /// Calls the called dive on the judges' pads.
    public func callOnPads() {
        guard let called else { return }
        send(.callPads(called, quiet: false))
    }

    /// True when the pads are in use in this meet (a dive was ever called on them).
    public var padsInUse: Bool { meet?.state.calledOnPads != nil }

    /// Takes back the latest decision still standing (of any process), as a new journal line.
    public func undo() { send(.undo) }

    /// Puts back the decision the latest undo took back.
    public func redo() { send(.redo) }

    /// One decision on its way to the journal.
    enum Write: Sendable {
        case decision(MeetEntry, check: @Sendable (MeetState) throws -> Void)
        case undo, redo
        /// Calls a dive on the pads (its attempt is worked out under the lock); `quiet` when the
        /// console does it by itself after a dive, so the status keeps that dive's score.
        case callPads(MeetState.Call, quiet: Bool)

        /// The entries to append, made and checked from the journal's lines under its lock.
        func entries(_ lines: [MeetJournalLine], path: String) throws -> [MeetEntry] {
            let state = try MeetState(lines: lines, path: path)
            switch self {
            case .decision(let entry, let check):
                try check(state)
                return [entry]
            case .undo: return [try state.undo()]
            case .redo: return [try state.redo()]
            case .callPads(let call, _): return [try state.call(diver: call.diver, round: call.round)]
            }
        }
    }

    /// What a write brought back from the worker: the meet as read after it, and the entry
    /// written with, for an undo or redo, the decision it names.
    struct Written: Sendable {
        var loaded: Loaded
        var entry: MeetEntry
        var target: MeetEntry?
    }

    private var queue: [Write] = []
    /// Whether decisions wait to be written: an undo or redo typed meanwhile is judged against
    /// the journal once they are (u then Ctrl-R, typed fast, redoes what u undid).
    public var hasQueuedWrites: Bool { !queue.isEmpty }
    /// True while a decision waits for the journal.
    public var isWriting: Bool { !queue.isEmpty }

    private func send(_ write: Write) {
        guard isLeading else {
            onOutcome?(.refused(localizer.t("Another console leads this meet: this one follows it and records nothing.")))
            return
        }
        queue.append(write)
        notifyChanged()
        writeNext()
    }

    /// Whether the first write of the queue is on its way to the journal.
    private var writeInFlight = false

    /// Starts the first write of the queue unless one is on its way (an outcome that sends
    /// another decision, such as a key that waited for it, must not start it twice).
    private func writeNext() {
        guard !writeInFlight, let next = queue.first else { return }
        writeInFlight = true
        let journal = self.journal, packs = packsDirectory
        let path = journal.directory.path
        work.start({ _ -> Written in
            let result = try journal.append(at: Instant.string(Date().timeIntervalSince1970)) { lines in
                try next.entries(lines, path: path)
            }
            let contents = try journal.read()
            let entry = result.lines[0].entry
            var target: MeetEntry?
            if case .undone(let seq) = entry { target = contents.lines.first { $0.seq == seq }?.entry }
            if case .redone(let seq) = entry { target = contents.lines.first { $0.seq == seq }?.entry }
            return Written(loaded: try MeetConsoleViewModel.load(contents, journal: journal, packs: packs), entry: entry, target: target)
        }) { [weak self] result in self?.finishWrite(result) }
    }

    private func finishWrite(_ result: Result<Written, Error>) {
        writeInFlight = false
        var quiet = false
        if case .callPads(_, true)? = queue.first { quiet = true }
        if !queue.isEmpty { queue.removeFirst() }
        switch result {
        case .success(let written):
            let before = called
            meet = written.loaded
            tornLine = nil
            problem = nil
            let loaded = written.loaded
            // After a dive's awards, the next dive without awards after it is called.
            if case .awarded = written.entry, let before, loaded.recorded.contains(before) {
                called = loaded.nextCall(after: before) ?? before
                // With pads in use, the next dive goes to them at once.
                if loaded.state.calledOnPads != nil, let next = called, !loaded.recorded.contains(next) { queue.append(.callPads(next, quiet: true)) }
            } else if called.map({ !loaded.calls.contains($0) && !loaded.recorded.contains($0) }) ?? true {
                called = loaded.nextCall ?? loaded.calls.last
            }
            if !quiet { onOutcome?(.recorded(describeWritten(written))) }
        case .failure(let error):
            onOutcome?(.refused(MeetConsoleViewModel.describe(error, localizer)))
        }
        notifyChanged()
        if !queue.isEmpty { writeNext() } else if readAgain { readAgain = false; reload() }
    }

    private func describeWritten(_ written: Written) -> String {
        let l = localizer
        switch written.entry {
        case .awarded(let award):
            guard let row = written.loaded.results.rows.first(where: { $0.diver.lowercased() == award.diver.lowercased() }),
                  let dive = row.dives.first(where: { $0.planned.round == award.round }), let score = dive.score else {
                return l.t("Recorded: {diver}, round {round}.", ["diver": award.diver, "round": String(award.round)])
            }
            return l.t("Recorded: {diver}, round {round}: {score}; total {total}, place {place}.",
                       ["diver": row.diver, "round": String(award.round), "score": MeasureText.withDecimalSeparator(PanelScore.formatHundredths(score.hundredths), l),
                        "total": MeasureText.withDecimalSeparator(PanelScore.formatHundredths(row.totalHundredths), l), "place": String(row.place)])
        case .corrected(let award, _):
            return l.t("Corrected: {diver}, round {round}.", ["diver": award.diver, "round": String(award.round)])
        case .withdrawn(let diver, _): return l.t("{diver} withdrawn.", ["diver": diver])
        case .changed(let diver, let dive, _):
            return l.t("{diver}'s round {round} is now {code}.", ["diver": diver, "round": String(dive.round), "code": dive.code])
        case .undone:
            return l.t("Undone: {decision}. Ctrl-R redoes it.", ["decision": written.target.map { Self.describeDecision($0, l) } ?? ""])
        case .redone:
            return l.t("Redone: {decision}.", ["decision": written.target.map { Self.describeDecision($0, l) } ?? ""])
        case .called(let diver, let round, _):
            return l.t("On the judges' pads: {diver}, round {round}.", ["diver": diver, "round": String(round)])
        default: return ""
        }
    }

    /// A decision in a few words ("the awards of Bea, round 2").
    public static func describeDecision(_ entry: MeetEntry, _ l: Localizer) -> String {
        switch entry {
        case .awarded(let award): return l.t("the awards of {diver}, round {round}", ["diver": award.diver, "round": String(award.round)])
        case .corrected(let award, _): return l.t("the correction of {diver}, round {round}", ["diver": award.diver, "round": String(award.round)])
        case .withdrawn(let diver, _): return l.t("the withdrawal of {diver}", ["diver": diver])
        case .changed(let diver, let dive, _): return l.t("the change of {diver}'s round {round}", ["diver": diver, "round": String(dive.round)])
        default: return ""
        }
    }
}
