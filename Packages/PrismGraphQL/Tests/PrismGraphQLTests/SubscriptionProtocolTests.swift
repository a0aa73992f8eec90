import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// What a client does with a server that breaks `graphql-transport-ws`, closes with a protocol
/// close code, never acknowledges, or pings; and the client's own keep-alive pings.
@Suite("GraphQL subscriptions: protocol violations, close codes, acknowledgement and pings")
struct SubscriptionProtocolTests {
    @Test(
        "a server that breaks the protocol ends every subscription with subscriptionProtocolViolation",
        arguments: ["unknownType", "unknownID", "nextBeforeAck", "binary", "invalidJSON"])
    func violations(violation: String) async throws {
        try await withServer { server in
            let graphql = server.subscriptionClient(path: "/graphql?violation=\(violation)")
            let error = await streamError(of: taskAddedSubscription, as: TaskAddedData.self, on: graphql)
            #expect(error?.code == .subscriptionProtocolViolation)
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }

    @Test(
        "a message larger than the configured maximum, in frames below it, ends every subscription with subscriptionProtocolViolation"
    )
    func oversizedMessage() async throws {
        try await withServer { server in
            let graphql = server.subscriptionClient(
                path: "/graphql?violation=oversized",
                configuration: PrismGraphQLSubscriptionConfiguration(
                    connectionAckTimeout: patientAcknowledgement, keepAliveInterval: nil, reconnectPolicy: nil,
                    maximumMessageSize: 16_384))
            let error = await streamError(of: taskAddedSubscription, as: TaskAddedData.self, on: graphql)
            #expect(error?.code == .subscriptionProtocolViolation)
        }
    }

    @Test(
        "a close code that rules out retrying is a typed error that keeps the code",
        arguments: [
            (4400, PrismGraphQLError.Code.subscriptionProtocolViolation),
            (4409, .subscriptionProtocolViolation), (4429, .subscriptionProtocolViolation),
            (4500, .subscriptionRejected), (4401, .subscriptionRejected), (4403, .subscriptionRejected),
        ])
    func closeCodes(code: Int, expected: PrismGraphQLError.Code) async throws {
        try await withServer { server in
            let graphql = server.subscriptionClient(path: "/graphql?close=\(code)")
            let error = await streamError(of: counterSubscription(to: 1), as: CounterData.self, on: graphql)
            #expect(error?.code == expected)
            #expect(error?.closeCode == code)
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }

    @Test("a close code that allows retrying reconnects as the policy says, then fails with requestFailed")
    func retryableCloseCode() async throws {
        try await withServer { server in
            let graphql = server.subscriptionClient(
                path: "/graphql?close=1011",
                configuration: PrismGraphQLSubscriptionConfiguration(
                    connectionAckTimeout: patientAcknowledgement, keepAliveInterval: nil,
                    reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 3, jitter: .zero)))
            let error = await streamError(of: counterSubscription(to: 1), as: CounterData.self, on: graphql)
            #expect(error?.code == .requestFailed)
            #expect(server.graphQLSubscriptionStatistics.connections == 3)
        }
    }

    @Test("a server that never acknowledges fails with connectionAckTimeout, timed on the configuration's clock")
    func acknowledgementTimeout() async throws {
        try await withClockedSubscriptionClient(
            path: "/graphql?violation=noAck", connectionAckTimeout: .seconds(3), keepAliveInterval: nil
        ) { (server, clock, graphql) async throws in
            let stream = graphql.subscribe(counterSubscription(to: 1), as: CounterData.self)
            try await eventually(server) { $0.initPayloads.count == 1 }
            await clock.waitForSleeper()
            await clock.advance(by: .seconds(3))
            let error = await #expect(throws: PrismGraphQLError.self) {
                for try await _ in stream {}
            }
            #expect(error?.code == .connectionAckTimeout)
            #expect(server.graphQLSubscriptionStatistics.subscriptionsStarted == 0)
        }
    }

    @Test("the client answers the server's ping with a pong")
    func pingAnswered() async throws {
        try await withServer { server in
            let graphql = server.subscriptionClient(path: "/graphql?serverPing=1")
            var events = graphql.subscribe(taskAddedSubscription, as: TaskAddedData.self).makeAsyncIterator()
            try await eventually(server) { $0.count(of: "pong") == 1 && $0.activeSubscriptions == 1 }
            try await addTask("After the ping", on: server)
            #expect(try await events.next()?.data?.taskAdded.title == "After the ping")
        }
    }

    @Test("the client sends a keep-alive ping every interval of its clock, and the server's pong keeps the socket")
    func keepAlivePings() async throws {
        try await withClockedSubscriptionClient(keepAliveInterval: .seconds(10)) {
            (server, clock, graphql) async throws in
            var events = try await subscribeToAddedTasks(graphql, on: server)
            #expect(server.graphQLSubscriptionStatistics.count(of: "ping") == 0)
            for round in 1...2 {
                try await advance(clock, by: .seconds(10)) {
                    server.graphQLSubscriptionStatistics.count(of: "ping") == round
                }
                // The event comes after the server's pong on the socket: once it is read, so is
                // the pong, and the next ping finds the last one answered.
                try await addTask("Alive \(round)", on: server)
                #expect(try await events.next()?.data?.taskAdded.title == "Alive \(round)")
            }
            #expect(server.graphQLSubscriptionStatistics.connections == 1)
        }
    }
}
