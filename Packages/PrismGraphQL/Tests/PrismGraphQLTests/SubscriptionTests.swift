import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// GraphQL subscriptions over one WebSocket (`graphql-transport-ws`) against the test server's
/// Graphiti schema: typed events in order, one socket for many subscriptions, complete on cancel,
/// and the errors a subscription can end with.
@Suite("GraphQL subscriptions: typed events over one shared WebSocket")
struct SubscriptionTests {
    @Test("events arrive decoded and in order, and the stream finishes when the server completes")
    func eventsArriveInOrder() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            var values: [Int] = []
            for try await event in graphql.subscribe(counterSubscription(to: 5), as: CounterData.self) {
                #expect(event.errors == nil)
                values.append(try #require(event.data).counter)
            }
            #expect(values == [1, 2, 3, 4, 5])
            let statistics = server.graphQLSubscriptionStatistics
            #expect(statistics.connections == 1)
            #expect(statistics.messageTypes.prefix(2) == ["connection_init", "subscribe"])
            #expect(statistics.upgradeHeaders.first?["sec-websocket-protocol"] == "graphql-transport-ws")
        }
    }

    @Test("events driven by mutations reach the subscription, typed")
    func mutationsDriveEvents() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            var events = try await subscribeToAddedTasks(graphql, on: server)
            try await addTask("Write the tests", on: server)
            try await addTask("Ship", on: server)
            let first = try #require(try await events.next()).data?.taskAdded
            let second = try #require(try await events.next()).data?.taskAdded
            #expect(first == .init(id: 1, title: "Write the tests"))
            #expect(second == .init(id: 2, title: "Ship"))
        }
    }

    @Test("two subscriptions share one socket, each getting its own events")
    func subscriptionsShareOneSocket() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            async let small = collect(
                graphql.subscribe(counterSubscription(to: 3, intervalMs: 5), as: CounterData.self))
            async let large = collect(
                graphql.subscribe(counterSubscription(to: 6, intervalMs: 5), as: CounterData.self))
            let (three, six) = try await (small, large)
            #expect(three == [1, 2, 3])
            #expect(six == [1, 2, 3, 4, 5, 6])
            let statistics = server.graphQLSubscriptionStatistics
            #expect(statistics.connections == 1)
            #expect(statistics.subscriptionsStarted == 2)
            #expect(statistics.count(of: "connection_init") == 1)
        }
    }

    @Test("a copy of the client shares its socket")
    func copiesShareTheSocket() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            let copy = graphql
            var first = graphql.subscribe(taskAddedSubscription, as: TaskAddedData.self).makeAsyncIterator()
            var second = copy.subscribe(taskAddedSubscription, as: TaskAddedData.self).makeAsyncIterator()
            try await eventually(server) { $0.activeSubscriptions == 2 }
            try await addTask("Shared", on: server)
            #expect(try await first.next()?.data?.taskAdded.title == "Shared")
            #expect(try await second.next()?.data?.taskAdded.title == "Shared")
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }

    @Test("cancelling the consumer sends complete, the server stops the subscription, and the idle socket closes")
    func cancellingCompletes() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            let received = LockedBox(0)
            let consumer = Task {
                for try await _ in graphql.subscribe(
                    counterSubscription(to: 100_000, intervalMs: 10), as: CounterData.self)
                {
                    received.mutate { $0 += 1 }
                }
            }
            try await eventually { received.wrappedValue >= 2 }
            consumer.cancel()
            try await eventually(server) {
                $0.completedIDs == ["1"] && $0.activeSubscriptions == 0 && $0.counterStreamsEnded == 1
                    && $0.openConnections == 0
            }
            _ = await consumer.result
            #expect(received.wrappedValue < 100_000)
        }
    }

    @Test("cancelling one subscription leaves the other running on the socket")
    func cancellingOneKeepsTheOther() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            let consumer = Task {
                for try await _ in graphql.subscribe(taskAddedSubscription, as: TaskAddedData.self) {}
            }
            var kept = graphql.subscribe(taskAddedSubscription, as: TaskAddedData.self).makeAsyncIterator()
            try await eventually(server) { $0.activeSubscriptions == 2 }
            consumer.cancel()
            try await eventually(server) { $0.activeSubscriptions == 1 && $0.completedIDs.count == 1 }
            try await addTask("Still here", on: server)
            #expect(try await kept.next()?.data?.taskAdded.title == "Still here")
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }

    @Test("a GraphQL error message ends the stream with the server's errors")
    func errorMessageEndsTheStream() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            let failing = PrismGraphQLSubscription(query: "subscription { failingSubscription }")
            let error = await streamError(of: failing, as: PrismGraphQLValue.self, on: graphql)
            #expect(error?.code == .graphQLErrors)
            #expect(
                error?.errors.first?.message.contains("failingSubscription always fails") == true,
                "\(String(describing: error))")
            #expect(server.graphQLSubscriptionStatistics.completedIDs.isEmpty)
        }
    }

    @Test("an invalid document ends the stream with the validation errors")
    func invalidDocument() async throws {
        try await withSubscriptionClient { (_, graphql) async throws in
            let invalid = PrismGraphQLSubscription(query: "subscription { noSuchField }")
            let error = await streamError(of: invalid, as: PrismGraphQLValue.self, on: graphql)
            #expect(error?.code == .graphQLErrors)
            #expect(error?.errors.isEmpty == false)
        }
    }

    @Test("an event that does not decode ends the stream with decodingFailed and completes it on the server")
    func undecodableEvent() async throws {
        struct WrongShape: Decodable, Sendable { var counter: String }
        try await withSubscriptionClient { (server, graphql) async throws in
            let error = await streamError(
                of: counterSubscription(to: 100_000, intervalMs: 10), as: WrongShape.self, on: graphql)
            #expect(error?.code == .decodingFailed)
            #expect(error?.operationName == "Count")
            try await eventually(server) { $0.completedIDs == ["1"] && $0.activeSubscriptions == 0 }
        }
    }

    @Test("an endpoint that cannot be a WebSocket URL fails with invalidEndpoint")
    func invalidEndpoint() async throws {
        let graphql = PrismGraphQLClient(endpointURL: URL(string: "ftp://example.com/graphql")!)
        let error = await streamError(of: counterSubscription(to: 1), as: CounterData.self, on: graphql)
        #expect(error?.code == .invalidEndpoint)
    }

    private func collect(
        _ stream: AsyncThrowingStream<PrismGraphQLResponse<CounterData>, any Error>
    ) async throws -> [Int] {
        var values: [Int] = []
        for try await event in stream { values.append(try #require(event.data).counter) }
        return values
    }
}
