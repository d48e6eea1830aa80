import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Slow work (reading a large file, a process, a request) run off the UI thread, its result
/// brought back to the UI thread: the shape of Bubble Tea's command → message.
///
/// A view-model calls `start` with the work (which runs on a background thread and must not
/// touch view-model state) and a completion (which runs later on the UI thread, inside
/// `deliver()`, and may change state and notify). When work finishes or reports progress, the
/// `wake` closure given at creation is called from the worker thread; the app's run loop
/// answers it by calling `deliver()`. Cancelling a job drops its completion: a cancelled result
/// never reaches the view-model, and the work itself sees `isCancelled` and may stop early.
///
/// One instance serves the whole app (the terminal's wake pipe); tests use their own and call
/// `waitUntilIdle()`.
/// A value handed to a background job that only that job uses meanwhile (a repository whose
/// writes its owner runs one at a time).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

public final class BackgroundWork {
    /// Called from a worker thread when there is something to deliver.
    public typealias Wake = @Sendable () -> Void

    private let wake: Wake
    private let queue = DispatchQueue(label: "locker.background-work", qos: .userInitiated, attributes: .concurrent)
    private let inbox = Inbox()
    /// UI thread only: what to run when each job's result arrives.
    private var pending: [Int: (delivery: (Any) -> Void, progress: ((Double) -> Void)?, job: BackgroundJob)] = [:]
    /// UI thread only: the receiving end of each channel.
    private var receivers: [Int: (Any) -> Void] = [:]
    private var nextID = 0

    public init(wake: @escaping Wake = {}) {
        self.wake = wake
    }

    /// Starts `work` on a background thread. `progress` (0…1, as the work reports it) and
    /// `completion` run on the UI thread, from `deliver()`, unless the job is cancelled first.
    @discardableResult
    public func start<Value: Sendable>(
        _ work: @escaping @Sendable (BackgroundJob) throws -> Value,
        progress: ((Double) -> Void)? = nil,
        completion: @escaping (Result<Value, Error>) -> Void
    ) -> BackgroundJob {
        nextID += 1
        let id = nextID
        let inbox = self.inbox, wake = self.wake
        let job = BackgroundJob(id: id) { fraction in
            if inbox.post(.progress(id, fraction)) { wake() }
        }
        pending[id] = ({ any in completion(any as! Result<Value, Error>) }, progress, job)
        queue.async {
            BackgroundWork.yieldToTheUIThread()
            let result: Result<Value, Error>
            if job.isCancelled {
                result = .failure(CancellationError())
            } else {
                do { result = .success(try work(job)) } catch { result = .failure(error) }
            }
            inbox.post(.finished(id, result))
            wake()
        }
        return job
    }

    /// Lowers the calling worker thread's scheduling priority to nice 10, so on a machine with
    /// few cores the UI thread gets the CPU at once when a key arrives, even while every core
    /// reads a large file. On Linux the nice value belongs to the thread, and `who = 0` names
    /// the calling thread; the pool's threads serve only background work in Locker.
    private static func yieldToTheUIThread() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    /// A channel from a long-lived background source (a live feed) to the UI thread: the
    /// returned function may be called from any thread with a value; `receive` then runs with
    /// it on the UI thread, at the next `deliver()`, and the run loop is woken. Only the value
    /// crosses threads, so `receive` may use the view-model freely.
    public func channel<Value: Sendable>(_ receive: @escaping (Value) -> Void) -> @Sendable (Value) -> Void {
        nextID += 1
        let id = nextID
        receivers[id] = { any in receive(any as! Value) }
        let inbox = self.inbox, wake = self.wake
        return { value in
            inbox.post(.received(id, value))
            wake()
        }
    }

    /// True while a started job has not been delivered or cancelled.
    public var isBusy: Bool { !pending.isEmpty }

    /// Runs, on the calling (UI) thread, the progress and completions that have arrived.
    /// Returns whether anything was delivered.
    @discardableResult
    public func deliver() -> Bool {
        var delivered = false
        for message in inbox.take() {
            switch message {
            case .progress(let id, let fraction):
                guard let entry = pending[id], !entry.job.isCancelled else { continue }
                entry.progress?(fraction)
                delivered = true
            case .finished(let id, let result):
                guard let entry = pending.removeValue(forKey: id), !entry.job.isCancelled else { continue }
                entry.delivery(result)
                delivered = true
            case .received(let id, let value):
                receivers[id]?(value)
                delivered = true
            }
        }
        // Cancelled jobs are forgotten at once, whether or not their work has returned.
        for (id, entry) in pending where entry.job.isCancelled { pending[id] = nil }
        return delivered
    }

