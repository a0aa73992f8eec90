import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

// Pagination against the test server's `taskConnection` (Relay) and `taskPage` (offsets).

private struct ConnectionQuery: PrismGraphQLQueryOperation {
    static let operationName = "Connection"
    static let document = """
        query Connection($first: Int, $after: String, $last: Int, $before: String) {
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
            let node: TaskItem
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

private struct PageQuery: PrismGraphQLQueryOperation {
    static let operationName = "Page"
    static let document = """
        query Page($offset: Int!, $limit: Int!) { taskPage(offset: $offset, limit: $limit) { __typename id title } }
        """
    struct Variables: Encodable, Sendable, Hashable {
        var offset: Int
        var limit: Int
    }
    struct Data: Decodable, Sendable, Hashable {
        let taskPage: [TaskItem]
    }
    var variables: Variables
}

/// A Relay pager of pages of `size`, starting at the cursor `start` (a list opened in its middle).
private func relayPager(
    _ graphql: PrismGraphQLClient, size: Int = 3, start: String? = nil
) -> PrismGraphQLPager<ConnectionQuery, TaskItem> {
    PrismGraphQLPager(id: "tasks", client: graphql) { request in
        switch request {
        case .after(let cursor): ConnectionQuery(variables: .init(first: size, after: cursor))
        case .before(let cursor): ConnectionQuery(variables: .init(last: size, before: cursor))
        default: ConnectionQuery(variables: .init(first: size, after: start))
        }
    } page: { data, _ in
        .relay(items: data.taskConnection.edges.map(\.node), pageInfo: data.taskConnection.pageInfo)
    }
}

private func addTasks(_ count: Int, to graphql: PrismGraphQLClient) async throws {
    for index in 1...count {
        _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "task \(index)"))).requireData()
    }
}

@Suite("Pagination in the normalized cache, against the test server")
struct PagerTests {
    @Test("a Relay connection: next pages merge into one list, to its end; one request per page")
    func relayNext() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            try await addTasks(7, to: graphql)
            let pager = relayPager(graphql)
            #expect(pager.list == nil)
            let before = server.graphQLStatistics.executed
            var list = try await pager.loadNext()
            #expect(list.items.map(\.id) == [1, 2, 3])
            #expect(list.hasNextPage && !list.hasPreviousPage)
            list = try await pager.loadNext()
            list = try await pager.loadNext()
            #expect(list.items.map(\.id) == [1, 2, 3, 4, 5, 6, 7])
            #expect(!list.hasNextPage && list.pageCount == 3)
            // At the end: nothing is fetched.
            #expect(try await pager.loadNext().items.count == 7)
            #expect(server.graphQLStatistics.executed == before + 3)
            #expect(pager.list?.items.count == 7)
        }
    }

    @Test("a list opened in its middle loads the pages before it, and puts them first")
    func relayPrevious() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            try await addTasks(7, to: graphql)
            let pager = relayPager(graphql, size: 2, start: "task:4")
            var list = try await pager.loadNext()
            #expect(list.items.map(\.id) == [5, 6])
            #expect(list.hasPreviousPage && list.hasNextPage)
            list = try await pager.loadPrevious()
            #expect(list.items.map(\.id) == [3, 4, 5, 6])
            list = try await pager.loadPrevious()
            list = try await pager.loadPrevious()
            #expect(list.items.map(\.id) == [1, 2, 3, 4, 5, 6])
            #expect(!list.hasPreviousPage)
            list = try await pager.loadNext()
            #expect(list.items.map(\.id) == [1, 2, 3, 4, 5, 6, 7])
        }
    }

    @Test("an offset list pages by offset, and ends at a page that is not full")
    func offsets() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            try await addTasks(5, to: graphql)
            let pager = PrismGraphQLPager(id: "offsets", client: graphql) { request in
                if case .offset(let offset) = request { return PageQuery(variables: .init(offset: offset, limit: 2)) }
                return PageQuery(variables: .init(offset: 0, limit: 2))
            } page: { data, request in
                if case .offset(let offset) = request { return .offset(items: data.taskPage, at: offset, pageSize: 2) }
                return .offset(items: data.taskPage, at: 0, pageSize: 2)
            }
            _ = try await pager.loadNext()
            _ = try await pager.loadNext()
            let list = try await pager.loadNext()
            #expect(list.items.map(\.title) == ["task 1", "task 2", "task 3", "task 4", "task 5"])
            #expect(!list.hasNextPage && !list.hasPreviousPage)
        }
    }

    @Test("a watch of the list sees each new page and a rename of an item in any page, without a request")
    func watchTheList() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            try await addTasks(5, to: graphql)
            let pager = relayPager(graphql)
            var lists = pager.watch().makeAsyncIterator()
            _ = try await pager.loadNext()
            #expect(await lists.next()?.items.map(\.id) == [1, 2, 3])
            _ = try await pager.loadNext()
            #expect(await lists.next()?.items.map(\.id) == [1, 2, 3, 4, 5])
            let before = server.graphQLStatistics.executed
            _ = try await graphql.execute(RenameTaskMutation(variables: .init(id: 5, title: "five"))).requireData()
            #expect(await lists.next()?.items.map(\.title).last == "five")
            #expect(server.graphQLStatistics.executed == before + 1)
        }
    }

    @Test("two loadNext at once send one request; a refresh keeps the first page only")
    func concurrentLoads() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            try await addTasks(7, to: graphql)
            let pager = relayPager(graphql)
            _ = try await pager.loadNext()
            let before = server.graphQLStatistics.executed
            async let first = pager.loadNext()
            async let second = pager.loadNext()
            let (one, two) = try await (first, second)
            // Either the second joined the first (one request), or it ran after it (two pages).
            let requests = server.graphQLStatistics.executed - before
            #expect(one.items.map(\.id) == [1, 2, 3, 4, 5, 6])
            #expect(two.items.map(\.id) == (requests == 1 ? [1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]))
            #expect(requests <= 2)
            let refreshed = try await pager.refresh()
            #expect(refreshed.items.map(\.id) == [1, 2, 3] && refreshed.pageCount == 1)
        }
    }

    @Test("a page the server refuses leaves the list as it was")
    func failedPage() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            try await addTasks(4, to: graphql)
            let pager = PrismGraphQLPager(id: "bad", client: graphql) { request in
                if case .after(let cursor) = request {
                    // Not a cursor the server knows: it answers with an error.
                    return ConnectionQuery(variables: .init(first: 2, after: cursor + "-broken"))
                }
                return ConnectionQuery(variables: .init(first: 2))
            } page: { data, _ in
                .relay(
                    items: data.taskConnection.edges.map(\.node), startCursor: data.taskConnection.pageInfo.startCursor,
                    endCursor: data.taskConnection.pageInfo.endCursor,
                    hasPreviousPage: data.taskConnection.pageInfo.hasPreviousPage,
                    hasNextPage: data.taskConnection.pageInfo.hasNextPage)
            }
            _ = try await pager.loadNext()
            await #expect(throws: PrismGraphQLError.self) { try await pager.loadNext() }
            #expect(pager.list?.items.map(\.id) == [1, 2])
            #expect(pager.list?.pageCount == 1)
        }
    }

    @Test("the list survives a relaunch: a pager on the reopened store has every page, without a request")
    func survivesRelaunch() async throws {
        try await withServer { server in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "prism-pager-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("cache.sqlite")
            let first = try await PrismGraphQLNormalizedCache.open(at: url)
            let graphql = server.graphQLClient().normalizing(into: first)
            try await addTasks(5, to: graphql)
            _ = try await relayPager(graphql).loadNext()
            _ = try await relayPager(graphql).loadNext()
            try await first.close()

            let reopened = try await PrismGraphQLNormalizedCache.open(at: url)
            let before = server.graphQLStatistics.executed
            let pager = relayPager(server.graphQLClient().normalizing(into: reopened))
            #expect(pager.list?.items.map(\.id) == [1, 2, 3, 4, 5])
            var lists = pager.watch().makeAsyncIterator()
            #expect(await lists.next()?.pageCount == 2)
            #expect(server.graphQLStatistics.executed == before)
            // Collecting keeps the list: the query root holds the pager's record.
            reopened.collectGarbage()
            #expect(pager.list?.items.count == 5)
            try await reopened.close()
        }
    }
}
