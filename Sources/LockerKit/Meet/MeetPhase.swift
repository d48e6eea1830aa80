/// The next phase of an event (semi-final, final): who goes through and in what order.
public enum MeetPhase {
    /// The divers placed up to `top` (every diver tied at the last place too), in reverse order
    /// of `results`' ranking: the best dives last. Divers with equal totals are put in an order
    /// drawn with `seed` (art. 2.1.1: the order of a later phase is the reverse of the ranking,
    /// ties drawn). Withdrawn divers and those with no score do not go through.
    public static func reverseRankingOrder(_ results: MeetResults, top: Int, seed: UInt64) -> [String] {
        let scored = results.rows.filter { !$0.withdrawn && $0.dives.contains { $0.score != nil } }
        guard let lastPlace = scored.prefix(top).last?.place else { return [] }
        let through = scored.filter { $0.place <= lastPlace }
        var generator = SeededRandomNumberGenerator(seed: seed)
        // Places from the last to the first; within one place, the tied divers in drawn order.
        let places = Dictionary(grouping: through, by: \.place).sorted { $0.key > $1.key }
        return places.flatMap { $0.value.map(\.diver).sorted().shuffled(using: &generator) }
    }
}
