import Testing

@testable import PrismStore

@MainActor
@Suite("Derived stores")
struct DerivedStoreTests {
    struct User: Equatable, Sendable, Identifiable {
        let id: Int
        var name: String
        var isActive: Bool
    }

    enum Filter: Equatable, Sendable {
        case all
        case active
    }

    struct AppState: PrismState {
        var users: [User] = []
        var selectedFilter: Filter = .all
        var unrelated = 0
    }

    enum AppAction: Sendable {
        case add(User)
        case filter(Filter)
        case touch
        case deactivate(Int)
    }

    struct AppReducer: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .add(let user): state.users.append(user)
            case .filter(let filter): state.selectedFilter = filter
            case .touch: state.unrelated += 1
            case .deactivate(let id):
                if let index = state.users.firstIndex(where: { $0.id == id }) { state.users[index].isActive = false }
            }
            return .none
        }
    }

    func makeStore() -> PrismStore<AppState, AppAction> {
        let store = PrismStore(initialState: AppState(), reducer: AppReducer())
        store.send(.add(User(id: 1, name: "Ada", isActive: true)))
        store.send(.add(User(id: 2, name: "Bob", isActive: false)))
        return store
    }

    @Test("the derived value follows the store's state")
    func followsState() {
        let store = makeStore()
        let filtered = store.derive { state in
            state.users.filter { state.selectedFilter == .all || $0.isActive }
        }
        #expect(filtered.value.map(\.name) == ["Ada", "Bob"])
        store.send(.filter(.active))
        #expect(filtered.value.map(\.name) == ["Ada"])
        #expect(filtered.count == 1)
    }

    @Test("observers are notified only when the derived value changes")
    func notifiesOnlyOnChange() {
        let store = makeStore()
        let filtered: PrismDerivedStore<AppState, [User]> = store.derive { state in
            state.users.filter { state.selectedFilter == .all || $0.isActive }
        }
        let observer = ObservationCounter { _ = filtered.value }
        store.send(.touch)
        store.send(.touch)
        #expect(observer.count == 0)
        store.send(.filter(.active))
        #expect(observer.count == 1)
        // Deactivating Bob, who is already filtered out, leaves the value unchanged.
        store.send(.deactivate(2))
        #expect(observer.count == 1)
        store.send(.deactivate(1))
        #expect(observer.count == 2)
        #expect(filtered.value.isEmpty)
    }

    @Test("the transform runs at most once per change of the state")
    func transformRunsOncePerChange() {
        let store = makeStore()
        let runs = LockedBox(0)
        let names = store.derive { state -> [String] in
            runs.mutate { $0 += 1 }
            return state.users.map(\.name)
        }
        _ = names.value
        _ = names.value
        _ = names.value
        #expect(runs.wrappedValue == 1)
        store.send(.touch)
        _ = names.value
        _ = names.value
        #expect(runs.wrappedValue == 2)
    }

    @Test("a store derived from a scoped store follows the root")
    func derivedFromScope() {
        struct Root: Equatable, Sendable { var app = AppState() }
        enum RootAction: Sendable { case app(AppAction) }
        let store = PrismStore(
            initialState: Root(),
            reducer: PrismReduce<Root, RootAction> { state, action in
                switch action {
                case .app(let action): return AppReducer().reduce(into: &state.app, action: action).map(RootAction.app)
                }
            }
        )
        let app = store.scope(state: \.app, action: RootAction.app)
        let count = app.derive(\.users.count)
        let observer = ObservationCounter { _ = count.value }
        app.send(.touch)
        #expect(observer.count == 0)
        store.send(.app(.add(User(id: 3, name: "Cy", isActive: true))))
        #expect(observer.count == 1)
        #expect(count.value == 1)
    }
}
