import Foundation
import Logging
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// The credential of a subscription's socket: the authenticator's token in the
/// `connection_init` payload, interceptors' headers on the upgrade, a refused token refreshed
/// once, and never a secret in a log line.
@Suite("GraphQL subscriptions: credentials in connection_init, refresh, redacted logs")
struct SubscriptionAuthenticationTests {
    /// Adds `Authorization: Bearer <token>`; a refresh replaces the token with `refreshed`
    /// (or fails when there is none).
    final class TestAuthenticator: PrismAuthenticator, @unchecked Sendable {
        private let lock = NSLock()
        private var token: String
        private let refreshed: String?
        private(set) var refreshCount = 0

        init(token: String, refreshed: String? = nil) {
            self.token = token
            self.refreshed = refreshed
        }

        func authorize(_ request: PrismHTTPRequest) async throws -> (request: PrismHTTPRequest, credential: String?) {
            var request = request
            let token = lock.withLock { self.token }
            request.headers["Authorization"] = "Bearer \(token)"
            return (request, token)
        }

        func refresh(replacing credential: String?) async throws {
            try lock.withLock {
                refreshCount += 1
                guard let refreshed else { throw PrismHTTPError(code: .authenticationFailed, message: "no refresh") }
                token = refreshed
            }
        }
    }

    @Test("the authenticator's token reaches connection_init, and interceptors' headers reach the upgrade request")
    func tokenReachesConnectionInit() async throws {
        try await withServer { server in
            let authenticator = TestAuthenticator(token: server.currentToken)
            var subscriptions = PrismGraphQLSubscriptionConfiguration.immediateReconnect
            subscriptions.connectionParameters = ["clientVersion": "2.1"]
            let graphql = server.subscriptionClient(
                path: "/graphql?requireToken=1",
                interceptors: [PrismInterceptor.headers(["X-App": "prism-tests"])],
                authenticator: authenticator,
                configuration: subscriptions)
            var values: [Int] = []
            for try await event in graphql.subscribe(counterSubscription(to: 2), as: CounterData.self) {
                values.append(try #require(event.data).counter)
            }
            #expect(values == [1, 2])
            let statistics = server.graphQLSubscriptionStatistics
            #expect(statistics.initPayloads == [#"{"Authorization":"Bearer token-0","clientVersion":"2.1"}"#])
            #expect(statistics.upgradeHeaders.first?["x-app"] == "prism-tests")
        }
    }

    @Test("a refused token ends every subscription with subscriptionRejected and the close code")
    func refusedToken() async throws {
        try await withServer { server in
            let authenticator = TestAuthenticator(token: "stolen")
            let graphql = server.subscriptionClient(path: "/graphql?requireToken=1", authenticator: authenticator)
            let error = await streamError(of: counterSubscription(to: 2), as: CounterData.self, on: graphql)
            #expect(error?.code == .subscriptionRejected)
            #expect(error?.closeCode == 4403)
            #expect(error?.operationName == "Count")
            #expect(authenticator.refreshCount == 1)
            #expect(server.graphQLSubscriptionStatistics.subscriptionsStarted == 0)
        }
    }

    @Test("a refused token is refreshed once and the subscription goes on with the new one")
    func refusedTokenIsRefreshed() async throws {
        try await withServer { server in
            let authenticator = TestAuthenticator(token: "expired", refreshed: server.currentToken)
            let graphql = server.subscriptionClient(path: "/graphql?requireToken=1", authenticator: authenticator)
            var values: [Int] = []
            for try await event in graphql.subscribe(counterSubscription(to: 3), as: CounterData.self) {
                values.append(try #require(event.data).counter)
            }
            #expect(values == [1, 2, 3])
            #expect(authenticator.refreshCount == 1)
            let statistics = server.graphQLSubscriptionStatistics
            #expect(statistics.connections == 2)
            #expect(statistics.initPayloads.last == #"{"Authorization":"Bearer token-0"}"#)
        }
    }

    @Test("without an authenticator, additionalHeaders' Authorization is the credential")
    func additionalHeadersCredential() async throws {
        try await withServer { server in
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql?requireToken=1"),
                additionalHeaders: ["Authorization": "Bearer \(server.currentToken)"],
                subscriptions: .immediateReconnect)
            var count = 0
            for try await _ in graphql.subscribe(counterSubscription(to: 2), as: CounterData.self) { count += 1 }
            #expect(count == 2)
        }
    }

    @Test("no log line carries the token, in the init payload or the upgrade headers")
    func logsAreRedacted() async throws {
        try await withServer { server in
            let lines = LockedBox<[String]>([])
            let logger = Logger(label: "subscriptions") { _ in CapturingLogHandler(lines: lines) }
            let authenticator = TestAuthenticator(token: "super-secret-token")
            let graphql = server.subscriptionClient(
                path: "/graphql?requireToken=1", authenticator: authenticator, logger: logger)
            await streamError(of: counterSubscription(to: 2), as: CounterData.self, on: graphql)
            let text = lines.wrappedValue.joined(separator: "\n")
            #expect(text.contains("connecting"))
            #expect(text.contains("Authorization"))
            #expect(!text.contains("super-secret-token"))
        }
    }
}
