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

    /// Asks for its store on every action until it finds it, then notes what it read there and
    /// every state the app replaces.
    final class StoreFinder: PrismMiddleware, @unchecked Sendable {  // main actor only
        let name: String
        let journal: Journal
        var found: PrismStoreContext<Counter>?
        var asked = 0

        init(name: String, journal: Journal) {
            self.name = name
            self.journal = journal
        }

        func run(state: Counter, action: CounterAction) -> PrismEffect<CounterAction> {
            guard found == nil else { return .none }
            asked += 1
            guard let store = PrismStoreContext.current(for: state) else { return .none }
            found = store
            journal.write("\(name) found its store at \(store.read()?.count ?? -1)")
            store.onStateReplaced { [name, journal] in journal.write("\(name) heard a replaced state at \($0.count)") }
            return .none
        }
    }

    @Test(
        "middleware inside combined reducers, handling(with:), an if, an if/else and a for finds its store on the first action and hears replaced states"
    )
    func middlewareInsideComposedReducersFindsItsStore() {
        let journal = Journal()
        let flag = true
        let names = ["loop1", "loop2"]
        let finders = ["line", "if", "then", "loop1", "loop2"].map { StoreFinder(name: $0, journal: journal) }
        let store = PrismStore(
            initialState: Counter(count: 3),
            reducer: PrismCombineReducers {
                CounterFeature()
                finders[0]
                if flag {
                    PrismEmptyReducer<Counter, CounterAction>().handling(with: finders[1])
                }
                if flag {
                    PrismEmptyReducer<Counter, CounterAction>().handling(with: finders[2])
                } else {
                    CounterFeature()
                }
                for (index, _) in names.enumerated() {
                    PrismEmptyReducer<Counter, CounterAction>().handling(with: finders[3 + index])
                }
            }
        )
        #expect(journal.all.isEmpty)
        store.send(.increment)
        #expect(
            journal.all == [
                "line found its store at 4", "if found its store at 4", "then found its store at 4",
                "loop1 found its store at 4", "loop2 found its store at 4",
            ])
        #expect(finders.allSatisfy { $0.asked == 1 })
        store.replaceState(with: Counter(count: 9))
        #expect(
            Array(journal.all.dropFirst(5)) == [
                "line heard a replaced state at 9", "if heard a replaced state at 9",
                "then heard a replaced state at 9",
                "loop1 heard a replaced state at 9", "loop2 heard a replaced state at 9",
            ])
        // The store is what they read, from now on.
        store.send(.increment)
        #expect(finders.allSatisfy { $0.found?.read()?.count == 10 })
    }

    @Test("an erased reducer, an if #available block and a feature's body hide nothing from the middleware in them")
    func middlewareFindsItsStoreThroughErasure() {
        let journal = Journal()
        let erased = StoreFinder(name: "erased", journal: journal)
        let available = StoreFinder(name: "available", journal: journal)
        let store = PrismStore(
            initialState: Counter(count: 1),
            reducer: PrismCombineReducers {
                CounterFeature().handling(with: erased).eraseToReduce()
                if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
                    available
                }
            }
        )
        store.send(.increment)
        store.replaceState(with: Counter(count: 5))
        #expect(
            journal.all == [
                "erased found its store at 2", "available found its store at 2", "erased heard a replaced state at 5",
                "available heard a replaced state at 5",
            ])
    }

    /// A feature that keeps its middleware in a property and lists it in its body.
    struct RecordedFeature: PrismFeature {
        typealias State = Counter
        typealias Action = CounterAction
        let recorder: StoreFinder

        var body: some PrismReducer<Counter, CounterAction> {
            CounterFeature()
            recorder
        }
    }

    @Test("a feature's body hides nothing from the middleware it lists")
    func middlewareInAFeatureBodyFindsItsStore() {
        let journal = Journal()
        let store = PrismStore(
            initialState: Counter(count: 2),
            reducer: RecordedFeature(recorder: StoreFinder(name: "feature", journal: journal))
        )
        store.send(.increment)
        store.replaceState(with: Counter(count: 7))
        #expect(journal.all == ["feature found its store at 3", "feature heard a replaced state at 7"])
    }

    @Test("a closure of the app's that runs the middleware on a value of its own making gets no store")
    func aCombinatorOfTheAppsCannotLendTheStore() {
        let journal = Journal()
        let finder = StoreFinder(name: "borrowed", journal: journal)
        // Same type as the store's state, but not the store's value: the middleware must not
        // take the store's state for the value it was given.
        let store = PrismStore(
            initialState: Counter(count: 1),
            reducer: PrismReduce<Counter, CounterAction> { state, action in
                var scratch = Counter(count: 100, log: ["scratch"])
                return finder.reduce(into: &scratch, action: action)
            }
        )
        for _ in 0..<3 { store.send(.increment) }
        #expect(finder.found == nil)
        #expect(finder.asked == 3)
        store.replaceState(with: Counter(count: 5))
        #expect(journal.all.isEmpty)
    }

    @Test("a middleware of a store that another store's reducer sends to finds its own store")
    func nestedStoresEachFindTheirOwn() {
        let journal = Journal()
        let inner = PrismStore(
            initialState: Counter(count: 40),
            reducer: CounterFeature(),
            middleware: StoreFinder(name: "inner", journal: journal)
        )
        let outerFinder = StoreFinder(name: "outer", journal: journal)
        let outer = PrismStore(
            initialState: Counter(count: 0),
            reducer: PrismCombineReducers {
                PrismReduce<Counter, CounterAction> { _, _ in
                    inner.send(.increment)
                    return .none
                }
                CounterFeature()
                outerFinder
            }
        )
        outer.send(.increment)
        #expect(journal.all == ["inner found its store at 41", "outer found its store at 1"])
        inner.replaceState(with: Counter(count: 7))
        outer.replaceState(with: Counter(count: 8))
        #expect(
            Array(journal.all.dropFirst(2)) == [
                "inner heard a replaced state at 7", "outer heard a replaced state at 8",
            ])
    }

    @Test("a middleware first run on a store made long before still finds it, on its second action")
    func aLateMiddlewareFindsItsStore() {
        let journal = Journal()
        let finder = StoreFinder(name: "late", journal: journal)
        let store = PrismStore(
            initialState: Counter(),
            reducer: PrismCombineReducers {
                CounterFeature()
                PrismReduce<Counter, CounterAction> { state, action in
                    // Runs the middleware from the third action on.
                    state.count >= 3 ? finder.reduce(into: &state, action: action) : .none
                }
            }
        )
        for _ in 0..<4 { store.send(.increment) }
        #expect(finder.asked == 2)
        #expect(journal.all == ["late found its store at 4"])
    }

    struct Parent: Sendable {
        var child = Counter()
        var other = 0
    }

    enum ParentAction: Sendable {
        case child(CounterAction)
        case other
    }

    @Test("a scope shows the middleware of its child the child's part of the store")
    func middlewareInsideAScopeSeesItsPart() {
        let journal = Journal()
        let child = StoreFinder(name: "child", journal: journal)
        let store = PrismStore(
            initialState: Parent(child: Counter(count: 4)),
            reducer: PrismScope(
                state: \Parent.child,
                action: { ParentAction.child($0) },
                toChildAction: { if case .child(let action) = $0 { action } else { nil } }
            ) {
                CounterFeature()
                child
            }
        )
        store.send(.child(.increment))
        var replaced = store.state
        replaced.child.count = 11
        store.replaceState(with: replaced)
        #expect(journal.all == ["child found its store at 5", "child heard a replaced state at 11"])
        #expect(child.found?.read()?.count == 11)
    }

    struct OptionalParent: Sendable {
        var child: Counter? = Counter(count: 1)
    }

    @Test("ifLet shows the middleware of its child no store: it keeps what run gives it, and hears no replacement")
    func middlewareInsideAnIfLetFindsNoStore() {
        let journal = Journal()
        let child = StoreFinder(name: "child", journal: journal)
        let store = PrismStore(
            initialState: OptionalParent(),
            reducer: PrismEmptyReducer<OptionalParent, ParentAction>().ifLet(
                \.child,
                action: { ParentAction.child($0) },
                toChildAction: { if case .child(let action) = $0 { action } else { nil } }
            ) {
                CounterFeature()
                child
            }
        )
        for _ in 0..<3 { store.send(.child(.increment)) }
        #expect(child.asked == 3)
        #expect(child.found == nil)
        store.replaceState(with: OptionalParent(child: Counter(count: 9)))
        #expect(journal.all.isEmpty)
        #expect(store.state.child?.count == 9)
    }
}
