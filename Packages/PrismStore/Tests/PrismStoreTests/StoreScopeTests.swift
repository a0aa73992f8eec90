import Testing

@testable import PrismStore

@MainActor
@Suite("Scoped stores")
struct StoreScopeTests {
    struct Profile: Equatable, Sendable {
        var name = ""
        var edits = 0
    }

    enum ProfileAction: Equatable, Sendable {
        case rename(String)
    }

    struct App: Equatable, Sendable {
        var profile = Profile()
        var counter = Counter()
        var launches = 0
    }

    enum AppAction: Equatable, Sendable {
        case profile(ProfileAction)
        case counter(CounterAction)
        case launched
    }

    struct AppFeature: PrismReducer {
        func reduce(into state: inout App, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .profile(.rename(let name)):
                state.profile.name = name
                state.profile.edits += 1
                return .none
            case .counter(let action):
                return CounterFeature().reduce(into: &state.counter, action: action).map(AppAction.counter)
            case .launched:
                state.launches += 1
                return .none
            }
        }
    }

    @Test("a child's state follows the parent and its sends flow up through the parent's action")
    func stateFollowsAndActionsFlowUp() {
        let received = LockedBox<[AppAction]>([])
        let store = PrismStore(
            initialState: App(),
            reducer: AppFeature(),
            middleware: PrismSideEffect { _, action in
                received.mutate { $0.append(action) }
                return .none
            }
        )
        let profile: PrismStore<Profile, ProfileAction> = store.scope(state: \.profile, action: AppAction.profile)
        profile.send(.rename("Ada"))
        #expect(profile.state.name == "Ada")
        #expect(store.state.profile.name == "Ada")
        #expect(received.wrappedValue == [.profile(.rename("Ada"))])
        store.send(.profile(.rename("Grace")))
        #expect(profile.state.name == "Grace")
    }

    @Test("scopes of scopes reach the root")
    func nestedScopes() async {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let counter = store.scope(state: \.counter, action: AppAction.counter)
        let count = counter.scope(state: \.count, action: { (action: CounterAction) in action })
        count.send(.increment)
        count.send(.increment)
        #expect(count.state == 2)
        await count.send(.sendLater(.set(9))).finish()
        #expect(store.state.counter.count == 9)
    }

    @Test("a child scoped with a closure computes its state")
    func closureScope() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let summary = store.scope(state: { "\($0.profile.name) x\($0.profile.edits)" }, action: AppAction.profile)
        summary.send(.rename("Lin"))
        #expect(summary.state == "Lin x1")
    }

    @Test("replaceState on a child scoped with a writable key path writes through to the parent")
    func replaceStateWritesThrough() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let counter = store.scope(state: \.counter, action: AppAction.counter)
        let count = counter.scope(state: \.count, action: { (action: CounterAction) in action })
        count.replaceState(with: 123)
        #expect(store.state.counter.count == 123)
        counter.replaceState(with: Counter(count: 1, log: ["x"]))
        #expect(store.state.counter == Counter(count: 1, log: ["x"]))
        #expect(store.state.launches == 0)
    }

    // Three levels of state, scoped one level at a time: every level by a writable key path
    // (composed into one), with a get-only key path or a closure on the way (not composed).
    struct Inner: Equatable, Sendable {
        var value = 0
        var note = ""
    }

    struct Middle: Equatable, Sendable {
        var inner = Inner()
        var other = 0
        var innerCopy: Inner { inner }
    }

    struct Outer: Equatable, Sendable {
        var middle = Middle()
        var sibling = 0
    }

    enum InnerAction: Equatable, Sendable {
        case add(Int)
        case note(String)
    }

    enum MiddleAction: Equatable, Sendable {
        case inner(InnerAction)
        case other
    }

    enum OuterAction: Equatable, Sendable {
        case middle(MiddleAction)
        case sibling
    }

    struct OuterFeature: PrismReducer {
        func reduce(into state: inout Outer, action: OuterAction) -> PrismEffect<OuterAction> {
            switch action {
            case .middle(.inner(.add(let amount))): state.middle.inner.value += amount
            case .middle(.inner(.note(let note))): state.middle.inner.note = note
            case .middle(.other): state.middle.other += 1
            case .sibling: state.sibling += 1
            }
            return .none
        }
    }

    /// The stores of `Inner` and of its `value`, scoped a level at a time from `store`: through
    /// `middle` and `inner` when given, else through closures.
    static func innermost(
        _ store: PrismStore<Outer, OuterAction>,
        middle: KeyPath<Outer, Middle>?,
        inner: KeyPath<Middle, Inner>?
    ) -> (inner: PrismStore<Inner, InnerAction>, value: PrismStore<Int, InnerAction>) {
        let middleStore =
            middle.map { store.scope(state: $0, action: OuterAction.middle) }
            ?? store.scope(state: { $0.middle }, action: OuterAction.middle)
        let innerStore =
            inner.map { middleStore.scope(state: $0, action: MiddleAction.inner) }
            ?? middleStore.scope(state: { $0.inner }, action: MiddleAction.inner)
        return (innerStore, innerStore.scope(state: \.value, action: { $0 }))
    }

    /// How the last two levels above the value are scoped.
    enum Levels: String, CaseIterable, Sendable {
        case writableKeyPaths = "writable key paths"
        case getOnlyKeyPath = "a get-only key path"
        case closure = "a closure"
        case closures = "closures"

        var middle: KeyPath<Outer, Middle>? { self == .closure || self == .closures ? nil : \.middle }
        var inner: KeyPath<Middle, Inner>? {
            switch self {
            case .writableKeyPaths, .closure: \.inner
            case .getOnlyKeyPath: \.innerCopy
            case .closures: nil
            }
        }
    }

    @Test(
        "a store scoped a level at a time reads, observes and writes through every kind of level",
        arguments: Levels.allCases)
    func scopedLevelByLevel(_ levels: Levels) {
        let kind = levels.rawValue
        let store = PrismStore(initialState: Outer(), reducer: OuterFeature())
        let (innerStore, valueStore) = Self.innermost(store, middle: levels.middle, inner: levels.inner)
        let valueChanges = ObservationCounter { _ = valueStore.state }
        valueStore.send(.add(2))
        innerStore.send(.note("a"))
        #expect(valueStore.state == 2, "\(kind)")
        #expect(innerStore.state == Inner(value: 2, note: "a"), "\(kind)")
        // Changes beside the value are not the value's observers' business.
        store.send(.sibling)
        store.send(.middle(.other))
        innerStore.send(.note("b"))
        #expect(valueChanges.count == 1, "\(kind)")
        store.send(.middle(.inner(.add(3))))
        #expect(valueStore.state == 5, "\(kind)")
        #expect(valueChanges.count == 2, "\(kind)")
        #expect(store.state == Outer(middle: Middle(inner: Inner(value: 5, note: "b"), other: 1), sibling: 1))
    }

    @Test("replaceState three levels down, scoped a level at a time by key paths, changes that level only")
    func replaceStateThreeLevelsDown() {
        let store = PrismStore(initialState: Outer(), reducer: OuterFeature())
        store.send(.sibling)
        store.send(.middle(.other))
        let (innerStore, valueStore) = Self.innermost(store, middle: \.middle, inner: \.inner)
        innerStore.send(.note("kept"))
        valueStore.replaceState(with: 41)
        #expect(store.state == Outer(middle: Middle(inner: Inner(value: 41, note: "kept"), other: 1), sibling: 1))
        innerStore.replaceState(with: Inner(value: 7, note: "new"))
        #expect(valueStore.state == 7)
        #expect(store.state == Outer(middle: Middle(inner: Inner(value: 7, note: "new"), other: 1), sibling: 1))
    }

    struct Shelf: Equatable, Sendable {
        var items = [Inner(value: 1), Inner(value: 2), Inner(value: 3)]
        var box = Box()
    }

    struct Box: Equatable, Sendable {
        var spare: Inner?
    }

    enum ShelfAction: Equatable, Sendable {
        case item(Int, InnerAction)
    }

    struct ShelfFeature: PrismReducer {
        func reduce(into state: inout Shelf, action: ShelfAction) -> PrismEffect<ShelfAction> {
            if case .item(let index, .add(let amount)) = action { state.items[index].value += amount }
            return .none
        }
    }

    @Test("key paths through a subscript (read and written) and an optional chain (read) compose level by level")
    func subscriptAndOptionalChainLevels() {
        let store = PrismStore(initialState: Shelf(), reducer: ShelfFeature())
        let items = store.scope(state: \.items, action: { (action: ShelfAction) in action })
        let second = items.scope(state: \.[1], action: { ShelfAction.item(1, $0) })
        let value = second.scope(state: \.value, action: { $0 })
        value.send(.add(10))
        #expect(value.state == 12)
        value.replaceState(with: 40)
        #expect(store.state.items.map(\.value) == [1, 40, 3])
        let box = store.scope(state: \.box, action: { (action: ShelfAction) in action })
        let spareValue: PrismStore<Int?, ShelfAction> = box.scope(state: \.spare?.value, action: { $0 })
        #expect(spareValue.state == nil)
        box.replaceState(with: Box(spare: Inner(value: 5)))
        #expect(spareValue.state == 5)
        // An optional chain is a read-only key path: the level reads, and does not write.
        box.replaceState(with: Box(spare: nil))
        #expect(spareValue.state == nil)
    }

    @Test("replaceState below a get-only key path stops with a message")
    func replaceStateBelowGetOnlyKeyPath() async {
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let store = PrismStore(initialState: Outer(), reducer: OuterFeature())
                let (_, valueStore) = StoreScopeTests.innermost(store, middle: \.middle, inner: \.innerCopy)
                valueStore.replaceState(with: 1)
            }
        }
        let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("cannot write back to its parent"), "\(message)")
    }

    @Test("many live children cost nothing until they are read")
    func manyChildren() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let children = (0..<1_000).map { _ in store.scope(state: \.counter, action: AppAction.counter) }
        store.send(.counter(.increment))
        #expect(children.allSatisfy { $0.state.count == 1 })
    }
}
