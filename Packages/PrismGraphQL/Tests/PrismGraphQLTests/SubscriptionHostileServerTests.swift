import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// Servers that hold, refuse or flood the subscriptions' socket: each is bounded by a setting
/// the app controls, and none can wedge the client.
@Suite("GraphQL subscriptions against hostile servers: a hanging upgrade, a refused one, floods")
struct SubscriptionHostileServerTests {
    /// A client of `url` whose acknowledgement timeout (two seconds) runs on `clock`, and that
    /// reconnects at once, `attempts` times in a row at most.
    func client(_ url: URL, clock: TestClock<Duration>, attempts: Int = 2) -> PrismGraphQLClient {
        PrismGraphQLClient(
            endpointURL: url, networkClient: PrismNetworkAdapter(cache: nil), cache: nil,
            subscriptions: PrismGraphQLSubscriptionConfiguration(
                connectionAckTimeout: .seconds(2), keepAliveInterval: nil,
                reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: attempts, jitter: .zero),
                clock: clock))
    }

    /// Runs `body` with a listener that accepts connections and never answers, a test clock, and a
    /// client (see ``client(_:clock:attempts:)``) of the listener's `/graphql` on that clock.
    @MainActor
    func withHangingUpgrade(
        _ body: (PrismSilentListener, TestClock<Duration>, PrismGraphQLClient) async throws -> Void
    ) async throws {
        try await PrismSilentListener.withRunning { listener in
            let clock = TestClock()
            try await body(
                listener, clock, client(URL(string: "http://127.0.0.1:\(listener.port)/graphql")!, clock: clock))
        }
    }

    /// The error that ends a subscription to `counter(to: 1)` through a client of `path` on a new
    /// test server (see ``client(_:clock:attempts:)``; its clock never moves), and the server's
    /// subscription statistics once it has ended.
    func endingError(
        at path: String, attempts: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (PrismGraphQLError?, PrismTestServer.GraphQLSubscriptionStatistics) {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = client(server.url(path), clock: TestClock(), attempts: attempts)
            let error = await streamError(
                of: counterSubscription(to: 1), as: CounterData.self, on: graphql, sourceLocation: sourceLocation)
            return (error, server.graphQLSubscriptionStatistics)
        }
    }

    @Test(
        "a server that accepts the connection and never answers the upgrade is given up after the acknowledgement timeout, and retried"
    )
    @MainActor
    func hangingUpgrade() async throws {
        try await withHangingUpgrade { (listener, clock, graphql) async throws in
            let outcome = Task {
                do {
                    for try await _ in graphql.subscribe(counterSubscription(to: 1), as: CounterData.self) {}
                    return PrismGraphQLError?.none
                } catch let error as PrismGraphQLError {
                    return error
                }
            }
            try await eventually { listener.acceptedConnections == 1 && listener.bytesReceived > 0 }
            // The timeout abandons the first socket and the policy opens a second one...
            try await advance(clock, by: .seconds(2), until: { listener.acceptedConnections == 2 })
            try await eventually { listener.openConnections == 1 }
            // ...whose timeout ends the subscription: the policy allowed two attempts.
            try await advance(clock, by: .seconds(2), until: { listener.openConnections == 0 })
            let error = try #require(await outcome.value)
            #expect(error.code == .requestFailed)
            #expect((error.underlying as? PrismHTTPError)?.code == .timedOut)
            #expect(error.message.contains("upgrade"))
            #expect(listener.acceptedConnections == 2)
        }
    }

    @Test("cancelling the last subscriber while the upgrade hangs frees the socket; the next subscribe opens a new one")
    @MainActor
    func cancelDuringHangingUpgrade() async throws {
        try await withHangingUpgrade { (listener, _, graphql) async throws in
            let first = Task {
                for try await _ in graphql.subscribe(counterSubscription(to: 1), as: CounterData.self) {}
            }
            try await eventually { listener.acceptedConnections == 1 && listener.bytesReceived > 0 }
            first.cancel()
            // No clock advances: the cancellation alone closes the connection.
            try await eventually { listener.openConnections == 0 }
            _ = await first.result

            let second = Task {
                for try await _ in graphql.subscribe(counterSubscription(to: 1), as: CounterData.self) {}
            }
            try await eventually { listener.acceptedConnections == 2 && listener.openConnections == 1 }
            second.cancel()
            try await eventually { listener.openConnections == 0 }
            _ = await second.result
        }
    }

    @Test("an upgrade the server refuses (HTTP 400) ends the subscription with subscriptionRejected and the status")
    func refusedUpgrade() async throws {
        let (error, statistics) = try await endingError(at: "/not-graphql", attempts: 5)
        #expect(error?.code == .subscriptionRejected)
        #expect(error?.statusCode == 400)
        #expect(statistics.connections == 0)
    }

    @Test(
        "a server that acknowledges and drops every socket at once runs out the reconnect policy",
        .timeLimit(.minutes(5)))
    func dropsEverySocket() async throws {
        // The test clock never reaches the stable interval: no socket counts as a good one.
        let (error, statistics) = try await endingError(at: "/graphql?dropAfterAck=1001", attempts: 3)
        #expect(error?.code == .requestFailed)
        #expect(statistics.connections == 3)
    }

    @Test(
        "credentials are refreshed once however refusals and drops alternate, until a socket stays up",
        .timeLimit(.minutes(5)))
    func oneRefreshPerStableConnection() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let refreshes = LockedBox(0)
            let tokens = PrismBearerTokenAuthenticator(accessToken: "token-a") { _ in
                refreshes.mutate { $0 += 1 }
                return "token-b"
            }
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql?dropAfterAck=4401,1001"),
                networkClient: PrismNetworkAdapter(cache: nil, authenticator: tokens), cache: nil,
                subscriptions: PrismGraphQLSubscriptionConfiguration(
                    keepAliveInterval: nil,
                    reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 10, jitter: .zero),
                    clock: TestClock()))
            let error = await streamError(of: counterSubscription(to: 1), as: CounterData.self, on: graphql)
            #expect(error?.code == .subscriptionRejected)
            #expect(error?.closeCode == 4401)
            #expect(refreshes.wrappedValue == 1)
            #expect(server.graphQLSubscriptionStatistics.connections == 3)
        }
    }

    @Test("a consumer that does not read while the server floods events gets those held, then consumerTooSlow")
    func floodOfEvents() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: PrismNetworkAdapter(cache: nil), cache: nil,
                subscriptions: PrismGraphQLSubscriptionConfiguration(
                    connectionAckTimeout: patientAcknowledgement, keepAliveInterval: nil, reconnectPolicy: nil,
                    maximumBufferedEvents: 20))
            let events = graphql.subscribe(counterSubscription(to: 1_000), as: CounterData.self)
            // Nothing reads: the client completes the subscription once its buffer is full. The
            // server hears it after it has written what it was writing: on a machine loaded with
            // every other suite that has taken more than 20 s.
            try await eventually(timeout: .seconds(90)) {
                server.graphQLSubscriptionStatistics.completedIDs.contains("1")
            }
            var received: [Int] = []
            let error = await #expect(throws: PrismGraphQLError.self) {
                for try await event in events { received.append(try #require(event.data).counter) }
            }
            #expect(error?.code == .consumerTooSlow)
            #expect(received == Array(1...20))
        }
    }
}
