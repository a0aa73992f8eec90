import Observation
import PrismArchitecture

// MARK: Features under test

struct CounterState: Equatable, Sendable {
    var count = 0
}

enum CounterAction: Sendable {
    case increment
    case incrementLater
}

struct CounterReducer: PrismReducer {
    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .incrementLater:
            return .run { send in send(.increment) }
        }
    }
}

struct PassThroughMiddleware: PrismMiddleware {
    func run(state: CounterState, action: CounterAction) -> PrismEffect<CounterAction> { .none }
}

struct ListState: Equatable, Sendable {
    var children: [CounterState] = Array(repeating: CounterState(), count: 1_000)
}

enum ListAction: Sendable {
    case child(index: Int, action: CounterAction)
}

struct ListReducer: PrismReducer {
    func reduce(into state: inout ListState, action: ListAction) -> PrismEffect<ListAction> {
        switch action {
        case .child(let index, let action):
            return CounterReducer().reduce(into: &state.children[index], action: action)
                .map { ListAction.child(index: index, action: $0) }
        }
    }
}

// MARK: Baselines

/// The store everybody writes first: generic and `@Observable`. Its key path into a generic
/// class is built at run time on every registrar call.
@Observable
@MainActor
final class NaiveStore<State, Action> {
    var state: State
    @ObservationIgnored let reducer: (inout State, Action) -> Void

    init(state: State, reducer: @escaping (inout State, Action) -> Void) {
        self.state = state
        self.reducer = reducer
    }

    func send(_ action: Action) {
        reducer(&state, action)
    }
}

/// The least an observable counter can do: one registrar mutation on a constant key path.
final class MinimalObservable: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private var storage = 0

    var count: Int {
        registrar.access(self, keyPath: \.count)
        return storage
    }

    func increment() {
        registrar.withMutation(of: self, keyPath: \.count) { storage &+= 1 }
    }
}

final class Counter: @unchecked Sendable {
    var value = 0
}

// MARK: Benchmarks

/// The reducer, called through a function the optimizer cannot inline: the price of one call.
@MainActor
@inline(never)
func reduceOnce(_ reducer: CounterReducer, _ state: inout CounterState, _ action: CounterAction) -> Bool {
    reducer.reduce(into: &state, action: action).isNone
}

/// The baseline of the observer benchmarks: `sends` mutations of `MinimalObservable`, each
/// followed by the observer tracking it again.
@MainActor
func retrackMinimalObservable(sends: Int) {
    let model = MinimalObservable()
    let counter = Counter()
    @MainActor func track() {
        withObservationTracking {
            blackHole(model.count)
        } onChange: {
            counter.value += 1
        }
    }
    track()
    for _ in 0..<sends {
        model.increment()
        track()
    }
}

