import Foundation
import PrismStore
import PrismTesting
import Testing

/// A timer that ticks once a second for `steps` seconds, as the testing article's countdown does.
private struct Ticker: PrismReducer {
    struct State: Equatable, Sendable {
        var ticks = 0
    }

    enum Action: Equatable, Sendable {
        case start(steps: Int)
        case tick
    }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .start(let steps):
            return .run { [clock] send in
                for _ in 0..<steps {
                    try await clock.sleep(for: .seconds(1))
                    send(.tick)
                }
            }
        case .tick:
            state.ticks += 1
            return .none
        }
    }
}

@Suite("PrismTestClock")
struct PrismTestClockTests {
    @MainActor
    @Test("one advance across three deadlines wakes a timer three times, every time, beside busy cores")
    func advanceAcrossDeadlinesUnderLoad() async {
        let busy = EffectEndRaceTests.BusyLoops(threads: 2)
        defer { busy.stop() }
        let runs = ProcessInfo.processInfo.environment["PRISM_STRESS_RUNS"].flatMap { Int($0) } ?? 200
        let deadline = ContinuousClock.now + .seconds(3)
        for _ in 0..<runs where ContinuousClock.now < deadline {
            let clock = PrismTestClock()
            let store = PrismTestStore(initialState: Ticker.State(), reducer: Ticker()) {
                $0.continuousClock = clock
            }
            store.send(.start(steps: 3))
            await clock.advance(by: .seconds(3))
            // The test store's own receive timeout (a wake that never comes fails there): a
            // shorter one raced the busy loops and CI's other work for a thread.
            await store.receive(.tick) { $0.ticks = 1 }
            await store.receive(.tick) { $0.ticks = 2 }
            await store.receive(.tick) { $0.ticks = 3 }
            if store.state.ticks != 3 { break }
        }
    }

    @Test("a sleep ends at its deadline, not before, and at once when the deadline has passed")
    func sleepsUntilDeadline() async throws {
        let clock = PrismTestClock()
        let woke = Task { try await clock.sleep(for: .seconds(5)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        await clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        try await woke.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == PrismTestClock.Instant(offset: .seconds(5)))
        // A deadline in the past returns without waiting for an advance.
        try await clock.sleep(until: PrismTestClock.Instant(offset: .seconds(1)), tolerance: nil)
    }

    @Test("cancelling a sleeper throws CancellationError and forgets it")
    func cancelling() async {
        let clock = PrismTestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        // Cancelled before it sleeps: it never registers.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(clock.sleeperCount == 0)
    }

    @MainActor
    @Test("sleepers wake in the order of their deadlines, each at its own time")
    func order() async {
        let clock = PrismTestClock()
        let store = PrismTestStore(initialState: [String](), reducer: Sleepers(clock: clock))
        store.exhaustivity = .off
        store.send("start")
        await clock.advance(by: .seconds(10))
        await store.finish()
        #expect(store.state == ["1 s at 1.0 seconds", "2 s at 2.0 seconds", "3 s at 3.0 seconds"])
    }

    @MainActor
    @Test("run drives a timer to its end, and stops a timer that never ends at its limit")
    func run() async {
        let clock = PrismTestClock()
        let store = PrismTestStore(initialState: Ticker.State(), reducer: Ticker()) {
            $0.continuousClock = clock
        }
        store.exhaustivity = .off
        store.send(.start(steps: 4))
        await clock.run()
        await store.finish()
        #expect(store.state.ticks == 4)
        #expect(clock.now == PrismTestClock.Instant(offset: .seconds(4)))

        let forever = PrismTestClock()
        let endless = PrismTestStore(initialState: Ticker.State(), reducer: Ticker()) {
            $0.continuousClock = forever
        }
        endless.exhaustivity = .off
        endless.send(.start(steps: .max))
        await forever.run(limit: .seconds(30))
        #expect(forever.now == PrismTestClock.Instant(offset: .seconds(30)))
        #expect(endless.state.ticks == 30)
        endless.skipInFlightEffects()
    }
}

/// Three effects that sleep 3, 1 and 2 seconds and say when they woke.
private struct Sleepers: PrismReducer {
    let clock: PrismTestClock

    func reduce(into state: inout [String], action: String) -> PrismEffect<String> {
        guard action == "start" else {
            state.append(action)
            return .none
        }
        return .merge(
            [3, 1, 2].map { seconds in
                .run { [clock] send in
                    try await clock.sleep(for: .seconds(seconds))
                    send("\(seconds) s at \(clock.now.offset)")
                }
            })
    }
}
