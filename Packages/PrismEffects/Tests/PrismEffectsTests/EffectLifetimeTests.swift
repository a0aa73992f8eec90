import Testing

@_spi(PrismInternals) @testable import PrismEffects

/// Every effect a runtime started ends when the runtime is shut down (the store's release),
/// whether or not it has a cancellation id.
@MainActor
@Suite("Effects end with their runtime")
struct EffectLifetimeTests {
    /// The shapes an effect without a cancellation id can take, each running until cancelled.
    enum Shape: String, CaseIterable, Sendable {
        case run
        case merge
        case concatenate
        case mapped
        case cancellableInside

        /// An effect of this shape whose parts each open `started` once and wait on a stream
        /// that never ends, then count themselves in `ended` when the wait is over.
        func effect(started: LockedBox<Int>, ended: LockedBox<Int>) -> PrismEffect<Int> {
            func forever() -> PrismEffect<Int> {
                .run { send in
                    let (stream, continuation) = AsyncStream<Int>.makeStream()
                    // Kept alive on purpose: the stream never finishes on its own.
                    defer { withExtendedLifetime(continuation) {} }
                    started.mutate { $0 += 1 }
                    for await value in stream { send(value) }
                    ended.mutate { $0 += 1 }
                }
            }
            switch self {
            case .run: return forever()
            case .merge: return .merge(forever(), forever())
            case .concatenate: return .concatenate(.run { _ in }, forever())
            case .mapped: return forever().map { $0 + 1 }
            case .cancellableInside: return .concatenate(.run { _ in }, forever().cancellable(id: "inner"))
            }
        }

        var parts: Int { self == .merge ? 2 : 1 }
    }

    @Test("cancelAll ends an effect that has no cancellation id", arguments: Shape.allCases)
    func cancelAllEndsEffectsWithoutID(shape: Shape) async throws {
        let harness = RuntimeHarness<Int>()
        let started = LockedBox(0)
        let ended = LockedBox(0)
        let task = harness.start(shape.effect(started: started, ended: ended))
        try await eventually { started.wrappedValue == shape.parts }
        harness.runtime.cancelAll()
        try await eventually { ended.wrappedValue == shape.parts }
        await task.finish()
        #expect(task.isFinished)
    }

    @Test("cancelAll ends effects started by actions that effects sent")
    func cancelAllEndsEffectsOfDeliveredActions() async throws {
        let started = LockedBox(0)
        let ended = LockedBox(0)
        let runtime = PrismEffectRuntime<Int>()
        // Every delivered action starts another effect that runs until cancelled, the way a
        // store reduces what an effect sent and starts the effect the reducer returns.
        // Weakly, as a store does: the runtime keeps this closure (make test-leaks found the cycle).
        runtime.setDeliver { [weak runtime] _, task, _ in
            var task = task
            runtime?.start(Shape.run.effect(started: started, ended: ended), task: &task) { _ in }
        }
        var task = PrismEffectTask()
        runtime.start(.run { send in send(1) }, task: &task) { _ in }
        try await eventually { started.wrappedValue == 1 }
        runtime.cancelAll()
        try await eventually { ended.wrappedValue == 1 }
        await task.finish()
    }

    @Test("an effect started after cancelAll never runs")
    func nothingRunsAfterCancelAll() async {
        let harness = RuntimeHarness<Int>()
        let ran = LockedBox(false)
        harness.runtime.cancelAll()
        let task = harness.start(
            .run { send in
                ran.mutate { $0 = true }
                send(1)
            }
        )
        await task.finish()
        #expect(!ran.wrappedValue)
        #expect(harness.received.isEmpty)
    }

    @Test("cancelAll while many effects are starting ends every one of them")
    func cancelAllRacesStartingEffects() async throws {
        let harness = RuntimeHarness<Int>()
        let started = LockedBox(0)
        let ended = LockedBox(0)
        var tasks: [PrismEffectTask] = []
        for _ in 0..<200 {
            tasks.append(harness.start(Shape.cancellableInside.effect(started: started, ended: ended)))
        }
        harness.runtime.cancelAll()
        for task in tasks { await task.finish() }
        // Whatever had started by the cancellation has ended; the rest never started.
        #expect(started.wrappedValue == ended.wrappedValue)
    }

    @Test("a finished effect leaves nothing behind in the runtime")
    func finishedEffectsAreForgotten() async {
        let harness = RuntimeHarness<Int>()
        for value in 0..<100 {
            await harness.start(.run { send in send(value) }).finish()
        }
        #expect(harness.runtime.runningCount == 0)
        #expect(harness.received == Array(0..<100))
    }
}

extension PrismEffectRuntime {
    /// How many effect tasks are running: started, not finished, not yet removed.
    var runningCount: Int { state.withLock { $0.running.count } }
}
