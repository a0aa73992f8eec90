// PrismTesting at a glance: a light test, an exhaustive one, and a test that chooses the
// feature's clock and API client. These are tests: PrismTestingOverviewSnippetTests runs them.
// snippet.hide
import Foundation
import Prism
import PrismHTTPTesting
import PrismTesting
import Testing

struct UserState: Equatable, Sendable {
    var users: [String] = []
    var isLoading = false
}

enum UserAction: Equatable, Sendable {
    case fetchUsers
    case usersLoaded([String])
}

struct UserReducer: PrismReducer {
    func reduce(into state: inout UserState, action: UserAction) -> PrismEffect<UserAction> {
        switch action {
        case .fetchUsers:
            state.isLoading = true
            return .run { send in send(.usersLoaded(["ada", "grace"])) }
        case .usersLoaded(let users):
            state.isLoading = false
            state.users = users
            return .none
        }
    }
}

struct CounterState: Equatable, Sendable {
    var count = 0
    var isLoading = false
}

enum CounterAction: Equatable, Sendable {
    case fetchRemoteCount
    case remoteCountLoaded(Int)
}

struct CounterReducer: PrismReducer {
    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .fetchRemoteCount:
            state.isLoading = true
            return .run { send in send(.remoteCountLoaded(42)) }
        case .remoteCountLoaded(let count):
            state.isLoading = false
            state.count = count
            return .none
        }
    }
}

struct SearchResult: PrismEntity, Equatable {
    var title: String
}

struct SearchEndpoint: PrismNetworkEndpoint {
    var server: URL
    var query: String
    var scheme: String { server.scheme ?? "https" }
    var host: String { server.host ?? "" }
    var path: String { "/search" }
    var queryItems: [URLQueryItem]? { [URLQueryItem(name: "q", value: query)] }
}

/// The feature's API client, a dependency: live, it asks the server.
struct TaskAPI: Sendable {
    var search: @Sendable (String) async throws -> [SearchResult]

    static func live(server: URL, client: some PrismNetworkClient) -> TaskAPI {
        TaskAPI { query in
            try await client.request(
                on: PrismEndpointRequest<SearchEndpoint, [SearchResult]>(SearchEndpoint(server: server, query: query))
            )
        }
    }
}

extension TaskAPI: TestDependencyKey {
    static let testValue = TaskAPI { _ in
        reportIssue("TaskAPI.search was called without a test value")
        return []
    }
}

extension DependencyValues {
    var taskAPI: TaskAPI {
        get { self[TaskAPI.self] }
        set { self[TaskAPI.self] = newValue }
    }
}

@MainActor
@Suite struct TestingOverview {
    @Test func lightStyle() async throws {
        // snippet.show
        // snippet.light
        let store = PrismTestStore(initialState: UserState(), reducer: UserReducer())
        store.send(.fetchUsers)
        #expect(store.state.isLoading)
        try await store.waitForEffects()
        #expect(!store.state.users.isEmpty)
        // snippet.end
        // snippet.hide
    }

    @Test func exhaustiveStyle() async {
        // snippet.show
        // snippet.exhaustive
        let store = PrismTestStore(initialState: CounterState(), reducer: CounterReducer())
        await store.send(.fetchRemoteCount) { $0.isLoading = true }
        await store.receive(.remoteCountLoaded(42)) {
            $0.isLoading = false
            $0.count = 42
        }
        // snippet.end
        // snippet.hide
    }
}

// snippet.show
// snippet.dependencies
struct SearchFeature: PrismReducer {
    // snippet.hide
    struct State: Equatable, Sendable {
        var query = ""
        var results: [SearchResult] = []
    }

    enum Action: Equatable, Sendable {
        case queryChanged(String)
        case resultsLoaded([SearchResult])
    }

    private struct SearchID: Hashable, Sendable {}

    // snippet.show
    @Dependency(\.continuousClock) var clock
    @Dependency(\.taskAPI) var api

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            return .run { [api] send in
                send(.resultsLoaded(try await api.search(query)))
            }
            .debounce(id: SearchID(), for: .milliseconds(300), clock: clock)
        case .resultsLoaded(let results):
            state.results = results
            return .none
        }
    }
}

@MainActor
@Test func searchRunsOncePerPause() async {
    let clock = PrismTestClock()
    let stub = PrismStubTransport()
    stub.on(.get, "/search", respond: .json([SearchResult(title: "Write docs")]))
    let url = URL(string: "https://api.example.com")!
    let store = PrismTestStore(initialState: SearchFeature.State(), reducer: SearchFeature()) {
        $0.continuousClock = clock
        $0.taskAPI = .live(server: url, client: PrismNetworkAdapter(transport: stub, cache: nil))
    }
    await store.send(.queryChanged("do")) { $0.query = "do" }
    await store.send(.queryChanged("docs")) { $0.query = "docs" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.resultsLoaded([SearchResult(title: "Write docs")])) {
        $0.results = [SearchResult(title: "Write docs")]
    }
    #expect(stub.requests(.get, "/search").count == 1)
}
// snippet.end
