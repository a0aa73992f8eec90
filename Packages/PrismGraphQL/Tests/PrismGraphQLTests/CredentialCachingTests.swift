import Foundation
import PrismCache
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@Suite("Cached query answers are never served to other credentials or other headers")
struct CredentialCachingTests {
    /// `authorization` echoes the request's Authorization header; `operationNumber` grows with every
    /// executed operation, so a cached answer repeats an old one.
    struct WhoData: Decodable, Sendable, Equatable {
        var authorization: String?
        var operationNumber: Int
    }

    static var who: PrismGraphQLQuery {
        var query = PrismGraphQLQuery(query: "query Who { authorization operationNumber }")
        query.cacheInterval = 60
        return query
    }

    func who(_ graphql: PrismGraphQLClient) async throws -> WhoData {
        try await graphql.execute(Self.who, as: WhoData.self).requireData()
    }

    @Test("two clients with their own Authorization on one cache each get their own answer")
    func additionalHeaderCredentials() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let cache = PrismResponseCache(maxSize: 10)
            func client(_ token: String) -> PrismGraphQLClient {
                PrismGraphQLClient(
                    endpointURL: server.url("/graphql"), additionalHeaders: ["Authorization": "Bearer \(token)"],
                    networkClient: PrismNetworkAdapter(cache: nil), cache: cache)
            }
            let alice = try await who(client("alice"))
            #expect(alice.authorization == "Bearer alice")
            #expect(try await who(client("alice")) == alice)  // from the cache
            let bob = try await who(client("bob"))
            #expect(bob.authorization == "Bearer bob")
            #expect(bob.operationNumber == alice.operationNumber + 1)
            #expect(await cache.keysByRecency.allSatisfy { !$0.contains("alice") && !$0.contains("bob") })
        }
    }

    @Test(
        "after a sign-out and a sign-in through the adapter's interceptor, the next user is not served the last one's answer"
    )
    func interceptorCredentials() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let token = LockedBox("alice")
            let adapter = PrismNetworkAdapter(
                cache: PrismResponseCache(maxSize: 10),
                interceptors: [
                    PrismInterceptor { request in
                        var request = request
                        request.headers["Authorization"] = "Bearer \(token.wrappedValue)"
                        return request
                    }
                ])
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: adapter)
            #expect(try await who(graphql).authorization == "Bearer alice")
            token.mutate { $0 = "bob" }
            #expect(try await who(graphql).authorization == "Bearer bob")
            token.mutate { $0 = "alice" }
            #expect(try await who(graphql).authorization == "Bearer alice")
            #expect(server.graphQLStatistics.executed == 2)
        }
    }

    @Test("the adapter's authenticator's token is part of the key")
    func authenticatorCredentials() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let cache = PrismResponseCache(maxSize: 10)
            func client(_ token: String) -> PrismGraphQLClient {
                let auth = PrismBearerTokenAuthenticator(accessToken: token) { _ in token }
                return PrismGraphQLClient(
                    endpointURL: server.url("/graphql"),
                    networkClient: PrismNetworkAdapter(cache: nil, authenticator: auth), cache: cache)
            }
            #expect(try await who(client("alice")).authorization == "Bearer alice")
            #expect(try await who(client("bob")).authorization == "Bearer bob")
            #expect(server.graphQLStatistics.executed == 2)
        }
    }

    @Test("any additional header, credential or not, is part of the key")
    func additionalHeadersSplit() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let cache = PrismResponseCache(maxSize: 10)
            for tenant in ["a", "b"] {
                let graphql = PrismGraphQLClient(
                    endpointURL: server.url("/graphql"), additionalHeaders: ["X-Tenant": tenant],
                    networkClient: PrismNetworkAdapter(cache: nil), cache: cache)
                _ = try await who(graphql)
            }
            #expect(server.graphQLStatistics.executed == 2)
        }
    }
}
