/// A registration made with `ViewModel.observe`; calling `cancel()` (or dropping the token)
/// stops the callbacks.
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Stops the observation. Safe to call more than once.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    deinit { cancel() }

    /// One token that cancels several observations (a screen observing more than one view-model).
    public static func combined(_ tokens: [ObservationToken]) -> ObservationToken {
        ObservationToken { tokens.forEach { $0.cancel() } }
    }
}

/// Base class of every view-model: it owns or wraps plain-struct models, exposes what a screen
/// shows and intents (methods) that change it, and calls its observers after every change.
///
/// Observers are called synchronously, in registration order, after the change is complete.
open class ViewModel {
    private let observers = Observers<Void>()

    public init() {}

    /// Registers `callback` to run after every change. Keep the token: the observation lasts as
    /// long as the token does.
    public func observe(_ callback: @escaping () -> Void) -> ObservationToken { observers.add(callback) }

    /// Number of live observers (for tests and diagnostics).
    public var observerCount: Int { observers.count }

    /// Tells every observer that something changed. Subclasses call it at the end of each intent.
    public func notifyChanged() { observers.notify(()) }
}

/// Callbacks registered for a kind of event, called in registration order; each lasts as long as
/// the token `add` returns.
public final class Observers<Event> {
    private var callbacks: [Int: (Event) -> Void] = [:]
    private var nextID = 0

    public init() {}

    public func add(_ callback: @escaping (Event) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        callbacks[id] = callback
        return ObservationToken { [weak self] in self?.callbacks[id] = nil }
    }

    public var count: Int { callbacks.count }

    public func notify(_ event: Event) {
        for id in callbacks.keys.sorted() { callbacks[id]?(event) }
    }
}
