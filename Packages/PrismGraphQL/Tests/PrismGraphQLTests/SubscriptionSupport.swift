import Foundation
import Logging
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

extension PrismTestServer {
    /// A client of this server's `/graphql` (or `path`, whose query carries the subscription
    /// endpoint's flags) for subscriptions, with a reconnect policy that reconnects at once
    /// unless the test gives another.
    func subscriptionClient(
        path: String = "/graphql",
        interceptors: [any PrismRequestInterceptor] = [],
        authenticator: (any PrismAuthenticator)? = nil,
        logger: Logger? = nil,
        configuration: PrismGraphQLSubscriptionConfiguration = .immediateReconnect
    ) -> PrismGraphQLClient {
        PrismGraphQLClient(
            endpointURL: url(path),
            networkClient: PrismNetworkAdapter(
                cache: nil, interceptors: interceptors, authenticator: authenticator, logger: logger),
            cache: nil,
            subscriptions: configuration
        )
    }
}

/// The error that ends the stream of `subscription` on `graphql`, its events decoded as
/// `type`; an issue is recorded (and nil returned) when the stream ends without one.
@discardableResult
func streamError<T: Decodable & Sendable>(
    of subscription: PrismGraphQLSubscription,
    as type: T.Type,
    on graphql: PrismGraphQLClient,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> PrismGraphQLError? {
    await #expect(throws: PrismGraphQLError.self, sourceLocation: sourceLocation) {
        for try await _ in graphql.subscribe(subscription, as: type) {}
    }
}

/// Runs `body` with a test server and a client of its `/graphql` for subscriptions (see
/// ``PrismTestServer/subscriptionClient(path:interceptors:authenticator:logger:configuration:)``).
func withSubscriptionClient<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PrismTestServer, PrismGraphQLClient) async throws -> T
) async throws -> T {
    try await withServer { server in try await body(server, server.subscriptionClient()) }
}

/// Runs `body` with a test server, a test clock, and a client of the server's `path` for
/// subscriptions (see ``PrismTestServer/subscriptionClient(path:interceptors:authenticator:logger:configuration:)``)
/// whose waits are on that clock, configured as given (the configuration's own defaults otherwise).
func withClockedSubscriptionClient(
    isolation: isolated (any Actor)? = #isolation,
    path: String = "/graphql",
    connectionAckTimeout: Duration = .seconds(10),
    keepAliveInterval: Duration?,
    reconnectPolicy: (any PrismRetryPolicy)? = PrismGraphQLSubscriptionConfiguration.defaultReconnectPolicy,
    linger: Duration = .zero,
    _ body: (PrismTestServer, TestClock<Duration>, PrismGraphQLClient) async throws -> Void
) async throws {
    try await withServer { server in
        let clock = TestClock()
        let configuration = PrismGraphQLSubscriptionConfiguration(
            connectionAckTimeout: connectionAckTimeout, keepAliveInterval: keepAliveInterval,
            reconnectPolicy: reconnectPolicy, linger: linger, clock: clock)
        try await body(server, clock, server.subscriptionClient(path: path, configuration: configuration))
    }
}

/// How long a test whose subscription waits on the wall clock gives the server to acknowledge
/// `connection_init`: five minutes. The test server answers at once, but on a machine busy with
/// every other suite the default ten seconds have passed before it ran at all. The timeout itself
/// is tested on a clock the test controls.
let patientAcknowledgement: Duration = .seconds(300)

extension PrismGraphQLSubscriptionConfiguration {
    /// Reconnects at once, five times in a row at most; no keep-alive pings. The server has
    /// ``patientAcknowledgement`` to acknowledge `connection_init`.
    static var immediateReconnect: PrismGraphQLSubscriptionConfiguration {
        PrismGraphQLSubscriptionConfiguration(
            connectionAckTimeout: patientAcknowledgement,
            keepAliveInterval: nil,
            reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 5, jitter: .zero)
        )
    }
}

/// `subscription { counter(to:, intervalMs:) }` decoded.
struct CounterData: Decodable, Sendable, Equatable {
    var counter: Int
}

/// `subscription { taskAdded { id title } }` decoded.
struct TaskAddedData: Decodable, Sendable, Equatable {
    struct TaskItem: Decodable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    var taskAdded: TaskItem
}

func counterSubscription(to: Int, intervalMs: Int = 0) -> PrismGraphQLSubscription {
    PrismGraphQLSubscription(
        query: "subscription Count($to: Int!, $interval: Int) { counter(to: $to, intervalMs: $interval) }",
        variables: ["to": to, "interval": intervalMs],
        operationName: "Count"
    )
}

let taskAddedSubscription = PrismGraphQLSubscription(
    query: "subscription TaskAdded { taskAdded { id title } }", operationName: "TaskAdded")

/// Adds a task through the server's `addTask` mutation, over HTTP.
func addTask(_ title: String, on server: PrismTestServer) async throws {
    struct AddTaskData: Decodable, Sendable {
        struct Item: Decodable, Sendable { var id: Int }
        var addTask: Item
    }
    let graphql = server.graphQLClient()
    let mutation = PrismGraphQLQuery(
        query: "mutation Add($title: String!) { addTask(title: $title) { id } }", variables: ["title": title])
    _ = try await graphql.execute(mutation, as: AddTaskData.self).requireData()
}

/// The events of a new `taskAdded` subscription of `graphql`, once `server` holds one active
/// subscription.
func subscribeToAddedTasks(
    isolation: isolated (any Actor)? = #isolation,
    _ graphql: PrismGraphQLClient,
    on server: PrismTestServer
) async throws -> sending AsyncThrowingStream<PrismGraphQLResponse<TaskAddedData>, any Error>.Iterator {
    let events = graphql.subscribe(taskAddedSubscription, as: TaskAddedData.self).makeAsyncIterator()
    try await eventually(server) { $0.activeSubscriptions == 1 }
    return events
}

/// Waits until `condition` holds of the server's subscription statistics.
@MainActor
func eventually(
    _ server: PrismTestServer,
    _ condition: @escaping (PrismTestServer.GraphQLSubscriptionStatistics) -> Bool
) async throws {
    try await eventually { condition(server.graphQLSubscriptionStatistics) }
}
