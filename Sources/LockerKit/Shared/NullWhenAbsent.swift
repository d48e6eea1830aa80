/// An optional that JSON writes as `null` when it has no value, instead of leaving its key out:
/// the file formats and the `--json` outputs show every key (docs/DATA-FORMATS.md). Reading
/// takes a missing key or `null` as no value. A type whose optionals all behave so needs no
/// `encode(to:)` of its own.
@propertyWrapper
public struct NullWhenAbsent<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

extension NullWhenAbsent: Equatable where Value: Equatable {}
extension NullWhenAbsent: Sendable where Value: Sendable {}

extension NullWhenAbsent: Encodable where Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullWhenAbsent: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A key left out reads as no value, as `null` does.
    public func decode<Value: Decodable>(_ type: NullWhenAbsent<Value>.Type, forKey key: Key) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
