import PrismStore
import PrismTesting
import Testing

@MainActor
@Suite("Exhaustive assertions")
struct ExhaustiveTestStoreTests {
    @Test("a send whose change is described exactly passes")
    func describedChangePasses() async {
        let store = counterStore()
        await store.send(.increment) { $0.count = 1 }
        await store.send(.decrement) { $0.count = 0 }
    }

    @Test("an effect's actions are received and asserted in order")
    func receiveAssertsEffectActions() async {
        let store = counterStore()
        await store.send(.fetch) { $0.isLoading = true }
        await store.receive(.loaded(42)) {
            $0.isLoading = false
            $0.count = 42
        }
    }

    @Test("actions sent immediately by an effect are received too")
    func immediateActionsAreReceived() async {
        let store = counterStore()
        await store.send(.echoTwice) { _ in }
        await store.receive(.increment) { $0.count = 1 }
        await store.receive(.increment) { $0.count = 2 }
    }

    @Test("receive matches actions that are not Equatable with a predicate")
    func receiveWithPredicate() async {
        let store = counterStore()
        await store.send(.fetch) { $0.isLoading = true }
        await store.receive(
            { if case .loaded = $0 { true } else { false } },
            assert: {
                $0.isLoading = false
                $0.count = 42
            }
        )
    }

    @Test("a state change that differs from the description fails with a diff")
    func mismatchFails() async {
        let store = counterStore()
        await expectIssue(mentioning: "is not what the test describes", "count: 2", "count: 1", "Expected: −") {
            await store.send(.increment) { $0.count = 2 }
        }
    }

    @Test("in exhaustive mode a send without a closure asserts no change; in light mode it asserts nothing")
    func bareSendAssertsNoChange() async {
        let store = counterStore()
        store.exhaustivity = .on
        withKnownIssue {
            store.send(.increment)
        } matching: { issue in
            issue.mentions("without a closure", "count: 1", "count: 0")
        }
        // No change: nothing to report.
        store.send(.echoTwice)
        await store.receive(.increment) { $0.count = 2 }
        await store.receive(.increment) { $0.count = 3 }

        // The seed's light style: send, then read the state.
        let light = counterStore()
        light.send(.increment)
        light.send(.increment)
        #expect(light.state.count == 2)
    }

    @Test("a change the closure did not describe fails")
    func undescribedChangeFails() async {
        let store = counterStore()
        await expectIssue(mentioning: "isLoading") {
            await store.send(.fetch) { _ in }
        }
        // The fetch answers at once: by now its effect may have sent `loaded(42)`, or not yet
        // (it had, under ThreadSanitizer). Neither is what this test is about.
        store.skipInFlightEffects()
        store.skipReceivedActions()
    }

    @Test("receiving an action other than the expected one fails and names both")
    func unexpectedActionFails() async {
        let store = counterStore()
        await store.send(.fetch) { $0.isLoading = true }
        await expectIssue(mentioning: "unexpected action", "loaded(7)", "loaded(42)") {
            await store.receive(.loaded(7)) { $0.count = 7 }
        }
    }

    @Test("receive fails after its timeout when nothing arrives")
    func receiveTimesOut() async {
        let store = counterStore()
        await store.send(.increment) { $0.count = 1 }
        await expectIssue(mentioning: "Expected to receive loaded(1)", "no action arrived") {
            await store.receive(.loaded(1), timeout: .milliseconds(50))
        }
    }

    @Test("actions received but not asserted fail the test when the store goes away")
    func unreceivedActionsFailAtEnd() async {
        await expectIssue(mentioning: "did not assert", "loaded(42)", "store.receive") {
            let store = counterStore()
            await store.send(.fetch) { $0.isLoading = true }
            try? await store.waitForEffects()
        }
    }

    @Test("effects still running fail the test when the store goes away")
    func runningEffectsFailAtEnd() async {
        await expectIssue(mentioning: "still running", "skipInFlightEffects") {
            let store = counterStore()
            await store.send(.startTimer) { _ in }
        }
    }

    @Test("sending while received actions are unasserted fails")
    func sendWithPendingReceivedActionsFails() async {
        let store = counterStore()
        await store.send(.echoTwice) { _ in }
        await expectIssue(mentioning: "were not asserted", "increment") {
            await store.send(.decrement) { $0.count = 1 }
        }
    }

    @Test("finish waits for effects, and fails for an effect that never ends")
    func finishWaitsAndFails() async {
        let store = counterStore()
        await store.send(.fetch) { $0.isLoading = true }
        await store.receive(.loaded(42)) {
            $0.isLoading = false
            $0.count = 42
        }
        await store.finish()

        let timer = counterStore()
        await timer.send(.startTimer) { _ in }
        await expectIssue(mentioning: "still running after") {
            await timer.finish(timeout: .milliseconds(50))
        }
        timer.skipInFlightEffects()
    }

    @Test("a timer can be received tick by tick, then stopped")
    func timerTicks() async {
        let (ticks, tick) = AsyncStream<Void>.makeStream()
        let store = counterStore(ticks: ticks)
        await store.send(.startTimer) { _ in }
        tick.yield()
        await store.receive(.tick) { $0.count = 1 }
        tick.yield()
        await store.receive(.tick) { $0.count = 2 }
        await store.send(.stopTimer) { _ in }
        await store.finish()
    }

    @Test("an error an effect does not handle fails the test")
    func effectErrorFails() async {
        let store = counterStore()
        await expectIssue(mentioning: "An effect failed", "Offline") {
            await store.send(.fail) { _ in }
            try? await store.waitForEffects()
        }
    }
}
