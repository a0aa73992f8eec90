import Foundation
import PrismArchitecture
import PrismNetwork
import PrismTestServer
import Testing

/// A feature whose effects talk to a real server: a store, a reducer whose `.run` effects call
/// PrismHTTP's client, and PrismTestServer's `/tasks` routes on 127.0.0.1, end to end.
@MainActor
@Suite("Store to network")
struct StoreNetworkFlowTests {
    struct RemoteTask: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var done: Bool
    }

    struct RemoteList: PrismEntity, Equatable {
        var revision: Int
        var tasks: [RemoteTask]
    }

    struct Upload: Encodable, Sendable {
        var tasks: [RemoteTask]
    }

    struct TasksEndpoint: PrismNetworkEndpoint {
        var port: Int?
        var method: PrismNetworkMethod = .get
        var upload: Upload?

        var scheme: PrismNetworkScheme { .http }
        var host: String { "127.0.0.1" }
        var path: String { "/tasks" }
        var body: (any Encodable)? { upload }
    }

    /// `GET` or `PUT /tasks`, answered with the server's list.
    struct TasksRequest: PrismNetworkRequest {
        typealias Response = RemoteList
        let endpoint: TasksEndpoint
    }

    struct State: Equatable, Sendable {
        var tasks: [RemoteTask] = []
        var revision: Int?
        var isLoading = false
        var failure: String?
    }

    enum Action: Equatable, Sendable {
        case upload([RemoteTask])
        case load
        case loaded(RemoteList)
        case failed(String)
    }

    /// The feature: `.upload` and `.load` start requests; their answers come back as actions.
    static func reducer(client: PrismNetworkAdapter, port: Int) -> PrismReduce<State, Action> {
        let retry = PrismExponentialBackoff(baseDelay: .milliseconds(1), maxAttempts: 4, jitter: .zero)
        return PrismReduce { state, action in
            switch action {
            case .upload(let tasks):
                state.isLoading = true
                let endpoint = TasksEndpoint(port: port, method: .put, upload: Upload(tasks: tasks))
                return .run { send in
                    let list = try await client.request(on: TasksRequest(endpoint: endpoint), retryPolicy: retry)
                    send(.loaded(list))
                } catch: { error, send in
                    send(.failed("\(error)"))
                }
            case .load:
                state.isLoading = true
                return .run { send in
                    let list = try await client.request(
                        on: TasksRequest(endpoint: TasksEndpoint(port: port)), retryPolicy: retry)
                    send(.loaded(list))
                } catch: { error, send in
                    send(.failed("\(error)"))
                }
            case .loaded(let list):
                state.isLoading = false
                state.failure = nil
                state.tasks = list.tasks
                state.revision = list.revision
                return .none
            case .failed(let message):
                state.isLoading = false
                state.failure = message
                return .none
            }
        }
    }

    @Test("An effect uploads through PrismHTTP, and the store holds what the server answered")
    func uploadAndLoad() async throws {
        try await withDemoServer { server in
            let client = PrismNetworkAdapter()
            let store = PrismStore(initialState: State(), reducer: Self.reducer(client: client, port: server.port))
            let tasks = [
                RemoteTask(id: 1, title: "Buy milk", done: false), RemoteTask(id: 2, title: "Call", done: true),
            ]

            let upload = store.send(.upload(tasks))
            #expect(store.state.isLoading)
            await upload.finish()
            #expect(store.state == State(tasks: tasks, revision: 1))

            let fresh = PrismStore(initialState: State(), reducer: Self.reducer(client: client, port: server.port))
            await fresh.send(.load).finish()
            #expect(fresh.state == State(tasks: tasks, revision: 1))
            #expect(server.hits("/tasks") == 2)
        }
    }

    @Test("Server failures are retried inside the effect, and a cached list is revalidated with a 304")
    func retriesAndCaching() async throws {
        try await withDemoServer { server in
            let client = PrismNetworkAdapter()
            let store = PrismStore(initialState: State(), reducer: Self.reducer(client: client, port: server.port))
            _ = try await client.send(PrismHTTPRequest(url: server.url("/tasks/fail-next?count=2"), method: .post))

            await store.send(.load).finish()
            #expect(store.state == State(tasks: [], revision: 0))
            #expect(server.hits("/tasks") == 3)

            await store.send(.load).finish()
            #expect(store.state == State(tasks: [], revision: 0))
            #expect(server.hits("/tasks") == 4)
            #expect(server.requests.last?.headers["if-none-match"] == "\"tasks-v0\"")
        }
    }

    @Test("A request the server refuses ends in a failure action, and the state says why")
    func refusal() async throws {
        try await withDemoServer { server in
            let client = PrismNetworkAdapter()
            let store = PrismStore(initialState: State(), reducer: Self.reducer(client: client, port: server.port))
            let duplicate = [RemoteTask(id: 1, title: "a", done: false), RemoteTask(id: 1, title: "b", done: false)]

            await store.send(.upload(duplicate)).finish()
            #expect(!store.state.isLoading)
            #expect(store.state.revision == nil)
            let failure = try #require(store.state.failure)
            #expect(failure.contains("400"))
            #expect(failure.contains("appears more than once"))
        }
    }
}
