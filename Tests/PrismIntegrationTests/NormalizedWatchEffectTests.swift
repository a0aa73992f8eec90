import Foundation
import PrismArchitecture
import PrismNetwork
import PrismTestServer
import PrismTestSupport
import Testing

@testable import PrismGraphQL

/// A watch of PrismGraphQL's normalized cache as a store's `.run` effect: it feeds the store each
/// answer, a mutation from anywhere reaches the store without a request, and cancelling the
/// effect ends the watch.
@MainActor
@Suite("A normalized cache's watch feeds a store")
struct NormalizedWatchEffectTests {
    struct TasksQuery: PrismGraphQLQueryOperation {
        static let operationName = "Tasks"
        static let document = "query Tasks { tasks { __typename id title } }"
        struct Data: Decodable, Sendable, Hashable {
            let tasks: [Item]
            struct Item: Decodable, Sendable, Hashable {
                let id: Int
                let title: String
            }
        }
    }

    struct AddTask: PrismGraphQLMutationOperation {
        static let operationName = "AddTask"
        static let document = "mutation AddTask($title: String!) { addTask(title: $title) { __typename id title } }"
        struct Variables: Encodable, Sendable, Hashable { var title: String }
        struct Data: Decodable, Sendable, Hashable { let addTask: TasksQuery.Data.Item }
        var variables: Variables
    }

    struct RenameTask: PrismGraphQLMutationOperation {
        static let operationName = "RenameTask"
        static let document = """
            mutation RenameTask($id: Int!, $title: String!) { renameTask(id: $id, title: $title) { __typename id title } }
            """
        struct Variables: Encodable, Sendable, Hashable {
            var id: Int
            var title: String
        }
        struct Data: Decodable, Sendable, Hashable { let renameTask: TasksQuery.Data.Item }
        var variables: Variables
    }

    struct State: Equatable, Sendable {
        var titles: [String] = []
        var deliveries = 0
    }

    enum Action: Equatable, Sendable {
        case start, stop
        case loaded([String])
    }

    static func reducer(_ graphql: PrismGraphQLClient) -> PrismReduce<State, Action> {
        PrismReduce { state, action in
            switch action {
            case .start:
                return .run { send in
                    for try await answer in graphql.watch(TasksQuery()) { send(.loaded(answer.tasks.map(\.title))) }
                }
                .cancellable(id: "tasks")
            case .stop:
                return .cancel(id: "tasks")
            case .loaded(let titles):
                state.titles = titles
                state.deliveries += 1
                return .none
            }
        }
    }

    @Test("the store gets the list, then a rename made elsewhere without a request; cancelled, the watch ends")
    func watchAsEffect() async throws {
        try await withDemoServer { server in
            let cache = PrismGraphQLNormalizedCache()
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql")).normalizing(into: cache)
            for title in ["one", "two"] {
                _ = try await graphql.execute(AddTask(variables: .init(title: title))).requireData()
            }
            let store = PrismStore(initialState: State(), reducer: Self.reducer(graphql))
            let watching = store.send(.start)
            try await eventually { store.state.titles == ["one", "two"] }
            let requests = server.graphQLStatistics.executed

            // A rename through another client of the same cache: one request, the mutation's.
            let other = PrismGraphQLClient(endpointURL: server.url("/graphql")).normalizing(into: cache)
            _ = try await other.execute(RenameTask(variables: .init(id: 2, title: "deux"))).requireData()
            try await eventually { store.state.titles == ["one", "deux"] }
            #expect(server.graphQLStatistics.executed == requests + 1)
            #expect(cache.watcherCount == 1)

            await store.send(.stop).finish()
            await watching.finish()
            try await eventually { cache.watcherCount == 0 }
            let deliveries = store.state.deliveries
            _ = try await other.execute(RenameTask(variables: .init(id: 1, title: "un"))).requireData()
            #expect(try cache.read(TasksQuery()).tasks.map(\.title) == ["un", "deux"])
            #expect(store.state.titles == ["one", "deux"])
            #expect(store.state.deliveries == deliveries)
        }
    }
}
