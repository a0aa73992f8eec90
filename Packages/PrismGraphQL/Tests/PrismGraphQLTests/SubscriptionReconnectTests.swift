import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// A subscription outlives its socket: when the socket drops, the client reconnects as its
/// policy says (on its clock), initialises again and subscribes every active subscription again.
@Suite("GraphQL subscriptions: reconnecting after the socket drops")
struct SubscriptionReconnectTests {
    @Test("a dropped socket reconnects, subscribes again, and events continue")
    func droppedSocketReconnects() async throws {
        try await withSubscriptionClient { (server, graphql) async throws in
            var events = try await subscribeToAddedTasks(graphql, on: server)
            try await addTask("Before", on: server)
            #expect(try await events.next()?.data?.taskAdded.title == "Before")

            #expect(server.dropGraphQLSubscriptionSockets() == 1)
            try await eventually(server) { $0.connections == 2 && $0.activeSubscriptions == 1 }
            try await addTask("After", on: server)
            #expect(try await events.next()?.data?.taskAdded.title == "After")
            let statistics = server.graphQLSubscriptionStatistics
            #expect(statistics.count(of: "connection_init") == 2)
            #expect(statistics.subscriptionsStarted == 2)
        }
    }

    @Test("the reconnection waits the policy's delay on the configuration's clock")
    @MainActor
    func reconnectWaitsOnTheClock() async throws {
        try await withClockedSubscriptionClient(
            keepAliveInterval: nil,
            reconnectPolicy: PrismExponentialBackoff(baseDelay: .seconds(5), maxAttempts: 3, jitter: .zero)
        ) { (server, clock, graphql) async throws in
            var events = try await subscribeToAddedTasks(graphql, on: server)
            server.dropGraphQLSubscriptionSockets()
            await clock.waitForSleeper()
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
            // The socket's cancelled timers may still be among the clock's sleepers: advance until
            // the reconnection's own sleep has seen five seconds pass.
            try await advance(clock, by: .seconds(5)) {
                server.graphQLSubscriptionStatistics.connections == 2
                    && server.graphQLSubscriptionStatistics.activeSubscriptions == 1
            }
            try await addTask("Back", on: server)
            #expect(try await events.next()?.data?.taskAdded.title == "Back")
        }
    }

    @Test("with no reconnect policy a dropped socket ends every subscription with requestFailed")
    func noPolicyFails() async throws {
        try await withServer { server in
            let graphql = server.subscriptionClient(
                configuration: PrismGraphQLSubscriptionConfiguration(
                    connectionAckTimeout: patientAcknowledgement, keepAliveInterval: nil, reconnectPolicy: nil))
            let stream = graphql.subscribe(taskAddedSubscription, as: TaskAddedData.self)
            try await eventually(server) { $0.activeSubscriptions == 1 }
            server.dropGraphQLSubscriptionSockets()
            let error = await #expect(throws: PrismGraphQLError.self) {
                for try await _ in stream {}
            }
            #expect(error?.code == .requestFailed)
            #expect((error?.underlying as? PrismHTTPError)?.code == .connectionFailed)
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }
}
