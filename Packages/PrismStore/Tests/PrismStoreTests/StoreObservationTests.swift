import Observation
import PrismTestSupport
import Testing

@testable import PrismStore

@MainActor
@Suite("Observing a store")
struct StoreObservationTests {
    struct App: Equatable, Sendable {
        var counter = Counter()
        var title = ""
    }

    enum AppAction: Sendable {
        case counter(CounterAction)
        case retitle(String)
    }

    struct AppFeature: PrismReducer {
        func reduce(into state: inout App, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .counter(let action):
                return CounterFeature().reduce(into: &state.counter, action: action).map(AppAction.counter)
            case .retitle(let title):
                state.title = title
                return .none
            }
        }
    }

    @Test("an observer of state is notified exactly once per changing send")
    func oneNotificationPerChange() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let observer = ObservationCounter { _ = store.state.count }
        for _ in 0..<10 { store.send(.increment) }
        #expect(observer.count == 10)
    }

    @Test("an observer of the whole state is told once about every send, even one that changes nothing")
    func wholeStateObserversHearEverySend() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let observer = ObservationCounter { _ = store.state }
        store.send(.noop)
        store.send(.set(0))
        #expect(observer.count == 2)
        store.send(.set(1))
        #expect(observer.count == 3)
    }

    @Test("an observer of a member hears only about sends that change that member")
    func memberObserversHearTheirMemberOnly() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let countObserver = ObservationCounter { _ = store.count }
        let logObserver = ObservationCounter { _ = store.log }
        store.send(.noop)
        store.send(.set(0))
        store.send(.note("hello"))
        #expect(countObserver.count == 0)
        #expect(logObserver.count == 1)
        store.send(.set(4))
        store.send(.set(4))
        #expect(countObserver.count == 1)
        #expect(logObserver.count == 1)
        #expect(store.count == 4)
        #expect(store.log == ["hello"])
    }

    @Test("a member read after observers stopped looking gives the value now, however many sends came between")
    func memberReadAfterUnobservedSends() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let told = LockedBox(0)
        // Observes once, and does not read again when told: after the first change nobody
        // looks, and the sends that follow change the count unobserved.
        withObservationTracking {
            _ = store.count
        } onChange: {
            told.mutate { $0 += 1 }
        }
        store.send(.increment)
        #expect(told.wrappedValue == 1)
        store.send(.increment)
        store.send(.set(40))
        store.send(.increment)
        #expect(store.count == 41)
        store.replaceState(with: Counter(count: 7, log: []))
        #expect(store.count == 7)
    }

    @Test("members read in turn, through key paths made in different places, each notify only their own observers")
    func membersReadInTurn() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let countPath: KeyPath<Counter, Int> = \.count
        let countObserver = ObservationCounter { _ = store.count }
        let samePathObserver = ObservationCounter { _ = store[dynamicMember: countPath] }
        let logObserver = ObservationCounter { _ = store.log }
        for value in 1...5 {
            store.send(.set(value))
            #expect(store.count == value)
            #expect(store[dynamicMember: countPath] == value)
            #expect(store.log.count == value - 1)
            store.send(.note("\(value)"))
        }
        #expect(countObserver.count == 5)
        #expect(samePathObserver.count == 5)
        #expect(logObserver.count == 5)
    }

    @Test("an observer of a member that is not Equatable hears about every send")
    func nonEquatableMemberObserversHearEverySend() {
        struct Token: Sendable { var value = 0 }
        struct Holder: Sendable, Equatable {
            var token = Token()
            var other = 0
            static func == (lhs: Holder, rhs: Holder) -> Bool { lhs.other == rhs.other }
        }
        let store = makeSettingStore(Holder()) { $0.other = $1 }
        let observer = ObservationCounter { _ = store.token.value }
        store.send(1)
        store.send(1)
        #expect(observer.count == 2)
    }

    @Test("members at no fixed place in the state (computed, behind a class) notify like stored ones")
    func membersWithoutAnOffset() {
        final class Box: Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        struct Holder: Sendable {
            var box = Box(0)
            var other = 0
            var doubled: Int { other * 2 }
        }
        let store = PrismStore(
            initialState: Holder(),
            reducer: PrismReduce<Holder, Int> { state, value in
                if value < 0 { state.box = Box(-value) } else { state.other = value }
                return .none
            })
        #expect(MemoryLayout<Holder>.offset(of: \Holder.box.value) == nil)
        #expect(MemoryLayout<Holder>.offset(of: \Holder.doubled) == nil)
        // One key path through the class (`store.box.value` would observe `box`, not Equatable).
        let boxPath: KeyPath<Holder, Int> = \.box.value
        let boxed = ObservationCounter { _ = store[dynamicMember: boxPath] }
        let doubled = ObservationCounter { _ = store.doubled }
        store.send(3)
        store.send(3)
        #expect(doubled.count == 1)
        #expect(boxed.count == 0)
        store.send(-5)
        store.send(-5)
        #expect(boxed.count == 1)
        #expect(doubled.count == 1)
        #expect(store[dynamicMember: boxPath] == 5)
        #expect(store.doubled == 6)
    }

    @Test("a member deep in the state, read through one key path, notifies only its own observers")
    func nestedStoredMembers() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let countPath: KeyPath<App, Int> = \.counter.count
        let logPath: KeyPath<App, [String]> = \.counter.log
        let count = ObservationCounter { _ = store[dynamicMember: countPath] }
        let log = ObservationCounter { _ = store[dynamicMember: logPath] }
        store.send(.retitle("a"))
        store.send(.counter(.set(2)))
        store.send(.counter(.set(2)))
        #expect(count.count == 1)
        #expect(log.count == 0)
        store.send(.counter(.note("n")))
        #expect(log.count == 1)
        #expect(store[dynamicMember: countPath] == 2)
        #expect(store[dynamicMember: logPath] == ["n"])
    }

    @Test("a member told about a change and not read again stops being checked at the next send")
    func unreadMembersLeaveTheWatchList() throws {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let root = try #require(store.rootCore)
        let told = LockedBox(0)
        withObservationTracking {
            _ = store.count
        } onChange: {
            told.mutate { $0 += 1 }
        }
        #expect(root.observation.watchers.count == 1)
        // Read again and again between sends: listed once.
        for _ in 0..<5 { _ = store.count }
        #expect(root.observation.watchers.count == 1)
        store.send(.increment)
        #expect(told.wrappedValue == 1)
        // Told and not read since: still listed until the next send finds it unread.
        #expect(root.observation.watchers.count == 1)
        store.send(.increment)
        #expect(root.observation.watchers.isEmpty)
        #expect(root.needsObservation == false)
        // Read again: listed again, and told about the next change.
        let observer = ObservationCounter { _ = store.count }
        #expect(root.observation.watchers.count == 1)
        store.send(.noop)
        store.send(.increment)
        #expect(observer.count == 1)
        #expect(root.observation.watchers.count == 1)
        #expect(store.count == 3)
    }

    @Test("a member read outside any observation does not change what later sends do")
    func memberReadsOutsideObservation() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        #expect(store.count == 0)
        for _ in 0..<5 { store.send(.increment) }
        #expect(store.count == 5)
        store.send(.note("a"))
        #expect(store.log == ["a"])
    }

    @Test("with state that is not Equatable, every send notifies an observer")
    func nonEquatableStateAlwaysNotifies() {
        struct Box: Sendable { var value = 0 }
        let store = makeSettingStore(Box()) { $0.value = $1 }
        let observer = ObservationCounter { _ = store.state.value }
        store.send(1)
        store.send(1)
        #expect(observer.count == 2)
        #expect(store.state.value == 1)
    }

    @Test("a change notifies an observer of the whole state before the state changes, like every Observable")
    func notifiedBeforeChange() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let seen = countsReadOnChange { store.state.count }
        store.send(.set(5))
        #expect(seen.wrappedValue == [0])
        #expect(store.state.count == 5)
    }

    @Test("replaceState notifies observers")
    func replaceStateNotifies() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let observer = ObservationCounter { _ = store.state }
        store.replaceState(with: Counter(count: 3))
        #expect(observer.count == 1)
    }

    @Test("observers of a scoped store hear about changes of the child state only")
    func scopedObservation() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let counter = store.scope(state: \.counter, action: AppAction.counter)
        let childObserver = ObservationCounter { _ = counter.state }
        let rootObserver = ObservationCounter { _ = store.state }
        store.send(.retitle("Hello"))
        #expect(childObserver.count == 0)
        #expect(rootObserver.count == 1)
        counter.send(.increment)
        #expect(childObserver.count == 1)
        #expect(rootObserver.count == 2)
        #expect(counter.state.count == 1)
    }

    @Test("observers of a store scoped twice hear about their own state only")
    func deepScopedObservation() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let counter = store.scope(state: \.counter, action: AppAction.counter)
        let log = counter.scope(state: \.log, action: { (action: CounterAction) in action })
        let observer = ObservationCounter { _ = log.state }
        counter.send(.increment)
        counter.send(.increment)
        #expect(observer.count == 0)
        counter.send(.note("changed"))
        #expect(observer.count == 1)
        #expect(log.state == ["changed"])
    }

    @Test("a sent action still notifies after an observer re-tracks through many changes")
    func observationSurvivesManyChanges() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let counter = store.scope(state: \.counter, action: AppAction.counter)
        let observer = ObservationCounter { _ = counter.state.count }
        for round in 1...50 {
            store.send(.retitle("\(round)"))
            counter.send(.increment)
        }
        #expect(observer.count == 50)
    }

    @Test("an observer of a scoped store is told after the change and reads the new state")
    func scopedObserversReadTheNewState() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let counter = store.scope(state: \.counter, action: AppAction.counter)
        let seen = countsReadOnChange { counter.state.count }
        counter.send(.set(5))
        #expect(seen.wrappedValue == [5])
    }

    @Test("releasing a store whose members, scopes and derived values were read frees it")
    func releasedStoresAreFreed() {
        weak var released: PrismStore<App, AppAction>?
        do {
            let store = PrismStore(initialState: App(), reducer: AppFeature())
            released = store
            let counter = store.scope(state: \.counter, action: AppAction.counter)
            let title = store.derive { $0.title }
            _ = ObservationCounter { _ = store.title }
            _ = ObservationCounter { _ = counter.count }
            _ = ObservationCounter { _ = title.value }
            store.send(.retitle("x"))
            counter.send(.increment)
        }
        #expect(released == nil)
    }

    @Test("a derived store keeps its store alive and follows it")
    func derivedStoresKeepTheirStore() {
        let derived: PrismDerivedStore<App, String>
        do {
            let store = PrismStore(initialState: App(), reducer: AppFeature())
            store.send(.retitle("kept"))
            derived = store.derive { $0.title }
        }
        #expect(derived.value == "kept")
    }
}

/// A store whose action, an `Int`, is written into its state by `write`.
@MainActor
func makeSettingStore<State: Sendable>(
    _ initialState: State,
    _ write: @escaping @MainActor @Sendable (inout State, Int) -> Void
) -> PrismStore<State, Int> {
    PrismStore(
        initialState: initialState,
        reducer: PrismReduce<State, Int> { state, value in
            write(&state, value)
            return .none
        })
}

/// Tracks what `read` reads, once; what `read` returns when the observation is told of a change
/// (for a store, the state it reads then: before or after the change).
@MainActor
func countsReadOnChange(_ read: @escaping @MainActor () -> Int) -> LockedBox<[Int]> {
    let seen = LockedBox<[Int]>([])
    withObservationTracking {
        _ = read()
    } onChange: {
        MainActor.assumeIsolated { seen.mutate { $0.append(read()) } }
    }
    return seen
}