    /// Delivers until no job is left or `seconds` pass (tests and command-line use). Returns
    /// whether everything was delivered.
    @discardableResult
    public func waitUntilIdle(seconds: Double = 30) -> Bool {
        wait(until: { self.pending.isEmpty }, seconds: seconds)
    }

    /// Delivers until `done` holds or `seconds` pass (at quit: a write on its way). Returns
    /// whether `done` held.
    @discardableResult
    public func wait(until done: () -> Bool, seconds: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while true {
            deliver()
            if done() { return true }
            if pending.isEmpty || DispatchTime.now().uptimeNanoseconds > deadline { return false }
            inbox.waitForMail(until: deadline)
        }
    }

    fileprivate enum Message {
        case progress(Int, Double)
        case finished(Int, Any)
        case received(Int, any Sendable)
    }

    /// Messages from workers to the UI thread, under a lock; progress is coalesced per job and
    /// woken at most every 40 ms.
    private final class Inbox: @unchecked Sendable {
        private var messages: [Message] = []
        private var lastProgressWake: UInt64 = 0
        private let lock = DispatchSemaphore(value: 1)
        private let mail = DispatchSemaphore(value: 0)

        /// Queues a message; returns whether the UI thread should be woken for it.
        @discardableResult
        func post(_ message: Message) -> Bool {
            lock.wait()
            defer { lock.signal() }
            if case .progress(let id, _) = message {
                messages.removeAll { if case .progress(id, _) = $0 { return true } else { return false } }
                messages.append(message)
                let now = DispatchTime.now().uptimeNanoseconds
                guard now - lastProgressWake > 40_000_000 else { return false }
                lastProgressWake = now
            } else {
                messages.append(message)
            }
            mail.signal()
            return true
        }

        func take() -> [Message] {
            lock.wait()
            defer { lock.signal() }
            let taken = messages
            messages = []
            return taken
        }

        func waitForMail(until deadline: UInt64) {
            _ = mail.wait(timeout: DispatchTime(uptimeNanoseconds: deadline))
        }
    }
}

/// One piece of work started with `BackgroundWork.start`: the worker reads `isCancelled` and
/// calls `report`; the UI thread may `cancel`.
public final class BackgroundJob: @unchecked Sendable {
    public let id: Int
    private let reportProgress: @Sendable (Double) -> Void
    private let lock = DispatchSemaphore(value: 1)
    private var cancelled = false

    init(id: Int, report: @escaping @Sendable (Double) -> Void) {
        self.id = id
        reportProgress = report
    }

    /// Stops delivery of this job's progress and result; the work should stop when it next looks.
    public func cancel() {
        lock.wait()
        cancelled = true
        lock.signal()
    }

    public var isCancelled: Bool {
        lock.wait()
        defer { lock.signal() }
        return cancelled
    }

    /// From the worker: how far the work has come (0…1).
    public func report(_ fraction: Double) {
        reportProgress(fraction)
    }
}

/// One kind of background work that never runs twice at once (gitui's `AsyncSingleJob`): a
/// request while one runs becomes the *next* job, a later request replaces that next one, and it
/// starts when the running job is delivered. Repeated requests of the same kind (a live feed's
/// burst of changes, a folder read again and again) thus cost one running and one next job.
/// Results go to `deliver` on the UI thread, like `BackgroundWork.start`'s completion.
public final class SingleJob<Value: Sendable> {
    public typealias Work = @Sendable (BackgroundJob) throws -> Value

    private let work: BackgroundWork
    private let deliver: (Result<Value, Error>) -> Void
    private var running: BackgroundJob?
    /// Makes the next job when it starts.
    private var next: (() -> Work)?

    public init(_ work: BackgroundWork, deliver: @escaping (Result<Value, Error>) -> Void) {
        self.work = work
        self.deliver = deliver
    }

    /// True while a job runs (a next one may wait behind it).
    public var isRunning: Bool { running != nil }

    /// Runs `task` now, or after the running job (replacing any job already waiting).
    public func request(_ task: @escaping Work) {
        request(makingWhenItStarts: { task })
    }

    /// The same, with the job made (on the UI thread) only when it starts, so that it takes the
    /// state as it is then, not as it was when it was asked for (a write that must carry what
    /// the write before it did not).
    public func request(makingWhenItStarts make: @escaping () -> Work) {
        guard running == nil else { next = make; return }
        running = work.start(make()) { [weak self] result in
            guard let self else { return }
            running = nil
            deliver(result)
            if let waiting = next {
                next = nil
                request(makingWhenItStarts: waiting)
            }
        }
    }

    /// Cancels the running job and forgets the next one: neither result is delivered.
    public func cancel() {
        running?.cancel()
        running = nil
        next = nil
    }
}
