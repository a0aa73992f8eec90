// Seed page 000 (overview): the counter walkthrough, effects, scoped stores and middleware,
// exactly as written there. Only the APIs the page calls but does not define (CounterAPI,
// logEvent, Analytics, the profile feature) are stubbed here.
import Testing

@testable import PrismStore

enum SeedOverview {
    // MARK: Stubs for what the page calls

    enum CounterAPI {
        static func fetchCount() async throws -> Int {
            try await Task.sleep(for: .milliseconds(1))
            return 42
        }
    }

    static func logEvent(_ action: CounterAction) async {}

    enum Analytics {
        static let events = LockedBox<[String]>([])
        static func track(_ name: String, value: Int) {
            events.mutate { $0.append("\(name)=\(value)") }
        }
    }

    // MARK: 1. Define state and actions

    struct CounterState: Sendable, Equatable {
        var count = 0
        var isLoading = false
    }

    enum CounterAction: Sendable {
        case increment
        case decrement
        case reset
        case fetchRemoteCount
        case remoteCountLoaded(Int)
    }

    // MARK: 2. Implement a reducer

    struct CounterReducer: PrismReducer {
        func reduce(
            into state: inout CounterState,
            action: CounterAction
        ) -> PrismEffect<CounterAction> {
            switch action {
            case .increment:
                state.count += 1
                return .none

            case .decrement:
                state.count -= 1
                return .none

            case .reset:
                state.count = 0
                return .none

            case .fetchRemoteCount:
                state.isLoading = true
                return .run { send in
                    let count = try await CounterAPI.fetchCount()
                    send(.remoteCountLoaded(count))
                }

            case .remoteCountLoaded(let count):
                state.isLoading = false
                state.count = count
                return .none
            }
        }
    }

    // MARK: PrismEffect

    struct EffectExamples: PrismReducer {
        let which: Int

        func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
            // The page's snippets, returned for .increment; what they send comes back here.
            if case .remoteCountLoaded(let count) = action {
                state.count = count
                return .none
            }
            switch which {
            case 0:
                // No side effects
                return .none
            case 1:
                // Emit a single action immediately
                return .send(.remoteCountLoaded(42))
            case 2:
                // Run an async operation
                return .run { send in
                    let count = try await CounterAPI.fetchCount()
                    send(.remoteCountLoaded(count))
                }
            default:
                // Merge multiple effects (runs concurrently)
                return .merge(
                    .run { send in await logEvent(action) },
                    .run { send in
                        let count = try await CounterAPI.fetchCount()
                        send(.remoteCountLoaded(count))
                    }
                )
            }
        }
    }

    // MARK: Scoped stores

    struct ProfileState: Sendable, Equatable {
        var name = ""
    }

    enum ProfileAction: Sendable {
        case rename(String)
    }

    struct AppState: Sendable, Equatable {
        var profile = ProfileState()
    }

    enum AppAction: Sendable {
        case profile(ProfileAction)
    }

    struct AppReducer: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .profile(.rename(let name)):
                state.profile.name = name
                return .none
            }
        }
    }

    // MARK: Middleware

    struct AnalyticsMiddleware: PrismMiddleware {
        func run(
            state: CounterState,
            action: CounterAction
        ) -> PrismEffect<CounterAction> {
            switch action {
            case .increment, .decrement:
                return .run { _ in
                    Analytics.track("counter_changed", value: state.count)
                }
            default:
                return .none
            }
        }
    }
}

@MainActor
@Suite("Seed page 000: overview")
struct SeedOverviewTests {
    typealias CounterState = SeedOverview.CounterState
    typealias CounterReducer = SeedOverview.CounterReducer
    typealias AnalyticsMiddleware = SeedOverview.AnalyticsMiddleware
    typealias AppAction = SeedOverview.AppAction
    typealias ProfileState = SeedOverview.ProfileState
    typealias ProfileAction = SeedOverview.ProfileAction

    @Test("the counter walkthrough works as the page describes")
    func counterWalkthrough() async {
        // 3. Create the store
        let store = PrismStore(
            initialState: CounterState(),
            reducer: CounterReducer()
        )
        store.send(.increment)
        store.send(.increment)
        store.send(.decrement)
        #expect(store.state.count == 1)
        store.send(.reset)
        #expect(store.state.count == 0)
        let fetch = store.send(.fetchRemoteCount)
        #expect(store.state.isLoading)
        await fetch.finish()
        #expect(store.state.count == 42)
        #expect(!store.state.isLoading)
    }

    @Test("each PrismEffect example of the page runs", arguments: 0...3)
    func effectExamples(which: Int) async {
        let store = PrismStore(initialState: CounterState(), reducer: SeedOverview.EffectExamples(which: which))
        await store.send(.increment).finish()
        #expect(store.state.count == (which == 0 ? 0 : 42))
    }

    @Test("the scoped store example keeps parent and child in sync")
    func scopedStore() {
        let store = PrismStore(initialState: SeedOverview.AppState(), reducer: SeedOverview.AppReducer())
        // Parent store owns AppState / AppAction
        let profileStore: PrismStore<ProfileState, ProfileAction> = store.scope(
            state: \.profile,
            action: AppAction.profile
        )
        profileStore.send(.rename("Ada"))
        #expect(store.state.profile.name == "Ada")
        #expect(profileStore.state.name == "Ada")
    }

    @Test("the middleware example tracks counter changes with the new count")
    func middlewareExample() async {
        SeedOverview.Analytics.events.mutate { $0 = [] }
        // Attach middleware when creating the store
        let store = PrismStore(
            initialState: CounterState(),
            reducer: CounterReducer(),
            middleware: AnalyticsMiddleware()
        )
        await store.send(.increment).finish()
        await store.send(.reset).finish()
        #expect(SeedOverview.Analytics.events.wrappedValue == ["counter_changed=1"])

        let logging = PrismSideEffect<CounterState, SeedOverview.CounterAction> { state, action in
            return .run { _ in print("Action: \(action), Count: \(state.count)") }
        }
        let logged = PrismStore(initialState: CounterState(), reducer: CounterReducer(), middleware: logging)
        await logged.send(.increment).finish()
        #expect(logged.state.count == 1)
    }
}
