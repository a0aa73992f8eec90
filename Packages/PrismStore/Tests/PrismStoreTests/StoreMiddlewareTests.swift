import Testing

@testable import PrismStore

@MainActor
@Suite("Middleware")
struct StoreMiddlewareTests {
    /// Records what every middleware saw, in order.
    final class Journal: @unchecked Sendable {
        let entries = LockedBox<[String]>([])
        func write(_ entry: String) { entries.mutate { $0.append(entry) } }
        var all: [String] { entries.wrappedValue }
    }

    struct Recorder: PrismMiddleware {
        let name: String
        let journal: Journal

        func run(state: Counter, action: CounterAction) -> PrismEffect<CounterAction> {
            journal.write("\(name) saw \(action) at \(state.count)")
            return .none
        }
    }

    @Test("middleware runs after the reducer and sees the new state")
    func seesNewState() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Counter(),
            reducer: CounterFeature(),
            middleware: Recorder(name: "m", journal: journal)
        )
        store.send(.increment)
        store.send(.set(10))
        #expect(journal.all == ["m saw increment at 1", "m saw set(10) at 10"])
    }

    @Test("middleware effects run, and their actions go through the reducer and the middleware")
    func middlewareEffects() async {
        let journal = Journal()
        let echo = PrismSideEffect<Counter, CounterAction> { state, action in
            journal.write("\(action)")
            if case .note = action { return .none }
            return .run { send in send(.note("after \(action)")) }
        }
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature(), middleware: echo)
        await store.send(.increment).finish()
        #expect(store.state.log == ["after increment"])
        #expect(journal.all == ["increment", "note(\"after increment\")"])
    }

    @Test("middleware listed after the reducer in a PrismCombineReducers block runs in the order written")
    func builderOrder() {
        let journal = Journal()
        let includeThird = true
        let store = PrismStore(
            initialState: Counter(),
            reducer: PrismCombineReducers {
                CounterFeature()
                Recorder(name: "first", journal: journal)
                Recorder(name: "second", journal: journal)
                if includeThird {
                    Recorder(name: "third", journal: journal)
                }
            }
        )
        store.send(.increment)
        #expect(journal.all == ["first saw increment at 1", "second saw increment at 1", "third saw increment at 1"])
    }

    @Test("a block takes either branch of an if/else of middleware")
    func builderEither() {
        let journal = Journal()
        for verbose in [true, false] {
            let store = PrismStore(
                initialState: Counter(),
                reducer: PrismCombineReducers {
                    CounterFeature()
                    if verbose {
                        Recorder(name: "verbose", journal: journal)
                    } else {
                        Recorder(name: "quiet", journal: journal)
                    }
                }
            )
            store.send(.noop)
        }
        #expect(journal.all == ["verbose saw noop at 0", "quiet saw noop at 0"])
    }

    @Test("middleware is a reducer placed after the one it follows: it sees the state the reducers before it left")
    func middlewareSeesTheStateOfItsPlace() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Counter(),
            reducer: PrismCombineReducers {
                Recorder(name: "before", journal: journal)
                CounterFeature()
                Recorder(name: "between", journal: journal)
                CounterFeature()
                Recorder(name: "after", journal: journal)
            }
        )
        store.send(.increment)
        #expect(store.state.count == 2)
        #expect(journal.all == ["before saw increment at 0", "between saw increment at 1", "after saw increment at 2"])

        var state = Counter(count: 4)
        let effect = Recorder(name: "alone", journal: journal).reduce(into: &state, action: .increment)
        #expect(effect.isNone)
        #expect(state.count == 4)
        #expect(journal.all.last == "alone saw increment at 4")
    }

    @Test("an array of middleware runs each in order")
    func arrayOfMiddleware() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Counter(),
            reducer: CounterFeature(),
            middleware: [Recorder(name: "a", journal: journal), Recorder(name: "b", journal: journal)]
        )
        store.send(.decrement)
        #expect(journal.all == ["a saw decrement at -1", "b saw decrement at -1"])
    }

    @Test("handling(with:) combines a reducer with middleware into one reducer")
    func handlingWith() {
        let journal = Journal()
        let combined = CounterFeature().handling(with: Recorder(name: "h", journal: journal))
        let store = PrismStore(initialState: Counter(), reducer: combined)
        store.send(.increment)
        #expect(store.state.count == 1)
        #expect(journal.all == ["h saw increment at 1"])
    }

    @Test("PrismSideEffect.none does nothing and combine runs every side effect")
    func sideEffectCombinators() async {
        let journal = Journal()
        let combined = PrismSideEffect<Counter, CounterAction>.combine(
            .none,
            PrismSideEffect { _, action in
                journal.write("log \(action)")
                return .none
            },
            PrismSideEffect { _, action in
                guard action == .increment else { return .none }
                return .run { send in send(.note("tracked")) }
            }
        )
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature(), middleware: combined)
        await store.send(.increment).finish()
        #expect(journal.all == ["log increment", "log note(\"tracked\")"])
        #expect(store.state.log == ["tracked"])
        #expect(PrismSideEffect<Counter, CounterAction>.none.run(state: Counter(), action: .increment).isNone)
    }

    /// Hears the store's hooks: replaced states and the store's attachment.
    struct HookRecorder: PrismMiddleware {
        let name: String
        let journal: Journal

        func run(state: Counter, action: CounterAction) -> PrismEffect<CounterAction> { .none }

        func stateReplaced(_ state: Counter) {
            journal.write("\(name) heard a replaced state at \(state.count)")
        }

        func storeAttached(reading currentState: @escaping @MainActor () -> Counter?) {
            journal.write("\(name) attached at \(currentState()?.count ?? -1)")
        }
    }

    @Test(
        "middleware attached with handling(with:) inside combined reducers, an if, an if/else and a for hears replaced states and the store's attachment"
    )
    func hooksReachMiddlewareInsideComposedReducers() {
        let journal = Journal()
        let flag = true
        let names = ["loop1", "loop2"]
        let store = PrismStore(
            initialState: Counter(count: 3),
            reducer: PrismCombineReducers {
                CounterFeature()
                HookRecorder(name: "line", journal: journal)
                if flag {
                    PrismEmptyReducer<Counter, CounterAction>()
                        .handling(with: HookRecorder(name: "if", journal: journal))
                }
                if flag {
                    PrismEmptyReducer<Counter, CounterAction>()
                        .handling(with: HookRecorder(name: "then", journal: journal))
                } else {
                    CounterFeature()
                }
                for name in names {
                    PrismEmptyReducer<Counter, CounterAction>()
                        .handling(with: HookRecorder(name: name, journal: journal))
                }
            }
        )
        #expect(
            journal.all == [
                "line attached at 3", "if attached at 3", "then attached at 3", "loop1 attached at 3",
                "loop2 attached at 3",
            ])
        store.replaceState(with: Counter(count: 9))
        #expect(
            Array(journal.all.dropFirst(5)) == [
                "line heard a replaced state at 9", "if heard a replaced state at 9",
                "then heard a replaced state at 9",
                "loop1 heard a replaced state at 9", "loop2 heard a replaced state at 9",
            ])
    }

    @Test("an erased reducer and an if #available block pass replaced states and the store's attachment on")
    func hooksReachMiddlewareThroughErasure() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Counter(count: 1),
            reducer: PrismCombineReducers {
                CounterFeature()
                    .handling(with: HookRecorder(name: "erased", journal: journal))
                    .eraseToReduce()
                if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
                    HookRecorder(name: "available", journal: journal)
                }
            }
        )
        store.replaceState(with: Counter(count: 5))
        #expect(
            journal.all == [
                "erased attached at 1", "available attached at 1", "erased heard a replaced state at 5",
                "available heard a replaced state at 5",
            ])
    }

    /// A feature that keeps its middleware in a property and lists it in its body.
    struct RecordedFeature: PrismFeature {
        typealias State = Counter
        typealias Action = CounterAction
        let recorder: HookRecorder

        var body: some PrismReducer<Counter, CounterAction> {
            CounterFeature()
            recorder
        }
    }

    @Test("a feature's body passes replaced states and the store's attachment on to the middleware it lists")
    func hooksReachMiddlewareInAFeatureBody() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Counter(count: 2),
            reducer: RecordedFeature(recorder: HookRecorder(name: "feature", journal: journal))
        )
        store.send(.increment)
        store.replaceState(with: Counter(count: 7))
        #expect(journal.all == ["feature attached at 2", "feature heard a replaced state at 7"])
    }

    struct Parent: Sendable {
        var child = Counter()
        var other = 0
    }

    enum ParentAction: Sendable {
        case child(CounterAction)
        case other
    }

    @Test("a scope passes its part of a replaced state, and a reader of its part, to the middleware of its child")
    func hooksReachMiddlewareInsideAScope() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Parent(child: Counter(count: 4)),
            reducer: PrismScope(
                state: \Parent.child,
                action: { ParentAction.child($0) },
                toChildAction: { if case .child(let action) = $0 { action } else { nil } }
            ) {
                CounterFeature()
                HookRecorder(name: "child", journal: journal)
            }
        )
        store.send(.child(.increment))
        var replaced = store.state
        replaced.child.count = 11
        store.replaceState(with: replaced)
        #expect(journal.all == ["child attached at 4", "child heard a replaced state at 11"])
    }
}
