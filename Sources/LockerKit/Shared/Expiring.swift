import FoundationEssentials

/// A status-line message that goes away by itself, as docs/KEYS.md promises: a confirmation
/// after 4 seconds, a problem after 12 (`Notice.lifetime`).
///
/// Assigning a text posts it as a problem; `$message.confirm(text)` posts a confirmation.
/// Reading gives nil once the time is up; `expiresAt` tells the run loop when to redraw.
@propertyWrapper
public struct Expiring: Equatable, Sendable {
    private var notice: Notice?

    public init(wrappedValue: String?) {
        notice = wrappedValue.map { Notice(.error, $0) }
    }

    public var wrappedValue: String? {
        get {
            guard let notice, Date().timeIntervalSince(notice.postedAt) < notice.lifetime else { return nil }
            return notice.message
        }
        set { notice = newValue.map { Notice(.error, $0) } }
    }

    public var projectedValue: Expiring {
        get { self }
        set { self = newValue }
    }

    /// Posts `text` as a confirmation (the shorter lifetime).
    public mutating func confirm(_ text: String) {
        notice = Notice(.success, text)
    }

    /// When the message goes, nil when there is none.
    public var expiresAt: Date? {
        notice.map { $0.postedAt.addingTimeInterval($0.lifetime) }
    }
}
