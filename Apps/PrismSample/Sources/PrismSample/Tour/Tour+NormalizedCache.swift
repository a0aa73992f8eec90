import Foundation
import Prism

extension Tour {
    /// A list and a detail kept in step by PrismGraphQL's normalized cache, the list paged, the
    /// cache kept on disk. `TaskListQuery`, `TaskDetailQuery` and `RenameTaskMutation` are generated
    /// from `GraphQL/Tasks.graphql`; the cache's configuration comes with them.
    func showNormalizedCache() async throws {
        heading("A list and a detail kept in step (PrismGraphQLNormalizedCache, PrismGraphQLPager)")
        let url = directory.appendingPathComponent("graphql-cache.sqlite")
        let cache = try await PrismGraphQLNormalizedCache.open(
            at: url, configuration: GraphQLSchema.cacheConfiguration)
        code(
            "PrismGraphQLNormalizedCache.open(at: \"graphql-cache.sqlite\")",
            "an SQLite file in the session's folder, \(cache.keys.count) records")
        let graphql = PrismGraphQLClient(endpointURL: server.baseURL.appendingPathComponent("graphql"))
            .normalizing(into: cache)
        for title in ["Write the report", "Call the bank", "Water the plants", "Book the train", "Pay the rent"] {
            _ = try await graphql.execute(AddTaskMutation(title: title)).requireData()
        }

        let pager = Self.taskPager(graphql)
        try await pager.loadNext()
        let list = try await pager.loadNext()
        code(
            "pager.loadNext(), twice (pages of 2)",
            "\(list.items.map(\.title).joined(separator: ", "))\(list.hasNextPage ? ", more below" : "")")

        var lists = pager.watch().makeAsyncIterator()
        var details = graphql.watch(TaskDetailQuery(id: 2)).makeAsyncIterator()
        _ = await lists.next()
        let detail = try await details.next()?.task
        code("graphql.watch(TaskDetailQuery(id: 2))", detail.map { "task 2: \($0.title)" } ?? "no task 2")

        let before = server.graphQLStatistics.executed
        _ = try await graphql.execute(RenameTaskMutation(id: 2, title: "Call the bank at 9")).requireData()
        let renamedList = await lists.next()
        let renamedDetail = try await details.next()?.task
        code(
            "graphql.execute(RenameTaskMutation(id: 2, title: \"Call the bank at 9\"))",
            "the list: \(renamedList?.items.map(\.title).joined(separator: ", ") ?? "?"); "
                + "the detail: \(renamedDetail?.title ?? "?")")
        note(
            "Both watches saw the new title with \(server.graphQLStatistics.executed - before) request in all: "
                + "each task is one record of the cache, whichever query shows it.")
        try await cache.close()

        let reopened = try await PrismGraphQLNormalizedCache.open(
            at: url, configuration: GraphQLSchema.cacheConfiguration)
        let restored = Self.taskPager(graphql.normalizing(into: reopened)).list
        code(
            "PrismGraphQLNormalizedCache.open(at: sameFile), as after a relaunch",
            "\(Self.count(restored?.items.count ?? 0, "task")) in \(Self.count(restored?.pageCount ?? 0, "page")), "
                + "before any request")
        try await reopened.close()
    }

    typealias ListedTask = TaskListQuery.Data.TaskConnection.Edges.Node

    /// The task list, two tasks a page, through the test server's Relay connection.
    static func taskPager(_ graphql: PrismGraphQLClient) -> PrismGraphQLPager<TaskListQuery, ListedTask> {
        PrismGraphQLPager(id: "tasks", client: graphql) { request in
            if case .after(let cursor) = request { return TaskListQuery(first: .value(2), after: .value(cursor)) }
            return TaskListQuery(first: .value(2))
        } page: { data, _ in
            .relay(items: data.taskConnection.edges.map(\.node), pageInfo: data.taskConnection.pageInfo)
        }
    }
}