@MainActor
func storeBenchmarks() async -> [Result] {
    let sends = 1_000_000
    var results: [Result] = []

    // The bare send, also the baseline of several others.
    let bare = measure(operations: sends) {
        let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
        for _ in 0..<sends { store.send(.increment) }
        precondition(store.state.count == sends)
    }

    if selected("send, no middleware") {
        let reducer = CounterReducer()
        let plain = measure(operations: sends) {
            var state = CounterState()
            for _ in 0..<sends { blackHole(reduceOnce(reducer, &state, .increment)) }
            blackHole(state)
        }
        results.append(
            Result(
                name: "send, no middleware, nobody observing",
                timing: bare,
                baselineName: "reduce(into:action:), not inlined",
                baseline: plain,
                bar: .atMostNanoseconds(50)
            )
        )
    }

    if selected("naive") {
        let naiveSends = 20_000
        let naive = measure(operations: naiveSends) {
            let store = NaiveStore<CounterState, CounterAction>(state: CounterState()) { state, _ in
                state.count &+= 1
            }
            for _ in 0..<naiveSends { store.send(CounterAction.increment) }
            blackHole(store.state)
        }
        results.append(
            Result(
                name: "naive generic @Observable store (reference)",
                timing: naive,
                baselineName: "PrismStore send, nobody observing",
                baseline: bare,
                bar: .none
            )
        )
    }

    if selected("observer") {
        let observedSends = 100_000
        var notifications = 0
        let (observed, minimal) = measurePair(operations: observedSends) {
            let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
            let counter = Counter()
            @MainActor func track() {
                withObservationTracking {
                    blackHole(store.state.count)
                } onChange: {
                    counter.value += 1
                }
            }
            track()
            for _ in 0..<observedSends {
                store.send(.increment)
                track()
            }
            notifications = counter.value
        } against: {
            retrackMinimalObservable(sends: observedSends)
        }
        results.append(
            Result(
                name: "send with one re-tracking observer",
                timing: observed,
                baselineName: "non-generic Observable, 1 mutation",
                baseline: minimal,
                bar: .atMostRatio(1.25),
                note: "\(notifications) notifications / \(observedSends) sends"
            )
        )
    }

    if selected("member observer") {
        // What the observation article recommends a view read: one member, `store.count`.
        let observedSends = 100_000
        var notifications = 0
        let (member, minimal) = measurePair(operations: observedSends) {
            let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
            let counter = Counter()
            @MainActor func track() {
                withObservationTracking {
                    blackHole(store.count)
                } onChange: {
                    counter.value += 1
                }
            }
            track()
            for _ in 0..<observedSends {
                store.send(.increment)
                track()
            }
            notifications = counter.value
        } against: {
            retrackMinimalObservable(sends: observedSends)
        }
        results.append(
            Result(
                name: "send with one re-tracking member observer (store.count)",
                timing: member,
                baselineName: "non-generic Observable, 1 mutation",
                baseline: minimal,
                bar: .atMostRatio(1.15),
                note: "\(notifications) notifications / \(observedSends) sends"
            )
        )
    }

    if selected("middleware") {
        let built = measure(operations: sends) {
            let store = PrismStore(
                initialState: CounterState(),
                reducer: PrismCombineReducers {
                    CounterReducer()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                    PassThroughMiddleware()
                })
            for _ in 0..<sends { store.send(.increment) }
            precondition(store.state.count == sends)
        }
        results.append(
            Result(
                name: "send through 10 pass-through middleware (PrismCombineReducers block)",
                timing: built,
                baselineName: "send, no middleware",
                baseline: bare,
                bar: .atMostRatio(2)
            )
        )
        let erased = measure(operations: sends) {
            let store = PrismStore(
                initialState: CounterState(),
                reducer: CounterReducer(),
                middleware: Array(repeating: PassThroughMiddleware(), count: 10)
            )
            for _ in 0..<sends { store.send(.increment) }
            precondition(store.state.count == sends)
        }
        results.append(
            Result(
                name: "send through 10 pass-through middleware ([any])",
                timing: erased,
                baselineName: "send, no middleware",
                baseline: bare,
                bar: .none
            )
        )
    }

    if selected("scope") {
        // Every store of these rows is `held`, as an app's is: a store made and used in one
        // closure has its send inlined with the constant action (a root send measured so took
        // 5.6 ns against 11.5 ns held, on the 2-core machine of 2026-12-03).
        let rootSendOfDeepestAction: @MainActor () -> Void = {
            let store = held(PrismStore(initialState: Level0State(), reducer: Level0Reducer()))
            for _ in 0..<sends { store.send(deepestActionFromRoot) }
            blackHole(store.state)
        }
        // The same deepest store, scoped one level at a time and in one step.
        typealias ScopeDown =
            @MainActor (PrismStore<Level0State, Level0Action>) -> PrismStore<Level10State, Level10Action>
        let scopings: [(name: String, scopeDown: ScopeDown)] = [
            ("send from a store scoped 10 levels deep", scopeToDeepest),
            ("send from a store scoped 10 levels deep in one step", scopeInOneStep),
        ]
        let deepSends = scopings.map { name, scopeDown in
            let (child, root) = measurePair(
                operations: sends,
                {
                    let deepest = scopeDown(held(PrismStore(initialState: Level0State(), reducer: Level0Reducer())))
                    for _ in 0..<sends { deepest.send(.increment) }
                    precondition(deepest.state.count == sends)
                },
                against: rootSendOfDeepestAction
            )
            results.append(
                Result(
                    name: name,
                    timing: child,
                    baselineName: "root send of the same (wrapped) action",
                    baseline: root,
                    bar: .atMostRatio(2)
                )
            )
            return (child: child, root: root)
        }
        // A send and a read of the deep store's state: the read projects the root's changed
        // state down to the deepest level once.
        func sendAndRead(_ scopeDown: @escaping ScopeDown) -> @MainActor () -> Void {
            {
                let deepest = scopeDown(held(PrismStore(initialState: Level0State(), reducer: Level0Reducer())))
                var total = 0
                for _ in 0..<sends {
                    deepest.send(.increment)
                    total &+= deepest.state.count
                }
                blackHole(total)
            }
        }
        let (chainedRead, oneStepRead) = measurePair(
            operations: sends, sendAndRead(scopeToDeepest), against: sendAndRead(scopeInOneStep))
        results.append(
            Result(
                name: "send and state read, store scoped 10 levels deep",
                timing: chainedRead,
                baselineName: "the same, scoped in one step",
                baseline: oneStepRead,
                bar: .none
            )
        )
        let (childDeep, rootDeep) = deepSends[0]
        let chain = plainClosureChain()
        let (_, floor) = measurePair(operations: sends) {
            blackHole(0)
        } against: {
            var total = 0
            for _ in 0..<sends { total &+= chain(.increment) }
            blackHole(total)
        }
        results.append(
            Result(
                name: "send from a store scoped 10 levels deep",
                timing: childDeep,
                baselineName: "root send + 10 plain closure calls",
                baseline: Timing(
                    nanosecondsPerOperation: rootDeep.nanosecondsPerOperation + floor.nanosecondsPerOperation),
                bar: .none,
                note: "10-closure chain alone: \(floor.formatted.trimmingCharacters(in: .whitespaces))"
            )
        )
        // A feature's body, with its PrismScope, is built for every action: building and running
        // one costs about as much as the switch written by hand (1,061 ns before 2026-12, 146x).
        // Each scope checks whether the store is published to reducers that ask for it
        // (PrismStoreContext), besides extracting and embedding the child's action. Given only the
        // case (`action: Level0Action.child`), a scope reads the child's action by the enum's tag
        // and a table of how each case's payload is read.
        let nestings: [(name: String, bar: Result.Bar, send: @MainActor () -> Void)] = [
            (
                "root send through 10 nested PrismScope features", .atMostRatio(10),
                { sendDeepest(ScopedLevel0Feature()) }
            ),
            (
                "root send through 10 nested PrismScope(action: case) features", .none,
                { sendDeepest(CaseLevel0Feature()) }
            ),
        ]
        for nesting in nestings {
            let (composed, handWritten) = measurePair(operations: sends, nesting.send, against: rootSendOfDeepestAction)
            results.append(
                Result(
                    name: nesting.name,
                    timing: composed,
                    baselineName: "the same nesting written by hand (switch)",
                    baseline: handWritten,
                    bar: nesting.bar
                )
            )
        }

        /// Sends the deepest action `sends` times to a root store of `feature`.
        func sendDeepest<Feature: PrismReducer<Level0State, Level0Action>>(_ feature: Feature) {
            let store = held(PrismStore(initialState: Level0State(), reducer: feature))
            for _ in 0..<sends { store.send(deepestActionFromRoot) }
            precondition(store.state.child.child.child.child.child.child.child.child.child.child.count == sends)
        }
    }

    if selected("children") {
        let (thousandChildren, noChildren) = measurePair(operations: sends) {
            let store = PrismStore(initialState: ListState(), reducer: ListReducer())
            let children = (0..<1_000).map { index in
                store.scope(state: \.children[index], action: { ListAction.child(index: index, action: $0) })
            }
            for index in 0..<sends { store.send(.child(index: index % 1_000, action: .increment)) }
            blackHole(children)
        } against: {
            let store = PrismStore(initialState: ListState(), reducer: ListReducer())
            for index in 0..<sends { store.send(.child(index: index % 1_000, action: .increment)) }
            blackHole(store.state)
        }
        results.append(
            Result(
                name: "root send with 1,000 live scoped children",
                timing: thousandChildren,
                baselineName: "the same send with no children",
                baseline: noChildren,
                bar: .atMostRatio(2)
            )
        )
    }

    if selected("effects") {
        let effects = 10_000
        let roundTrips = await measureAsync(operations: effects) {
            let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
            var tasks: [PrismEffectTask] = []
            tasks.reserveCapacity(effects)
            for _ in 0..<effects { tasks.append(store.send(.incrementLater)) }
            for task in tasks { await task.finish() }
            precondition(store.state.count == effects)
        }
        results.append(
            Result(
                name: "10,000 .run effects, each sending one action back",
                timing: roundTrips,
                baselineName: nil,
                baseline: nil,
                bar: .atMostNanoseconds(10_000),
                note: "per round trip"
            )
        )
    }
    return results
}

