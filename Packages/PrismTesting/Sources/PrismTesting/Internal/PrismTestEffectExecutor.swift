import Dispatch
@_spi(PrismInternals) import PrismEffects
import PrismSupport

/// Where a test store's effects run: a `TaskExecutor` that counts the jobs it has been given and
/// not finished, so that ``PrismTestClock`` can wait until every effect has settled (finished, or
/// suspended waiting for something) before it moves time on.
///
/// Why: an effect woken by the clock runs on its own thread. It sends an action and goes back to
/// sleep on the clock, and the test advances the clock again. A clock that yields a few times and
/// hopes (swift-clocks' `TestClock`) loses that race when the machine is loaded: the effect's next
/// sleep is registered after the advance, so its deadline is one step too late and the test waits
/// in vain. Counting jobs turns "hope" into "know": the effect's job is enqueued here the moment
/// the clock resumes it, and it ends only when the effect suspends again.
///
/// Jobs run on four serial dispatch queues in turn: effects keep running in parallel, as in an app,
/// and (serial queues being overcommitting) each queue gets a thread even when the process's
/// shared worker threads are all busy or blocked, as they are when a test suite runs hundreds of
/// tests at once. (A concurrent queue shares those threads: under a full suite, an effect waited
/// more than ten seconds for one.)
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class PrismTestEffectExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is thread-safe, the counts are behind the lock.

    private struct State {
        var jobs = 0
        var nextQueue = 0
        var nextWaiter = 0
        var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let queues = (0..<4).map { DispatchQueue(label: "PrismTestStore effects \($0)") }
    private let state = PrismLocked(State())

    init() {
        PrismTestEffectExecutors.shared.add(self)
    }

    deinit {
        PrismTestEffectExecutors.shared.remove(self)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queue = state.withLock { state -> DispatchQueue in
            state.jobs += 1
            state.nextQueue = (state.nextQueue + 1) % queues.count
            return queues[state.nextQueue]
        }
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.jobs -= 1
                guard state.jobs == 0 else { return [] }
                defer { state.idleWaiters = [:] }
                return Array(state.idleWaiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Whether no job is waiting or running.
    var isIdle: Bool { state.withLock { $0.jobs == 0 } }

    /// Returns once no job is waiting or running, or at `deadline`.
    func idle(before deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            state.withLock { $0.idleWaiters.removeValue(forKey: id) }?.resume()
        }
        await withCheckedContinuation { continuation in
            let isIdle = state.withLock { state -> Bool in
                if state.jobs == 0 { return true }
                state.idleWaiters[id] = continuation
                return false
            }
            if isIdle { continuation.resume() }
        }
        timer.cancel()
    }
}

/// Every live test store's effect executor: what ``PrismTestClock`` waits for.
final class PrismTestEffectExecutors: Sendable {
    static let shared = PrismTestEffectExecutors()

    /// Weak references, typed `AnyObject` so that this type needs no availability.
    private struct Entry {
        weak var executor: AnyObject?
    }

    private let executors = PrismLocked([ObjectIdentifier: Entry]())

    func add(_ executor: AnyObject) {
        executors.withLock { $0[ObjectIdentifier(executor)] = Entry(executor: executor) }
    }

    func remove(_ executor: AnyObject) {
        executors.withLock { $0[ObjectIdentifier(executor)] = nil }
    }

    /// Returns once every live test store's effects have settled (each effect job finished:
    /// every effect has ended or is suspended), or after `limit` of real time (an effect that
    /// computes without ever suspending must not hang the test).
    func settle(limit: Duration = .seconds(5)) async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            // No task executors before these systems: yield, as swift-clocks' TestClock does.
            for _ in 0..<20 { await Task.yield() }
            return
        }
        // Tasks outside a test store (a plain `Task` sleeping on the clock) are not counted: give
        // them the same chance swift-clocks' TestClock gives, a round of yields.
        for _ in 0..<10 { await Task.detached(priority: .low) { await Task.yield() }.value }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            // Copy the weak references under the lock and make them strong outside it: the last
            // strong reference to an executor may go away here, and its deinit takes the lock.
            let entries = executors.withLock { Array($0.values) }
            let busy = entries.compactMap { $0.executor as? PrismTestEffectExecutor }.filter { !$0.isIdle }
            guard let first = busy.first else { return }
            await first.idle(before: deadline)
        }
    }
}
