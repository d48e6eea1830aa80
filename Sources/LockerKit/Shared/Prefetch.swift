import Dispatch

/// A value computed on another core from the moment it is made; `value` waits for it the first
/// time (if it is not ready yet) and returns it at once afterwards.
///
/// For the bundled files every start reads (`DivingFiles`): they are decoded while the command
/// line is parsed and the terminal opened, instead of after, on the UI thread.
public final class Prefetch<Value: Sendable>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    /// Written once by the worker before `ready` is signalled; read after waiting for it.
    private var result: Value?
    /// Reader's side only: whether `ready` was already waited for.
    private var taken = false

    /// Starts `make` on `queue` (its priority matters: see `DivingFiles`).
    public init(on queue: DispatchQueue, _ make: @escaping @Sendable () -> Value) {
        queue.async { [self] in
            result = make()
            ready.signal()
        }
    }

    /// Whether the value is there (never waits). Read it from the same thread as `value`.
    public var isReady: Bool {
        if taken { return true }
        guard ready.wait(timeout: .now()) == .success else { return false }
        ready.signal()
        return true
    }

    /// The value, waiting for the other core if it is still computing it. Read it from one
    /// thread (the UI thread).
    public var value: Value {
        if !taken {
            ready.wait()
            taken = true
        }
        return result!
    }
}
