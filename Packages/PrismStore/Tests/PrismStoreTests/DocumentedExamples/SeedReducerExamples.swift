// Seed page 002 (reducers and effects), exactly as written there. Only what the page calls but
// does not define (API, SearchAPI, the profile and counter types) is stubbed here.
import Testing

@testable import PrismStore

enum SeedReducers {
    // MARK: Stubs for what the page calls

    struct Profile: Sendable, Equatable {
        var name: String
    }

    enum API {
        static func fetchProfile() async throws -> Profile { Profile(name: "Ada") }
    }

    struct ProfileState: Sendable, Equatable {
        var isLoading = false
        var profile: Profile?
    }

    enum ProfileAction: Sendable {
        case loadProfile
        case profileLoaded(Profile)
        case updateName(String)
    }

    struct AnalyticsMiddleware: PrismMiddleware {
        static let seen = LockedBox<[String]>([])

        func run(state: ProfileState, action: ProfileAction) -> PrismEffect<ProfileAction> {
            Self.seen.mutate { $0.append("\(action)") }
            return .none
        }
    }

    // MARK: Implementation

    struct ProfileReducer: PrismReducer {
        typealias State = ProfileState
        typealias Action = ProfileAction

        func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
            switch action {
            case .loadProfile:
                state.isLoading = true
                return .run { send in
                    let profile = try await API.fetchProfile()
                    send(.profileLoaded(profile))
                }
            case .profileLoaded(let profile):
                state.isLoading = false
                state.profile = profile
                return .none
            case .updateName(let name):
                state.profile?.name = name
                return .none
            }
        }
    }

    // MARK: PrismReduce (a counter with two actions, as on the page)

    struct CounterState: Sendable, Equatable {
        var count = 0
    }

    enum CounterAction: Sendable {
        case increment
        case decrement
    }

    @MainActor
    static func closureReducer() -> PrismReduce<CounterState, CounterAction> {
        let reducer = PrismReduce<CounterState, CounterAction> { state, action in
            switch action {
            case .increment: state.count += 1
            case .decrement: state.count -= 1
            }
            return .none
        }
        return reducer
    }

    // MARK: Every PrismEffect case

    struct User: Sendable, Equatable { var name: String }
    struct Settings: Sendable, Equatable { var theme: String }
    struct Draft: Sendable, Equatable { var text: String }

    struct Client: Sendable {
        var failing = false
        struct Failure: Error {}

        func getUsers() async throws -> [User] {
            if failing { throw Failure() }
            return [User(name: "Ada")]
        }

        func getSettings() async throws -> Settings { Settings(theme: "dark") }

        func save(_ draft: Draft) async throws -> Draft { draft }
    }

    struct EffectState: Sendable, Equatable {
        var email = ""
        var isLoading = false
        var users: [User] = []
        var settings: Settings?
        var error: String?
        var draft = Draft(text: "hello")
        var saved: Draft?
        var log: [String] = []
    }

    enum EffectAction: Sendable {
        case increment
        case validate
        case validationPassed
        case validationFailed
        case fetchUsers
        case usersLoaded([User])
        case fetchFailed(String)
        case start
        case startLoading
        case clearError
        case fetchData
        case loadBoth
        case settingsLoaded(Settings)
        case saveDraft
        case showLoading
        case saved(Draft)
        case hideLoading
    }

    struct EffectReducer: PrismReducer {
        let api: Client

        func reduce(into state: inout EffectState, action: EffectAction) -> PrismEffect<EffectAction> {
            state.log.append("\(action)")
            switch action {
            case .increment:
                return .none
            case .validate:
                let isValid = state.email.contains("@")
                return .send(isValid ? .validationPassed : .validationFailed)
            case .fetchUsers:
                state.isLoading = true
                return .run { send in
                    do {
                        let users = try await api.getUsers()
                        send(.usersLoaded(users))
                    } catch {
                        send(.fetchFailed(error.localizedDescription))
                    }
                }
            case .usersLoaded(let users):
                state.isLoading = false
                state.users = users
                return .none
            case .fetchFailed(let message):
                state.isLoading = false
                state.error = message
                return .none
            case .start:
                return .sequence([.startLoading, .clearError, .fetchData])
            case .loadBoth:
                return .merge(
                    .run { send in
                        let users = try await api.getUsers()
                        send(.usersLoaded(users))
                    },
                    .run { send in
                        let settings = try await api.getSettings()
                        send(.settingsLoaded(settings))
                    }
                )
            case .settingsLoaded(let settings):
                state.settings = settings
                return .none
            case .saveDraft:
                return .concatenate(
                    .send(.showLoading),
                    .run { [state] send in
                        let result = try await api.save(state.draft)
                        send(.saved(result))
                    },
                    .send(.hideLoading)
                )
            case .saved(let draft):
                state.saved = draft
                return .none
            case .showLoading:
                state.isLoading = true
                return .none
            case .hideLoading:
                state.isLoading = false
                return .none
            case .validationPassed, .validationFailed, .startLoading, .clearError, .fetchData:
                return .none
            }
        }
    }

    // MARK: Full example: search feature

    enum SearchAPI {
        static func search(_ query: String) async throws -> [String] {
            if query == "fail" { throw CancellationError() }
            return ["\(query) 1", "\(query) 2"]
        }
    }

    struct SearchState: Sendable, Equatable {
        var query = ""
        var results: [String] = []
        var isSearching = false
    }

    enum SearchAction: Sendable {
        case queryChanged(String)
        case search
        case resultsLoaded([String])
        case searchFailed
    }

    struct SearchReducer: PrismReducer {
        func reduce(into state: inout SearchState, action: SearchAction) -> PrismEffect<SearchAction> {
            switch action {
            case .queryChanged(let query):
                state.query = query
                guard !query.isEmpty else {
                    state.results = []
                    return .none
                }
                return .run { send in
                    try await Task.sleep(for: .milliseconds(300))
                    send(.search)
                }

            case .search:
                state.isSearching = true
                let query = state.query
                return .run { send in
                    do {
                        let results = try await SearchAPI.search(query)
                        send(.resultsLoaded(results))
                    } catch {
                        send(.searchFailed)
                    }
                }

            case .resultsLoaded(let results):
                state.isSearching = false
                state.results = results
                return .none

            case .searchFailed:
                state.isSearching = false
                return .none
            }
        }
    }
}

