import Foundation
import PrismCache
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@Suite("The cache never hands one credential's response to another")
struct CredentialCachingTests {
    /// `/cache/me` cached for a minute: `hit` says how many requests reached the server.
    func me(_ server: PrismTestServer) -> ServerRequest<CacheHit> {
        ServerRequest<CacheHit>(endpoint: ServerEndpoint(server, "/cache/me", query: ["max-age": "60"]))
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
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter()
            let first = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/s", query: ["max-age": "60"], headers: [name: "one"]))
            let second = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/s", query: ["max-age": "60"], headers: [name: "two"]))
            #expect(try await client.request(on: first).hit == 1)
            #expect(try await client.request(on: second).hit == 2)
            #expect(try await client.request(on: first).hit == 1)
        }
    }

    @Test("a header that carries no credential does not split the cache")
    func plainHeadersShare() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter()
            for trace in ["a", "b"] {
                let request = ServerRequest<CacheHit>(
                    endpoint: ServerEndpoint(server, "/cache/t", query: ["max-age": "60"], headers: ["X-Trace": trace]))
                #expect(try await client.request(on: request).hit == 1)
            }
        }
    }
}
