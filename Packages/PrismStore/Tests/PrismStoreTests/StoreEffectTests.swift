import PrismTestSupport
import Testing

@testable import PrismStore

@MainActor
@Suite("Running effects through a store")
struct StoreEffectTests {
    enum Action: Equatable, Sendable {
        case load
        case loaded(Int)
        case start
        case tick
        case stop
        case fail
        case failed(String)
        case search(String)
        case results(String)
        case saveFlow
        case showLoading
        case saved
        case hideLoading
    }

    struct State: Equatable, Sendable {
        var value = 0
        var ticks = 0
        var log: [String] = []
        var isLoading = false
    }

    struct TimerID: Hashable, Sendable {}
    struct SearchID: Hashable, Sendable {}

    struct Feature: PrismReducer {
        let ticks: AsyncStream<Void>?
        /// How `.load`, `.saveFlow` and `.search` wait: the store's clock (a test clock here).
        @Dependency(\.continuousClock) var clock

        init(ticks: AsyncStream<Void>? = nil) {
            self.ticks = ticks
        }

        func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
            switch action {
            case .load:
                return .run { [clock] send in
                    try await clock.sleep(for: .milliseconds(5))
                    send(.loaded(42))
                }
            case .loaded(let value):
                state.value = value
                return .none
            case .start:
                let ticks = self.ticks
                return PrismEffect.run { send in
                    guard let ticks else { return }
                    for await _ in ticks { send(.tick) }
                }
                .cancellable(id: TimerID())
            case .tick:
                state.ticks += 1
                return .none
            case .stop:
                return .cancel(id: TimerID())
            case .fail:
                return .run { _ in
                    struct Offline: Error {}
                    throw Offline()
                } catch: { error, send in
                    send(.failed("\(error)"))
                }
            case .failed(let message):
                state.log.append(message)
                return .none
            case .search(let query):
                return PrismEffect.send(.results(query)).debounce(id: SearchID(), for: .milliseconds(40), clock: clock)
            case .results(let query):
                state.log.append(query)
                return .none
            case .saveFlow:
                return .concatenate(
                    .send(.showLoading),
                    .run { [clock] send in
                        try await clock.sleep(for: .milliseconds(5))
                        send(.saved)
                    },
                    .send(.hideLoading)
                )
            case .showLoading:
                state.isLoading = true
                state.log.append("show")
                return .none
            case .saved:
                state.log.append("saved")
                return .none
            case .hideLoading:
                state.isLoading = false
                state.log.append("hide")
                return .none
            }
        }
    }

    /// A store whose timer ticks when the test yields to the continuation this returns.
    func makeTickingStore() -> (PrismStore<State, Action>, AsyncStream<Void>.Continuation) {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        return (makeStore(ticks: ticks), continuation)
    }

    /// A store of `Feature` whose waits are measured on `clock` (answered at once by default).
    func makeStore(
        ticks: AsyncStream<Void>? = nil,
        clock: any Clock<Duration> = ImmediateClock()
    ) -> PrismStore<State, Action> {
        PrismStore(initialState: State(), reducer: Feature(ticks: ticks)) {
            $0.continuousClock = clock
        }
    }

    @Test("awaiting the task a send returns waits for the effect's actions")
    func finishWaitsForEffects() async {
        let clock = TestClock()
        let store = makeStore(clock: clock)
        let task = store.send(.load)
        #expect(store.state.value == 0)
        await clock.advanceOnceAsleep(by: .milliseconds(5))
        await task.finish()
        #expect(store.state.value == 42)
    }

    @Test("a send whose effect is none returns a finished task")
    func noneIsFinished() {
        let store = makeStore()
        #expect(store.send(.tick).isFinished)
    }

    @Test("a long-running effect is cancelled by id, and sends nothing afterwards")
    func cancelById() async {
        let (store, continuation) = makeTickingStore()
        let timer = store.send(.start)
        continuation.yield()
        continuation.yield()
        while store.state.ticks < 2 { await Task.yield() }
        store.send(.stop)
        continuation.yield()
        await timer.finish()
        #expect(timer.isFinished)
        #expect(store.state.ticks == 2)
    }

    @Test("cancelling the task a send returned stops its effects")
    func cancelTheTask() async {
        let (store, _) = makeTickingStore()
        let timer = store.send(.start)
        timer.cancel()
        await timer.finish()
        #expect(timer.isCancelled)
    }

    @Test("cancelEffects(id:) cancels from outside a reducer")
    func cancelEffectsFromOutside() async {
        let (store, _) = makeTickingStore()
        let timer = store.send(.start)
        store.cancelEffects(id: TimerID())
        await timer.finish()
        #expect(timer.isFinished)
    }

    @Test("an error in run reaches its catch handler, which sends an action")
    func catchHandler() async {
        let store = makeStore()
        await store.send(.fail).finish()
        #expect(store.state.log == ["Offline()"])
    }

    @Test("an unhandled error reaches the store's handler with where the effect was created")
    func unhandledErrorHandler() async throws {
        struct Boom: Error {}
        let reported = LockedBox<[PrismEffectError]>([])
        let store = PrismStore(
            initialState: State(),
            reducer: PrismReduce<State, Action> { _, _ in
                .run { _ in throw Boom() }
            }
        )
        store.unhandledEffectErrorHandler = { error in reported.mutate { $0.append(error) } }
        await store.send(.load).finish()
        let error = try #require(reported.wrappedValue.first)
        #expect(error.underlying is Boom)
        #expect(error.fileID == #fileID)
    }

    @Test("debounce keeps only the last search of a burst")
    func debounce() async {
        let clock = TestClock()
        let store = makeStore(clock: clock)
        var tasks: [PrismEffectTask] = []
        for query in ["p", "pr", "pri", "prism"] {
            tasks.append(store.send(.search(query)))
            await clock.advanceOnceAsleep(by: .milliseconds(39))
        }
        #expect(store.state.log.isEmpty)
        await clock.advanceOnceAsleep(by: .milliseconds(1))
        for task in tasks { await task.finish() }
        #expect(store.state.log == ["prism"])
    }

    @Test("concatenate shows loading at once, then saves, then hides loading")
    func concatenateOrder() async {
        let store = makeStore()
        let task = store.send(.saveFlow)
        #expect(store.state.isLoading)
        await task.finish()
        #expect(store.state.log == ["show", "saved", "hide"])
        #expect(!store.state.isLoading)
    }

    @Test("effects started by actions that effects sent are covered by the first task")
    func transitiveFinish() async {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        await store.send(.sendLater(.sendLater(.sendLater(.increment)))).finish()
        #expect(store.state.count == 1)
    }

    @Test("a store that goes away cancels its running effects")
    func deinitCancels() async {
        let started = Gate()
        let cancelled = LockedBox(false)
        var store: PrismStore<State, Action>? = PrismStore(
            initialState: State(),
            reducer: PrismReduce<State, Action> { _, _ in
                PrismEffect.run { _ in
                    started.open()
                    do {
                        try await Task.sleep(for: .seconds(30))
                    } catch {
                        cancelled.mutate { $0 = true }
                    }
                }
                .cancellable(id: "forever")
            }
        )
        let task = store?.send(.load)
        await started.wait()
        store = nil
        await task?.finish()
        #expect(cancelled.wrappedValue)
    }

    @Test("effects are mapped into a parent feature's actions")
    func mappedChildEffects() async {
        enum Parent: Sendable {
            case child(CounterAction)
        }
        let store = PrismStore(
            initialState: Counter(),
            reducer: PrismReduce<Counter, Parent> { state, action in
                switch action {
                case .child(let action):
                    return CounterFeature().reduce(into: &state, action: action).map(Parent.child)
                }
            }
        )
        await store.send(.child(.sendLater(.set(7)))).finish()
        #expect(store.state.count == 7)
    }
}
