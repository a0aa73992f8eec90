import PrismStore
import PrismTesting
import Testing

@MainActor
@Suite("Light and non-exhaustive tests")
struct LightAndNonExhaustiveTests {
    @Test("plain send and waitForEffects check only what the test reads")
    func lightStyle() async throws {
        let store = counterStore()
        store.send(.fetch)
        #expect(store.state.isLoading)
        try await store.waitForEffects()
        #expect(store.state.count == 42)
        // The unasserted .loaded(42) is fine: the test never asserted.
    }

    @Test("waitForEffects throws when effects outlive its timeout")
    func waitForEffectsTimesOut() async {
        let store = counterStore()
        store.send(.startTimer)
        await #expect(throws: PrismTestStoreError.self) {
            try await store.waitForEffects(timeout: .milliseconds(30))
        }
        store.skipInFlightEffects()
    }

    @Test("with exhaustivity off, only described properties are compared")
    func nonExhaustiveComparesDescribedProperties() async {
        let store = counterStore()
        store.exhaustivity = .off
        await store.send(.fetch) { _ in }
        await store.receive(.loaded(42)) { $0.count = 42 }
        await expectIssue(mentioning: "count: 100", "count: 43") {
            await store.send(.increment) { $0.count = 100 }
        }
    }

    @Test("with exhaustivity off, receive skips other actions and the end checks nothing")
    func nonExhaustiveSkips() async {
        let store = counterStore()
        store.exhaustivity = .off
        await store.send(.echoTwice) { _ in }
        store.send(.fetch)
        await store.receive(.loaded(42))
        #expect(store.state.count == 42)
    }

    @Test("with exhaustivity on, even a light test must receive its actions")
    func exhaustiveOn() {
        withKnownIssue {
            let store = counterStore()
            store.exhaustivity = .on
            store.send(.echoTwice)
        } matching: { issue in
            issue.mentions("did not assert")
        }
    }

    @Test("the same exhaustive test passes every time", arguments: 0..<20)
    func deterministic(round: Int) async {
        // The test decides when the effect sends (a tick), so nothing races the clock.
        let (ticks, tick) = AsyncStream<Void>.makeStream()
        let store = counterStore(ticks: ticks)
        await store.send(.startTimer) { _ in }
        await store.send(.increment) { $0.count = 1 }
        tick.yield()
        await store.receive(.tick) { $0.count = 2 }
        await store.send(.stopTimer) { _ in }
        await store.finish()
    }
}
