/// A value made from a key and kept until the key changes: for what every key or frame asks
/// for and what seldom changes (a key table per language, a count's sentence).
struct Memo<Key: Equatable, Value> {
    private var kept: (key: Key, value: Value)?

    mutating func value(for key: Key, make: () -> Value) -> Value {
        if let kept, kept.key == key { return kept.value }
        let value = make()
        kept = (key, value)
        return value
    }
}
