/// `locker meet results --json` (a contract other tools read): the event and the ranking, each
/// diver with every dive; numbers are exact decimals written from hundredths and half points
/// (59.64, never 59.639999).
public struct MeetResultsJSON: Encodable, Sendable {
    public struct Dive: Encodable, Sendable {
        public var round: Int
        public var code: String
        public var height: String
        public var dd: Double
        /// The awards as the judges gave them (null for a missing one).
        public var awards: [Double?]
        /// The judges whose awards were cancelled, numbered from 1 in judge order.
        public var cancelled: [Int]
        /// The referee's call that changed the awards: "restart", "max 2", "max 4.5", "unsafe".
        public var penalty: [String]
        /// The article of a failed dive (null when there is none, never left out).
        @NullWhenAbsent public var failed: String?
        /// Null when there is none, never left out.
        @NullWhenAbsent public var score: Double?
        /// Attempts recorded for the round (the last one counts).
        public var attempts: Int

        public init(_ dive: MeetResults.Dive) {
            round = dive.planned.round
            code = dive.planned.code
            height = dive.planned.height
            dd = Double(dive.planned.ddTenths) / 10
            attempts = dive.attempts
            awards = dive.score?.given.map { $0.map { Double($0) / 2 } } ?? []
            cancelled = dive.score?.panel.awards.filter(\.cancelled).map(\.judge) ?? []
            let call = dive.score?.call ?? .none
            penalty = (call.restart ? ["restart"] : []) + (call.capHalfPoints == 4 ? ["max 2"] : call.capHalfPoints == 9 ? ["max 4.5"] : [])
                + (call.unsafe ? ["unsafe"] : [])
            failed = call.failedArticle
            score = dive.score.map { Double($0.hundredths) / 100 }
        }
    }

    public struct Row: Encodable, Sendable {
        public var place: Int
        public var diver: String
        public var club: String
        public var total: Double
        /// True for a diver who withdrew (the dives done still count).
        public var withdrawn: Bool
        public var dives: [Dive]
    }

    public var event: String
    public var pack: String
    public var ranking: [Row]

    public init(_ results: MeetResults) {
        event = results.event
        pack = results.pack
        ranking = results.rows.map { Row(place: $0.place, diver: $0.diver, club: $0.club, total: Double($0.totalHundredths) / 100,
                                           withdrawn: $0.withdrawn, dives: $0.dives.map(Dive.init)) }
    }
}
