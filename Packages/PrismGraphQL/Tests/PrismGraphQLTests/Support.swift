import Foundation
import PrismCache
import PrismGraphQL
import PrismTestServer

@_spi(PrismInternals) @testable import PrismHTTP

/// The transports every behaviour is tested on: PrismHTTP's two.
typealias TransportKind = PrismTransportKind

/// Starts a test server, runs `body`, and shuts the server down whatever happens.
func withServer<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PrismTestServer) async throws -> T
) async throws -> T {
    try await PrismTestServer.withRunning(body)
}

/// Runs `body` with a test server and a client of its `/graphql` with a response cache of
/// ten entries (see ``PrismTestServer/graphQLClient(path:transport:interceptors:cache:automaticPersistedQueries:queryMethod:)``).
func withCachingClient<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PrismTestServer, PrismGraphQLClient) async throws -> T
) async throws -> T {
    try await withServer { server in
        try await body(server, server.graphQLClient(cache: PrismResponseCache(maxSize: 10)))
    }
}

extension PrismTestServer {
    /// A client of this server's `/graphql` (or `path`) through a PrismHTTP adapter of its own.
    /// Its subscriptions give the server ``patientAcknowledgement`` to acknowledge
    /// `connection_init` (the default ten seconds ran out on a busy machine).
    func graphQLClient(
        path: String = "/graphql",
        transport: TransportKind = .asyncHTTPClient,
        interceptors: [any PrismRequestInterceptor] = [],
        cache: PrismResponseCache? = nil,
        automaticPersistedQueries: Bool = false,
        queryMethod: PrismGraphQLHTTPMethod = .post
    ) -> PrismGraphQLClient {
        PrismGraphQLClient(
            endpointURL: url(path),
            networkClient: PrismNetworkAdapter(transport: transport.make(), cache: nil, interceptors: interceptors),
            cache: cache,
            automaticPersistedQueries: automaticPersistedQueries,
            queryMethod: queryMethod,
            subscriptions: PrismGraphQLSubscriptionConfiguration(connectionAckTimeout: patientAcknowledgement)
        )
    }
}

/// `{ user(login:) { login name publicRepos } }` decoded.
struct UserQueryData: Decodable, Sendable, Equatable {
    struct User: Decodable, Sendable, Equatable {
        var login: String
        var name: String?
        var publicRepos: Int
    }

    var user: User?
}

/// The query the tests send most: GetUser with the login, name and repository count.
func getUserQuery(_ login: String) -> PrismGraphQLQuery {
    PrismGraphQLQuery(
        query: "query GetUser($login: String!) { user(login: $login) { login name publicRepos } }",
        variables: ["login": login],
        operationName: "GetUser"
    )
}

/// The data of a query that asks only for `operationNumber`, which grows with every operation
/// the server executes: a response from a cache repeats an old number.
struct OperationNumberData: Decodable, Sendable, Equatable {
    var operationNumber: Int
}
