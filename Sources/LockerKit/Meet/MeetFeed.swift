/// `locker meet feed`: the meet's accepted dives as JSON lines, for scoreboards, video graphics
/// or a web page. One line per journal line that changes a score — an accepted dive, a
/// correction, an undo or a redo of one — in journal order, each with the diver's total and
/// place as they stood right after it.
public enum MeetFeed {
    public struct Line: Encodable, Sendable {
        /// The journal line it comes from.
        public var seq: Int
        /// `accepted`, `corrected`, `undone` or `redone`.
        public var kind: String
        public var diver: String
        public var club: String
        public var round: Int
        public var attempt: Int
        /// The dive as `locker meet results --json` writes it (null once an undo took it back).
        public var dive: MeetResultsJSON.Dive?
        public var total: Double
        public var place: Int

        enum Keys: String, CodingKey { case seq, kind, diver, club, round, attempt, dive, total, place }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(seq, forKey: .seq); try c.encode(kind, forKey: .kind); try c.encode(diver, forKey: .diver)
            try c.encode(club, forKey: .club); try c.encode(round, forKey: .round); try c.encode(attempt, forKey: .attempt)
            try c.encode(dive, forKey: .dive); try c.encode(total, forKey: .total); try c.encode(place, forKey: .place)
        }
    }

    /// The feed lines of `lines` after line `after`.
    public static func lines(_ lines: [MeetJournalLine], after: Int = 0) -> [Line] {
        var feed: [Line] = []
        for line in lines where line.seq > after {
            let award: MeetAward
            let kind: String
            switch line.entry {
            case .awarded(let given): award = given; kind = "accepted"
            case .corrected(let given, _): award = given; kind = "corrected"
            case .undone(let seq), .redone(let seq):
                guard let target = lines.first(where: { $0.seq == seq }) else { continue }
                switch target.entry {
                case .awarded(let given), .corrected(let given, _): award = given
                default: continue
                }
                if case .undone = line.entry { kind = "undone" } else { kind = "redone" }
            default: continue
            }
            guard let state = try? MeetState(lines: Array(lines.prefix(line.seq)), path: ""), let results = try? state.results(),
                  let row = results.rows.first(where: { $0.diver.lowercased() == award.diver.lowercased() }) else { continue }
            let scored = row.dives.first { $0.planned.round == award.round && $0.score != nil }
            feed.append(Line(seq: line.seq, kind: kind, diver: row.diver, club: row.club, round: award.round, attempt: award.attempt,
                             dive: scored.map(MeetResultsJSON.Dive.init), total: Double(row.totalHundredths) / 100, place: row.place))
        }
        return feed
    }
}
