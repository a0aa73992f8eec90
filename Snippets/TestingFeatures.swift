// Tests of a feature with PrismTestStore: light and exhaustive, receiving actions, and time.
// snippet.hide
import Foundation
import Prism
import PrismTesting
import Testing

// snippet.show

// snippet.feature
/// Counts down from a number, one step a second, and says when it is done.
struct CountdownFeature: PrismReducer {
    struct State: Equatable, Sendable {
        var remaining = 3
        var isRunning = false
        var finished = false
    }

    enum Action: Equatable, Sendable {
        case start
        case cancel
        case tick
    }

    private struct TimerID: Hashable, Sendable {}

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .start:
            state.isRunning = true
            return .run { [clock, steps = state.remaining] send in
                for _ in 0..<steps {
                    try await clock.sleep(for: .seconds(1))
                    send(.tick)
                }
            }
            .cancellable(id: TimerID(), cancelInFlight: true)
        case .cancel:
            state.isRunning = false
            return .cancel(id: TimerID())
        case .tick:
            state.remaining -= 1
            if state.remaining == 0 {
                state.isRunning = false
                state.finished = true
            }
            return .none
        }
    }
}
// snippet.end

@MainActor
@Suite struct CountdownTests {
    // snippet.light
    @Test func countsDownToZero() async throws {
        let clock = PrismTestClock()
        let store = PrismTestStore(initialState: CountdownFeature.State(), reducer: CountdownFeature()) {
            $0.continuousClock = clock
        }
        store.send(.start)
        await clock.run()
        try await store.waitForEffects()
        #expect(store.state.finished)
        #expect(store.state.remaining == 0)
    }
    // snippet.end

    // snippet.exhaustive
    @Test func ticksOncePerSecond() async {
        let clock = PrismTestClock()
        let store = PrismTestStore(initialState: CountdownFeature.State(), reducer: CountdownFeature()) {
            $0.continuousClock = clock
        }
        await store.send(.start) { $0.isRunning = true }
        await clock.advance(by: .seconds(1))
        await store.receive(.tick) { $0.remaining = 2 }
        await clock.advance(by: .seconds(2))
        await store.receive(.tick) { $0.remaining = 1 }
        await store.receive(.tick) {
            $0.remaining = 0
            $0.isRunning = false
            $0.finished = true
        }
    }
    // snippet.end

    // snippet.cancel
    @Test func cancellingStopsTheTimer() async {
        let clock = PrismTestClock()
        let store = PrismTestStore(initialState: CountdownFeature.State(), reducer: CountdownFeature()) {
            $0.continuousClock = clock
        }
        await store.send(.start) { $0.isRunning = true }
        await store.send(.cancel) { $0.isRunning = false }
        await clock.advance(by: .seconds(10))  // nothing more arrives
        await store.finish()
    }
    // snippet.end

    // snippet.partial
    @Test func finishesWhateverTheSteps() async {
        let clock = PrismTestClock()
        let store = PrismTestStore(initialState: CountdownFeature.State(), reducer: CountdownFeature()) {
            $0.continuousClock = clock
        }
        store.exhaustivity = .off
        store.send(.start)
        await clock.advance(by: .seconds(1))
        await store.receive({ $0 == .tick }, assert: { $0.remaining = 2 })
        await clock.run()
        store.skipReceivedActions()
        await store.finish()
        #expect(store.state.finished)
    }
    // snippet.end
}
