import Foundation
import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("The cache never hands one credential's response to another")
struct CredentialCachingTests {
    /// `/cache/me` cached for a minute: `hit` says how many requests reached the server.
    func me(_ server: PrismTestServer) -> ServerRequest<CacheHit> {
        cacheHitRequest(server, "me")
    }

    @Test(
        "after a sign-out and a sign-in as someone else, GET /me is not served from the first user's cache",
        arguments: TransportKind.allCases)
    func signOutSignIn(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let token = LockedBox("token-alice")
            let client = PrismNetworkAdapter(
                transport: transport.make(),
                interceptors: [
                    PrismInterceptor { request in
                        var request = request
                        request.headers["Authorization"] = "Bearer \(token.wrappedValue)"
                        return request
                    }
                ]
            )
            #expect(try await client.request(on: me(server)).hit == 1)
            #expect(try await client.request(on: me(server)).hit == 1)  // Alice's, from the cache
            token.mutate { $0 = "token-bob" }
            #expect(try await client.request(on: me(server)).hit == 2)  // Bob's own
            #expect(try await client.request(on: me(server)).hit == 2)
            token.mutate { $0 = "token-alice" }
            #expect(try await client.request(on: me(server)).hit == 1)
            #expect(server.hits("/cache/me") == 2)
        }
    }

    @Test("the key is taken after the authenticator added its token", arguments: TransportKind.allCases)
    func authenticatorCredentials(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let cache = PrismResponseCache(maxSize: 10)
            let alice = PrismNetworkAdapter(
                transport: transport.make(), cache: cache,
                authenticator: PrismBearerTokenAuthenticator(accessToken: "alice") { _ in "alice-2" })
            let bob = PrismNetworkAdapter(
                transport: transport.make(), cache: cache,
                authenticator: PrismBearerTokenAuthenticator(accessToken: "bob") { _ in "bob-2" })
            #expect(try await alice.request(on: me(server)).hit == 1)
            #expect(try await bob.request(on: me(server)).hit == 2)
            #expect(try await alice.request(on: me(server)).hit == 1)
            // The credentials are in the key only as a digest.
            #expect(await cache.keysByRecency.allSatisfy { !$0.contains("alice") && !$0.contains("bob") })
        }
    }

    @Test(
        "cookies, API keys and every secret-listed header separate entries too",
        arguments: ["Cookie", "X-API-Key", "X-Session-Id", "Proxy-Authorization"])
    func everySecretHeader(name: String) async throws {
        try await withCachingClient { (server, client) async throws in
            let first = cacheHitRequest(server, "s", headers: [name: "one"])
            let second = cacheHitRequest(server, "s", headers: [name: "two"])
            #expect(try await client.request(on: first).hit == 1)
            #expect(try await client.request(on: second).hit == 2)
            #expect(try await client.request(on: first).hit == 1)
        }
    }

    @Test("a header that carries no credential does not split the cache")
    func plainHeadersShare() async throws {
        try await withCachingClient { (server, client) async throws in
            for trace in ["a", "b"] {
                let request = cacheHitRequest(server, "t", headers: ["X-Trace": trace])
                #expect(try await client.request(on: request).hit == 1)
            }
        }
    }

    @Test(
        "a 304 to a revalidation sent with refreshed credentials refreshes their entry only, never the old one's",
        arguments: TransportKind.allCases)
    func notModifiedRefreshesOnlyItsCredentials(transport: TransportKind) async throws {
        struct Versioned: PrismEntity {
            var name: String
            var version: Int
        }
        try await withServer { (server: PrismTestServer) async throws in
            let refreshes = LockedBox(0)
            let cache = PrismResponseCache(maxSize: 10)
            let tokens = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
                refreshes.mutate { $0 += 1 }
                // The server's refresh route: the next token number, here without a round trip.
                _ = try await PrismNetworkAdapter(cache: nil).send(
                    PrismHTTPRequest(
                        url: server.url("/auth/refresh"), method: .post, headers: ["Content-Type": "application/json"],
                        body: Data(#"{"refreshToken":"refresh-0"}"#.utf8)))
                return "token-1"
            }
            let client = PrismNetworkAdapter(transport: transport.make(), cache: cache, authenticator: tokens)
            let document = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, "/auth/etag/doc"))
            let keys = PrismNetworkAdapter(cache: nil)
            func key(_ token: String) async throws -> PrismCacheKey {
                let request = PrismHTTPRequest(
                    url: server.url("/auth/etag/doc"), headers: ["Authorization": "Bearer \(token)"])
                let prepared = try await keys.prepare(request, options: PrismRequestOptions())
                return prepared.cacheKey
            }
            #expect(try await client.request(on: document).version == 1)
            let old = try await key("token-0")
            #expect(await cache.lookup(old).entry != nil)

            // The old token expires: the revalidation is refused, refreshed, and sent again with
            // the new token, which the server answers 304 (fresh for a minute).
            server.expireToken()
            #expect(try await client.request(on: document).version == 1)
            #expect(refreshes.wrappedValue == 1)
            #expect(server.requests.last?.headers["authorization"] == "Bearer token-1")
            #expect(server.requests.last?.headers["if-none-match"] != nil)

            // The 304 answered token-1: token-0's entry stays as it was (stale), token-1's is fresh.
            let stale = await cache.lookup(old)
            guard case .stale = stale else {
                Issue.record("token-0's entry was refreshed by a 304 sent with token-1: \(stale)")
                return
            }
            let fresh = await cache.lookup(try await key("token-1"))
            guard case .fresh = fresh else {
                Issue.record("token-1's answer was not kept: \(fresh)")
                return
            }
            // And so the next request with token-1 is served from the cache.
            let sent = server.requests.count
            #expect(try await client.request(on: document).version == 1)
            #expect(server.requests.count == sent)
        }
    }
}
