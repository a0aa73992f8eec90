import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismEffects

@MainActor
@Suite("Running effects")
struct EffectRuntimeTests {
    @Test("immediate actions arrive synchronously and in order")
    func immediateActionsInOrder() {
        let harness = RuntimeHarness<Int>()
        let task = harness.start(.merge(.send(1), .sequence([2, 3]), .concatenate(.send(4), .send(5))))
        #expect(harness.received == [1, 2, 3, 4, 5])
        #expect(task.isFinished)
    }

    @Test("a run effect's actions arrive on the main actor in the order they were sent")
    func runDeliversInOrder() async {
        let harness = RuntimeHarness<Int>()
        let task = harness.start(
            .run { send in
                for value in 0..<100 { send(value) }
            }
        )
        await task.finish()
        #expect(harness.received == Array(0..<100))
    }

    @Test("finish waits for the actions an effect sent to be delivered")
    func finishWaitsForDelivery() async {
        let harness = RuntimeHarness<String>()
        let clock = TestClock()
        let task = harness.start(
            .run { send in
                try await clock.sleep(for: .milliseconds(20))
                send("late")
            }
        )
        #expect(!task.isFinished)
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(20))
        await task.finish()
        #expect(harness.received == ["late"])
        #expect(task.isFinished)
    }

    @Test("concatenated effects run one after another")
    func concatenateIsSequential() async {
        let harness = RuntimeHarness<Int>()
        let clock = TestClock()
        let task = harness.start(
            .concatenate(
                .send(0),
                .run { send in
                    try await clock.sleep(for: .milliseconds(30))
                    send(1)
                },
                .run { send in send(2) },
                .send(3)
            )
        )
        // The leading immediate part is sent before start returns.
        #expect(harness.received == [0])
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(29))
        #expect(harness.received == [0])
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(1))
        await task.finish()
        #expect(harness.received == [0, 1, 2, 3])
    }

    @Test("merged effects run at the same time")
    func mergeIsConcurrent() async {
        // Each effect waits for the other: this finishes only if both run at once.
        let first = Gate()
        let second = Gate()
        let harness = RuntimeHarness<String>()
        let task = harness.start(
            .merge(
                .run { send in
                    first.open()
                    await second.wait()
                    send("a")
                },
                .run { send in
                    second.open()
                    await first.wait()
                    send("b")
                }
            )
        )
        await task.finish()
        #expect(Set(harness.received) == ["a", "b"])
    }

    @Test("cancel(id:) stops a running effect and drops what it sends afterwards")
    func cancelById() async throws {
        let harness = RuntimeHarness<Int>()
        let started = Gate()
        let sentAfterCancel = LockedBox(false)
        let task = harness.start(
            PrismEffect.run { send in
                send(1)
                started.open()
                // Ignores cancellation on purpose: Send itself must drop what comes after.
                while !send.isCancelled { await Task.yield() }
                sentAfterCancel.mutate { $0 = true }
                send(2)
            }
            .cancellable(id: "timer")
        )
        await started.wait()
        harness.start(.cancel(id: "timer"))
        await task.finish()
        #expect(sentAfterCancel.wrappedValue)
        #expect(!harness.received.contains(2))
    }

    @Test("actions sent before a cancellation but not yet delivered are dropped")
    func pendingActionsOfCancelledEffectAreDropped() async {
        let harness = RuntimeHarness<Int>()
        let sent = LockedBox(false)
        let task = harness.start(
            PrismEffect.run { send in
                send(1)
                sent.mutate { $0 = true }
                try await Task.sleep(for: .seconds(30))
            }
            .cancellable(id: 7)
        )
        // Hold the main actor (no await) until the effect has sent: 1 is then waiting in the
        // mailbox, undelivered, when the effect is cancelled.
        while !sent.wrappedValue {}
        harness.runtime.cancel(id: 7)
        await task.finish()
        #expect(harness.received.isEmpty)
    }

    @Test("cancelInFlight cancels the effect already running under the same id")
    func cancelInFlight() async {
        let harness = RuntimeHarness<String>()
        let firstStarted = Gate()
        let first = harness.start(
            PrismEffect.run { send in
                firstStarted.open()
                try await Task.sleep(for: .seconds(30))
                send("first")
            }
            .cancellable(id: "load", cancelInFlight: true)
        )
        await firstStarted.wait()
        let second = harness.start(
            PrismEffect.run { send in send("second") }.cancellable(id: "load", cancelInFlight: true)
        )
        await first.finish()
        await second.finish()
        #expect(harness.received == ["second"])
    }

    @Test("ids are per runtime: cancelling in one store leaves another's effects running")
    func idsAreScopedToTheRuntime() async {
        let one = RuntimeHarness<Int>()
        let other = RuntimeHarness<Int>()
        let gate = Gate()
        let task = other.start(
            PrismEffect.run { send in
                await gate.wait()
                send(1)
            }
            .cancellable(id: "shared")
        )
        one.start(.cancel(id: "shared"))
        gate.open()
        await task.finish()
        #expect(other.received == [1])
    }

    @Test("debounce runs only the last effect of a burst")
    func debounceKeepsTheLast() async {
        let harness = RuntimeHarness<String>()
        let clock = TestClock()
        var tasks: [PrismEffectTask] = []
        for query in ["s", "sw", "swi", "swift"] {
            tasks.append(
                harness.start(PrismEffect.send(query).debounce(id: "search", for: .milliseconds(50), clock: clock)))
            await clock.waitForSleeper()
            await clock.advance(by: .milliseconds(10))
        }
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(50))
        for task in tasks { await task.finish() }
        #expect(harness.received == ["swift"])
    }

    @Test("debounce waits on the clock it is given, to the tick")
    func debounceUsesTheClock() async {
        let harness = RuntimeHarness<Int>()
        let clock = TestClock()
        let task = harness.start(PrismEffect.send(1).debounce(id: 0, for: .milliseconds(40), clock: clock))
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(39))
        #expect(harness.received.isEmpty)
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(1))
        await task.finish()
        #expect(harness.received == [1])
    }

    @Test("debounce takes a clock of any type, as a store's dependencies give it")
    func debounceWithAnyClock() async {
        let harness = RuntimeHarness<Int>()
        let testClock = TestClock()
        let clock: any Clock<Duration> = testClock
        let task = harness.start(PrismEffect.send(7).debounce(id: 0, for: .seconds(1), clock: clock))
        await testClock.waitForSleeper()
        await testClock.advance(by: .seconds(1))
        await task.finish()
        #expect(harness.received == [7])
    }

    @Test("map transforms the actions of every kind of effect")
    func mapTransformsActions() async {
        let harness = RuntimeHarness<String>()
        let effect = PrismEffect<Int>.merge(
            .send(1),
            .sequence([2, 3]),
            .run { send in send(4) },
            .concatenate(.run { send in send(5) }, .send(6))
        )
        .map { "#\($0)" }
        await harness.start(effect).finish()
        #expect(harness.received.prefix(3) == ["#1", "#2", "#3"])
        #expect(Set(harness.received) == ["#1", "#2", "#3", "#4", "#5", "#6"])
    }

    @Test("an error thrown in run goes to its catch handler, which can send")
    func catchHandlerReceivesError() async {
        struct Failure: Error, Equatable { let code: Int }
        let harness = RuntimeHarness<String>()
        await harness.start(
            .run { _ in
                throw Failure(code: 7)
            } catch: { error, send in
                send("caught \((error as? Failure)?.code ?? -1)")
            }
        ).finish()
        #expect(harness.received == ["caught 7"])
        #expect(harness.errors.wrappedValue.isEmpty)
    }

    @Test("an error thrown in run without a catch handler is reported with where the effect was made")
    func unhandledErrorIsReported() async throws {
        struct Failure: Error {}
        let harness = RuntimeHarness<Int>()
        let line: UInt = #line + 1
        await harness.start(.run { _ in throw Failure() }).finish()
        let errors = harness.errors.wrappedValue
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.underlying is Failure)
        #expect(error.fileID == #fileID)
        #expect(error.line == line)
    }

    @Test("cancelling an effect is not an error")
    func cancellationIsNotReported() async {
        let harness = RuntimeHarness<Int>()
        let task = harness.start(.run { _ in try await Task.sleep(for: .seconds(30)) })
        task.cancel()
        await task.finish()
        #expect(task.isCancelled)
        #expect(harness.errors.wrappedValue.isEmpty)
    }

    @Test("cancelling the task waiting in finish cancels the effects")
    func finishCancellationCancelsEffects() async {
        let harness = RuntimeHarness<Int>()
        let task = harness.start(
            .run { send in
                try await Task.sleep(for: .seconds(30))
                send(1)
            }
        )
        let waiter = Task { await task.finish() }
        waiter.cancel()
        await waiter.value
        await task.finish()
        #expect(task.isCancelled)
        #expect(harness.received.isEmpty)
    }

    @Test("Send can be called from many tasks at once and loses nothing")
    func sendFromManyTasks() async {
        let harness = RuntimeHarness<Int>()
        await harness.start(
            .run { send in
                await withTaskGroup(of: Void.self) { group in
                    for value in 0..<1_000 {
                        group.addTask { send(value) }
                    }
                }
            }
        ).finish()
        #expect(harness.received.count == 1_000)
        #expect(Set(harness.received) == Set(0..<1_000))
    }

    @Test("cancelAll stops every running effect")
    func cancelAllStopsEverything() async {
        let harness = RuntimeHarness<Int>()
        let started = LockedBox(0)
        let task = harness.start(
            .merge(
                PrismEffect.run { _ in
                    started.mutate { $0 += 1 }
                    try await Task.sleep(for: .seconds(30))
                }
                .cancellable(id: 1),
                PrismEffect.run { _ in
                    started.mutate { $0 += 1 }
                    try await Task.sleep(for: .seconds(30))
                }
                .cancellable(id: 2)
            )
        )
        try? await eventually { started.wrappedValue == 2 }
        harness.runtime.cancelAll()
        await task.finish()
        #expect(task.isFinished)
    }

    @Test("a user-made Send hands actions to its closure")
    func userMadeSend() {
        let box = LockedBox<[Int]>([])
        let send = Send<Int> { value in box.mutate { $0.append(value) } }
        send(1)
        send(2)
        #expect(box.wrappedValue == [1, 2])
    }
}
