import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

// The test server's tasks, as the code generator would write their operations.

private struct TasksQuery: PrismGraphQLQueryOperation {
    static let operationName = "Tasks"
    static let document = "query Tasks { tasks { __typename id title } }"
    struct Data: Decodable, Sendable, Hashable {
        let tasks: [Task]
        struct Task: Decodable, Sendable, Hashable {
            let id: Int
            let title: String
        }
    }
}

private struct TaskQuery: PrismGraphQLQueryOperation {
    static let operationName = "Task"
    static let document = "query Task($id: Int!) { task(id: $id) { __typename id title } }"
    struct Variables: Encodable, Sendable, Hashable { var id: Int }
    struct Data: Decodable, Sendable, Hashable {
        let task: Task?
        struct Task: Decodable, Sendable, Hashable {
            let id: Int
            let title: String
        }
    }
    var variables: Variables
}

private struct TaskAddedSubscription: PrismGraphQLSubscriptionOperation {
    static let operationName = "TaskAdded"
    static let document = "subscription TaskAdded { taskAdded { __typename id title } }"
    struct Data: Decodable, Sendable, Hashable {
        let taskAdded: Added
        struct Added: Decodable, Sendable, Hashable {
            let id: Int
            let title: String
        }
    }
}

@Suite("The normalized cache through the client, against the test server's GraphQL")
struct NormalizedClientTests {
    @Test("a mutation renames a task, and two watches of different queries see it with one request in all")
    func renameReachesEveryWatch() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            for title in ["one", "two"] {
                _ = try await graphql.execute(AddTaskMutation(variables: .init(title: title))).requireData()
            }
            var list = graphql.watch(TasksQuery()).makeAsyncIterator()
            var detail = graphql.watch(TaskQuery(variables: .init(id: 2))).makeAsyncIterator()
            #expect(try await list.next()?.tasks.map(\.title) == ["one", "two"])
            #expect(try await detail.next()?.task?.title == "two")
            let before = server.graphQLStatistics.executed

