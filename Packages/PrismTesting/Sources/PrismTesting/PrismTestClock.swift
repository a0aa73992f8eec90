import PrismEffects
import PrismSupport

/// A clock for tests: time moves only when the test advances it, and every advance waits for the
/// test stores' effects to settle, so that a test of a timer is the same on a busy machine as on
/// an idle one.
///
/// ```swift
/// let clock = PrismTestClock()
/// let store = PrismTestStore(initialState: CountdownFeature.State(), reducer: CountdownFeature()) {
///     $0.continuousClock = clock
/// }
/// await store.send(.start) { $0.isRunning = true }
/// await clock.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.remaining = 2 }
/// ```
///
/// Like swift-clocks' `TestClock` (which PrismTesting re-exports), a sleep on it returns when the
/// test advances the clock to its deadline. Unlike it, an advance does not yield a number of times
/// and hope that the effects it woke have gone back to sleep: a test store runs its effects on an
/// executor that counts their work, and the clock waits, before each step and after waking each
/// sleeper, until every effect of every live test store has finished or is suspended. An effect
/// that sends an action and sleeps again therefore always sleeps again before the clock moves on,
/// and `advance(by: .seconds(2))` wakes a one-second timer twice, however loaded the machine.
/// (The wait is bounded by five seconds of real time per step, for an effect that computes
/// without ever suspending.) Before macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2 there
/// are no task executors to count on, and it yields as `TestClock` does.
public final class PrismTestClock: Clock, Sendable {
    /// A point in the test clock's time: how long after its start.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// The time since the clock started.
        public let offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State {
        var now: Instant
        var nextID = 0
        var sleepers: [Sleeper] = []
    }

    private let state: PrismLocked<State>

    /// A clock at `now` (its start, by default).
    public init(now: Instant = Instant()) {
        state = PrismLocked(State(now: now))
    }

    /// The clock's current time: where the test last advanced it.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock moves only in the steps the test gives it.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the test advances the clock to `deadline` (at once when it is not later
    /// than ``now``). Throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                // Cancelled between the check above and here: the handler below found nothing.
                if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                let isDue = state.withLock { state -> Bool in
                    if deadline <= state.now { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if isDue { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock `duration` forward, waking the sleepers whose deadlines it passes, in the
    /// order of their deadlines, each at its own deadline, and letting the effects settle after
    /// each (see the type's documentation).
    public func advance(by duration: Duration = .zero) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `deadline` (nothing happens when it is not later than ``now``,
    /// but the effects still settle), as ``advance(by:)`` does.
    public func advance(to deadline: Instant) async {
        while true {
            await PrismTestEffectExecutors.shared.settle()
            let next = state.withLock { state -> Sleeper? in
                guard
                    let index = state.sleepers.indices.min(by: {
                        state.sleepers[$0].deadline < state.sleepers[$1].deadline
                    }),
                    state.sleepers[index].deadline <= deadline
                else {
                    if state.now < deadline { state.now = deadline }
                    return nil
                }
                let sleeper = state.sleepers.remove(at: index)
                if state.now < sleeper.deadline { state.now = sleeper.deadline }
                return sleeper
            }
            guard let next else { break }
            next.continuation.resume()
        }
        await PrismTestEffectExecutors.shared.settle()
    }

    /// Advances the clock until nobody sleeps on it any more, waking each sleeper at its
    /// deadline. An effect that sleeps forever in a loop (a timer nobody stops) keeps it going:
    /// `run` stops after `limit` of the clock's own time.
    public func run(limit: Duration = .seconds(86_400)) async {
        let end = now.advanced(by: limit)
        while true {
            await PrismTestEffectExecutors.shared.settle()
            let next = state.withLock { state in state.sleepers.map(\.deadline).min() }
            guard let next, next <= end else { break }
            await advance(to: next)
        }
    }

    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
}
