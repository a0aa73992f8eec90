// PrismGraphQL's normalized cache: every screen that shows an object kept in step with the others,
// an optimistic answer for a mutation, and a watch that feeds a store's effect. It compiles with
// the package; it needs a GraphQL server to run (PrismGraphQL's tests run one).
// snippet.hide
import Foundation
import Prism

/// The operations as the code generator writes them (`__typename` and `id` added).
struct TasksQuery: PrismGraphQLQueryOperation {
    static let operationName = "Tasks"
    static let document = "query Tasks { tasks { __typename id title } }"
    struct Data: Decodable, Sendable, Hashable {
        let tasks: [TaskItem]
        struct TaskItem: Decodable, Sendable, Hashable {
            let id: Int
            let title: String
        }
    }
}

struct RenameTaskMutation: PrismGraphQLMutationOperation {
    static let operationName = "RenameTask"
    static let document =
        "mutation RenameTask($id: Int!, $title: String!) { renameTask(id: $id, title: $title) { __typename id title } }"
    struct Variables: Encodable, Sendable, Hashable {
        var id: Int
        var title: String
    }
    struct Data: Decodable, Sendable, Hashable {
        let renameTask: TasksQuery.Data.TaskItem
    }
    var variables: Variables
}

enum TasksAction: Sendable {
    case loaded([TasksQuery.Data.TaskItem])
    case failed(String)
}

func normalizedCache(http: PrismNetworkAdapter) async throws {
    // snippet.show
    // snippet.client
    let graphql = PrismGraphQLClient(endpointURL: URL(string: "https://api.example.com/graphql")!, networkClient: http)
        .normalizing(into: PrismGraphQLNormalizedCache())

    // The list, from the cache at once if it has it, then from the server; then again after any
    // change to a task it shows, from whatever operation, without a request.
    Task {
        for try await tasks in graphql.watch(TasksQuery()) {
            print(tasks.tasks.map(\.title))
        }
    }

    // The rename shows in the list at once, and is rolled back if the server refuses it.
    _ = try await graphql.execute(
        RenameTaskMutation(variables: .init(id: 2, title: "Deux")),
        optimisticData: ["renameTask": ["__typename": "TaskItem", "id": 2, "title": "Deux"]])
    // snippet.end
}

// snippet.effect
/// A store's effect that feeds it every answer of the watch; cancelled with the effect.
func watchTasks(_ graphql: PrismGraphQLClient) -> PrismEffect<TasksAction> {
    .run { send in
        do {
            for try await answer in graphql.watch(TasksQuery()) { send(.loaded(answer.tasks)) }
        } catch {
            send(.failed("\(error)"))
        }
    }
    .cancellable(id: "tasks")
}
// snippet.end

// snippet.disk
/// The cache kept on disk between runs: a damaged file is moved aside and the app starts again
/// with an empty one.
func openCache(in folder: URL) async throws -> PrismGraphQLNormalizedCache {
    let url = folder.appendingPathComponent("graphql-cache.sqlite")
    do {
        return try await PrismGraphQLNormalizedCache.open(at: url)
    } catch  where error.code == .cacheStoreCorrupted {
        print(error.message)  // says where the damaged file went
        return try await PrismGraphQLNormalizedCache.open(at: url)
    }
}
// snippet.end

/// A page of tasks, Relay style (the code generator writes it from the query).
struct TaskConnectionQuery: PrismGraphQLQueryOperation {
    static let operationName = "TaskConnection"
    static let document = """
        query TaskConnection($first: Int, $after: String, $last: Int, $before: String) {
          taskConnection(first: $first, after: $after, last: $last, before: $before) {
            __typename
            edges { __typename cursor node { __typename id title } }
            pageInfo { __typename startCursor endCursor hasPreviousPage hasNextPage }
          }
        }
        """
    struct Variables: Encodable, Sendable, Hashable {
        var first: Int?
        var after: String?
        var last: Int?
        var before: String?
    }
    struct Data: Decodable, Sendable, Hashable {
        let taskConnection: Connection
        struct Connection: Decodable, Sendable, Hashable {
            let edges: [Edge]
            let pageInfo: PageInfo
        }
        struct Edge: Decodable, Sendable, Hashable {
            let cursor: String
            let node: TasksQuery.Data.TaskItem
        }
        struct PageInfo: Decodable, Sendable, Hashable, PrismGraphQLPageInfo {
            let startCursor: String?
            let endCursor: String?
            let hasPreviousPage: Bool
            let hasNextPage: Bool
        }
    }
    var variables: Variables
}

func pagedTasks(_ graphql: PrismGraphQLClient) async throws {
    // snippet.pager
    let pager = PrismGraphQLPager(id: "tasks", client: graphql) { request in
        switch request {
        case .after(let cursor): TaskConnectionQuery(variables: .init(first: 20, after: cursor))
        case .before(let cursor): TaskConnectionQuery(variables: .init(last: 20, before: cursor))
        default: TaskConnectionQuery(variables: .init(first: 20))
        }
    } page: { data, _ in
        .relay(items: data.taskConnection.edges.map(\.node), pageInfo: data.taskConnection.pageInfo)
    }
    Task {
        // Every page so far as one list: again after each page, and after any change to a task.
        for await list in pager.watch() {
            print(list.items.map(\.title), list.hasNextPage ? "more below" : "the end")
        }
    }
    try await pager.loadNext()  // the first page
    try await pager.loadNext()  // the one after it
    // snippet.end
}