            _ = try await graphql.execute(RenameTaskMutation(variables: .init(id: 2, title: "deux"))).requireData()
            #expect(try await list.next()?.tasks.map(\.title) == ["one", "deux"])
            #expect(try await detail.next()?.task?.title == "deux")
            #expect(server.graphQLStatistics.executed == before + 1)
        }
    }

    @Test("fetch: cacheFirst answers from the cache without a request; networkOnly asks; cacheOnly never asks")
    func fetchPolicies() async throws {
        try await withServer { server in
            let cache = PrismGraphQLNormalizedCache()
            let graphql = server.graphQLClient().normalizing(into: cache)
            let missing = await #expect(throws: PrismGraphQLError.self) {
                try await graphql.fetch(TasksQuery(), policy: .cacheOnly)
            }
            #expect(missing?.code == .cacheMiss)
            _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "one"))).requireData()
            let first = server.graphQLStatistics.executed
            #expect(try await graphql.fetch(TasksQuery()).tasks.map(\.title) == ["one"])
            #expect(server.graphQLStatistics.executed == first + 1)
            #expect(try await graphql.fetch(TasksQuery()).tasks.map(\.title) == ["one"])
            #expect(try await graphql.fetch(TasksQuery(), policy: .cacheOnly).tasks.map(\.title) == ["one"])
            #expect(server.graphQLStatistics.executed == first + 1)
            _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "two"))).requireData()
            #expect(try await graphql.fetch(TasksQuery(), policy: .networkOnly).tasks.map(\.title) == ["one", "two"])
        }
    }

    @Test("cacheAndNetwork delivers the cached answer, then the server's when it differs")
    func cacheAndNetwork() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "one"))).requireData()
            _ = try await graphql.fetch(TasksQuery())
            // Another client adds a task: this cache does not know of it until it asks.
            _ = try await server.graphQLClient().execute(AddTaskMutation(variables: .init(title: "two"))).requireData()
            var answers = graphql.watch(TasksQuery(), policy: .cacheAndNetwork).makeAsyncIterator()
            #expect(try await answers.next()?.tasks.map(\.title) == ["one"])
            #expect(try await answers.next()?.tasks.map(\.title) == ["one", "two"])
        }
    }

    @Test("a subscription's event updates a watched task")
    func subscriptionEventUpdatesWatch() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient().normalizing(into: PrismGraphQLNormalizedCache())
            _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "one"))).requireData()
            var detail = graphql.watch(TaskQuery(variables: .init(id: 2)), policy: .cacheOnly).makeAsyncIterator()
            var events = graphql.subscribe(TaskAddedSubscription()).makeAsyncIterator()
            try await eventually { server.graphQLSubscriptionStatistics.activeSubscriptions == 1 }
            // Task 2 arrives by the subscription; the watch of task(id: 2) still misses (nothing
            // stored for that field), but the record is there for the next query that reads it.
            _ = try await server.graphQLClient().execute(AddTaskMutation(variables: .init(title: "two"))).requireData()
            #expect(try await events.next()?.data?.taskAdded.title == "two")
            _ = try await graphql.fetch(TaskQuery(variables: .init(id: 2)))
            #expect(try await detail.next()?.task?.title == "two")
            _ = try await graphql.execute(RenameTaskMutation(variables: .init(id: 2, title: "deux"))).requireData()
            #expect(try await detail.next()?.task?.title == "deux")
        }
    }

    @Test("an optimistic rename shows while the mutation is sent, and is rolled back when the server answers an error")
    func optimisticRollback() async throws {
        try await withServer { server in
            let cache = PrismGraphQLNormalizedCache()
            let seenWhileSent = LockedBox<[String]>([])
            // Reads the cache as the mutation's request is prepared: after the optimistic write,
            // before the server's answer.
            let peek = PrismInterceptor { request in
                if let task = try? cache.read(TaskQuery(variables: .init(id: 1))).task {
                    seenWhileSent.mutate { $0.append(task.title) }
                }
                return request
            }
            let graphql = server.graphQLClient(interceptors: [peek]).normalizing(into: cache)
            _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "one"))).requireData()
            _ = try await graphql.fetch(TaskQuery(variables: .init(id: 1)))
            seenWhileSent.mutate { $0.removeAll() }

            // The server refuses (there is no task 99): task 1 shows the optimistic title while the
            // mutation is sent, then its own again.
            let refused = try await graphql.execute(
                RenameTaskMutation(variables: .init(id: 99, title: "nope")),
                optimisticData: ["renameTask": ["__typename": "TaskItem", "id": 1, "title": "nope"]])
            #expect(refused.hasErrors)
            #expect(seenWhileSent.wrappedValue == ["nope"])
            #expect(try cache.read(TaskQuery(variables: .init(id: 1))).task?.title == "one")

            // Accepted: the server's answer replaces the optimistic one.
            seenWhileSent.mutate { $0.removeAll() }
            _ = try await graphql.execute(
                RenameTaskMutation(variables: .init(id: 1, title: "uno")),
                optimisticData: ["renameTask": ["__typename": "TaskItem", "id": 1, "title": "uno?"]])
            #expect(seenWhileSent.wrappedValue == ["uno?"])
            #expect(try cache.read(TaskQuery(variables: .init(id: 1))).task?.title == "uno")
        }
    }

    @Test("past its max age, cacheFirst answers from the cache at once and asks the server again behind it")
    func staleWhileRevalidate() async throws {
        try await withServer { server in
            let clock = TestClock()
            let cache = PrismGraphQLNormalizedCache(
                configuration: .init(maxAge: ["TaskItem": .seconds(60)]), clock: clock)
            let graphql = server.graphQLClient().normalizing(into: cache)
            _ = try await graphql.execute(AddTaskMutation(variables: .init(title: "one"))).requireData()
            #expect(try await graphql.fetch(TasksQuery()).tasks.map(\.title) == ["one"])
            let fetched = server.graphQLStatistics.executed
            // Renamed behind this cache's back (another client).
            _ = try await server.graphQLClient().execute(RenameTaskMutation(variables: .init(id: 1, title: "uno")))
                .requireData()
            #expect(try await graphql.fetch(TasksQuery()).tasks.map(\.title) == ["one"])
            #expect(server.graphQLStatistics.executed == fetched + 1)

            await clock.advance(by: .seconds(61))
            #expect(try await graphql.fetch(TasksQuery()).tasks.map(\.title) == ["one"])
            try await eventually { (try? cache.read(TasksQuery()).tasks.map(\.title)) == ["uno"] }
            #expect(server.graphQLStatistics.executed == fetched + 2)
        }
    }

    @Test("watch without a normalized cache fails with invalidOperation")
    func watchNeedsCache() async throws {
        try await withServer { server in
            var answers = server.graphQLClient().watch(TasksQuery()).makeAsyncIterator()
            let error = await #expect(throws: PrismGraphQLError.self) { try await answers.next() }
            #expect(error?.code == .invalidOperation)
        }
    }
}
