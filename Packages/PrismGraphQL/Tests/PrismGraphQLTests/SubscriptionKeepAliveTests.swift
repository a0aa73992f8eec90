import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// The socket's keep-alive and idle life, on the configuration's clock.
@Suite("GraphQL subscriptions: missed pongs and the idle socket's linger")
struct SubscriptionKeepAliveTests {
    @Test("a ping left unanswered until the next one counts as a lost socket: the client reconnects and resubscribes")
    func missedPongReconnects() async throws {
        try await withClockedSubscriptionClient(
            path: "/graphql?silent=1", keepAliveInterval: .seconds(10),
            reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 3, jitter: .zero)
        ) { (server, clock, graphql) async throws in
            var events = try await subscribeToAddedTasks(graphql, on: server)
            try await advance(clock, by: .seconds(10)) { server.graphQLSubscriptionStatistics.count(of: "ping") == 1 }
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
            try await advance(clock, by: .seconds(10)) {
                let statistics = server.graphQLSubscriptionStatistics
                return statistics.connections == 2 && statistics.activeSubscriptions == 1
            }
            try await addTask("Reconnected", on: server)
            #expect(try await events.next()?.data?.taskAdded.title == "Reconnected")
        }
    }

    @Test("an idle socket stays open for the linger, is reused by a subscription started meanwhile, then closes")
    @MainActor
    func lingerKeepsTheSocket() async throws {
        try await withClockedSubscriptionClient(keepAliveInterval: nil, linger: .seconds(5)) {
            (server, clock, graphql) async throws in
            for try await _ in graphql.subscribe(counterSubscription(to: 1), as: CounterData.self) {}
            await clock.waitForSleeper()
            #expect(server.graphQLSubscriptionStatistics.openConnections == 1)

            var values: [Int] = []
            for try await event in graphql.subscribe(counterSubscription(to: 2), as: CounterData.self) {
                values.append(try #require(event.data).counter)
            }
            #expect(values == [1, 2])
            #expect(server.graphQLSubscriptionStatistics.connections == 1)

            // Other timers of the socket (its stable interval) sleep on the clock too: advance until
            // the linger has seen five seconds pass.
            try await advance(clock, by: .seconds(5)) { server.graphQLSubscriptionStatistics.openConnections == 0 }
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }
}