extension SeedReducers.ProfileReducer {
    /// The page's type-erasure line, in a scope where `State` and `Action` mean what they mean
    /// on the page (the reducer's own).
    @MainActor
    static func erasedExample() -> PrismReduce<State, Action> {
        let erased: PrismReduce<State, Action> = SeedReducers.ProfileReducer().eraseToReduce()
        return erased
    }
}

@MainActor
@Suite("Seed page 002: reducers and effects")
struct SeedReducerTests {
    typealias ProfileReducer = SeedReducers.ProfileReducer
    typealias ProfileState = SeedReducers.ProfileState
    typealias AnalyticsMiddleware = SeedReducers.AnalyticsMiddleware

    @Test("the profile reducer loads, then renames")
    func profileReducer() async {
        let store = PrismStore(initialState: ProfileState(), reducer: ProfileReducer())
        let load = store.send(.loadProfile)
        #expect(store.state.isLoading)
        await load.finish()
        store.send(.updateName("Grace"))
        #expect(store.state.profile?.name == "Grace")
        #expect(!store.state.isLoading)
    }

    @Test("PrismReduce, eraseToReduce and handling(with:) work as the page shows")
    func reducerForms() async {
        let counter = PrismStore(initialState: SeedReducers.CounterState(), reducer: SeedReducers.closureReducer())
        counter.send(.increment)
        counter.send(.increment)
        counter.send(.decrement)
        #expect(counter.state.count == 1)

        let erasedStore = PrismStore(initialState: ProfileState(), reducer: ProfileReducer.erasedExample())
        await erasedStore.send(.loadProfile).finish()
        #expect(erasedStore.state.profile?.name == "Ada")

        SeedReducers.AnalyticsMiddleware.seen.mutate { $0 = [] }
        let combined = ProfileReducer().handling(with: AnalyticsMiddleware())

        let store = PrismStore(
            initialState: ProfileState(),
            reducer: combined
        )
        store.send(.updateName("x"))
        #expect(SeedReducers.AnalyticsMiddleware.seen.wrappedValue == ["updateName(\"x\")"])
    }

    @Test("every effect case of the page does what the page says")
    func effectCases() async {
        let store = PrismStore(
            initialState: SeedReducers.EffectState(email: "ada@example.com"),
            reducer: SeedReducers.EffectReducer(api: SeedReducers.Client())
        )
        store.send(.increment)
        store.send(.validate)
        #expect(store.state.log.suffix(2) == ["validate", "validationPassed"])
        store.send(.start)
        #expect(store.state.log.suffix(4) == ["start", "startLoading", "clearError", "fetchData"])
        await store.send(.fetchUsers).finish()
        #expect(store.state.users == [SeedReducers.User(name: "Ada")])
        await store.send(.loadBoth).finish()
        #expect(store.state.settings == SeedReducers.Settings(theme: "dark"))
        let save = store.send(.saveDraft)
        #expect(store.state.isLoading)
        await save.finish()
        #expect(store.state.saved == SeedReducers.Draft(text: "hello"))
        #expect(
            Array(store.state.log.suffix(3)) == [
                "showLoading", "saved(PrismStoreTests.SeedReducers.Draft(text: \"hello\"))", "hideLoading",
            ])
        #expect(!store.state.isLoading)

        let failing = PrismStore(
            initialState: SeedReducers.EffectState(),
            reducer: SeedReducers.EffectReducer(api: SeedReducers.Client(failing: true))
        )
        await failing.send(.fetchUsers).finish()
        #expect(failing.state.error != nil)
        #expect(!failing.state.isLoading)
    }

    @Test("the search feature finds results after the pause")
    func searchFeature() async {
        let store = PrismStore(initialState: SeedReducers.SearchState(), reducer: SeedReducers.SearchReducer())
        await store.send(.queryChanged("swift")).finish()
        #expect(store.state.results == ["swift 1", "swift 2"])
        #expect(!store.state.isSearching)
        store.send(.queryChanged(""))
        #expect(store.state.results.isEmpty)
    }
}
