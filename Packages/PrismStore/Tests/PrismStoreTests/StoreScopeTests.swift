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

    @Test("many live children cost nothing until they are read")
    func manyChildren() {
        let store = PrismStore(initialState: App(), reducer: AppFeature())
        let children = (0..<1_000).map { _ in store.scope(state: \.counter, action: AppAction.counter) }
        store.send(.counter(.increment))
        #expect(children.allSatisfy { $0.state.count == 1 })
    }
}