/// Ten closures, each embedding an action one level up and calling the next, stored the way
/// scoped stores store them (in generic class properties): the least a 10-level scope chain
/// can cost.
final class ClosureLink<Action> {
    let call: (Action) -> Int

    init(_ call: @escaping (Action) -> Int) {
        self.call = call
    }
}

@inline(never)
func link<Parent, Child>(_ parent: ClosureLink<Parent>, _ embed: @escaping (Child) -> Parent) -> ClosureLink<Child> {
    let call = parent.call
    return ClosureLink { call(embed($0)) }
}

@inline(never)
func plainClosureChain() -> (Level10Action) -> Int {
    let counter = Counter()
    let root = ClosureLink<Level0Action> { action in
        if case .child = action { counter.value &+= 1 }
        return counter.value
    }
    let l1 = link(root, Level0Action.child)
    let l2 = link(l1, Level1Action.child)
    let l3 = link(l2, Level2Action.child)
    let l4 = link(l3, Level3Action.child)
    let l5 = link(l4, Level4Action.child)
    let l6 = link(l5, Level5Action.child)
    let l7 = link(l6, Level6Action.child)
    let l8 = link(l7, Level7Action.child)
    let l9 = link(l8, Level8Action.child)
    let l10 = link(l9, Level9Action.child)
    return l10.call
}
