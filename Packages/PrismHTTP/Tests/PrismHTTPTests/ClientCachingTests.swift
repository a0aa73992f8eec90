import Foundation
import PrismCache
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@Suite("Client caching against the test server")
struct ClientCachingTests {
    @Test("Cache-Control max-age serves the second request from the cache", arguments: TransportKind.allCases)
    func maxAge(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make())
            let request = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/a", query: ["max-age": "60"]))
            let first = try await client.request(on: request)
            let second = try await client.request(on: request)
            #expect(first == second)
            #expect(server.hits("/cache/a") == 1)
        }
    }

    @Test(
        "no-store is never cached, and no-cache without validators goes to the network",
        arguments: TransportKind.allCases)
    func noStoreNoCache(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make())
            for query in [["no-store": "1"], ["no-cache": "1"]] {
                let path = "/cache/\(query.keys.first!)"
                let request = ServerRequest<CacheHit>(endpoint: ServerEndpoint(server, path, query: query))
                let first = try await client.request(on: request)
                let second = try await client.request(on: request)
                #expect(first.hit == 1 && second.hit == 2, "\(query)")
            }
        }
    }

    @Test(
        "an ETag is revalidated with If-None-Match, and a 304 returns the cached body",
        arguments: TransportKind.allCases)
    func etagRevalidation(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make())
            let request = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, "/etag/doc"))
            let first = try await client.request(on: request)
            let second = try await client.request(on: request)
            #expect(first == second)
            #expect(server.hits("/etag/doc") == 2)
            let conditional = try #require(server.requests.last)
            #expect(conditional.headers["if-none-match"] != nil)
            _ = try await client.send(PrismHTTPRequest(url: server.url("/etag/doc/bump"), method: .post))
            let third = try await client.request(on: request)
            #expect(third.version == first.version + 1)
        }
    }

    @Test("Last-Modified is revalidated with If-Modified-Since", arguments: TransportKind.allCases)
    func lastModifiedRevalidation(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make())
            let request = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, "/last-modified/doc"))
            let first = try await client.request(on: request)
            let second = try await client.request(on: request)
            #expect(first == second)
            #expect(server.requests.last?.headers["if-modified-since"] != nil)
            _ = try await client.send(PrismHTTPRequest(url: server.url("/last-modified/doc/bump"), method: .post))
            #expect(try await client.request(on: request).version == first.version + 1)
        }
    }

    @Test("an endpoint's cacheInterval caches a response that has no cache headers (the seed's case)")
    func cacheInterval() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(interceptors: [redirect(to: server)])
            _ = try await client.request(on: GetUserRequest(login: "octocat"))
            _ = try await client.request(on: GetUserRequest(login: "octocat"))
            #expect(server.hits("/users/octocat") == 1)
        }
    }

    @Test("networkOnly ignores the cache; cacheFirst serves even a stale entry")
    func policies() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            let client = PrismNetworkAdapter(cache: PrismResponseCache(maxSize: 10, clock: clock))
            let request = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/p", query: ["max-age": "1000"]))
            #expect(try await client.request(on: request).hit == 1)
            #expect(try await client.request(on: request, cachePolicy: .networkOnly).hit == 2)
            #expect(try await client.request(on: request).hit == 1)
            await clock.advance(by: .seconds(1_001))
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).hit == 1)
            #expect(try await client.request(on: request).hit == 3)
        }
    }

    @Test("staleWhileRevalidate answers from the cache at once and refreshes it behind")
    func staleWhileRevalidate() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            let client = PrismNetworkAdapter(cache: PrismResponseCache(maxSize: 10, clock: clock))
            let request = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/s", query: ["max-age": "1000"]))
            _ = try await client.request(on: request)
            await clock.advance(by: .seconds(1_001))
            #expect(try await client.request(on: request, cachePolicy: .staleWhileRevalidate).hit == 1)
            // Wait until the background revalidation has stored the fresh response.
            let key = "GET \(server.url("/cache/s?max-age=1000").absoluteString)"
            // (A bound for a failing test only; CI runs many suites at once on two cores.)
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                if case .fresh = await client.cache!.lookup(key) { break }
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(server.hits("/cache/s") == 2)
            // The background revalidation stored the fresh response.
            let refreshed = try await client.request(on: request)
            #expect(refreshed.hit == 2)
        }
    }

    @Test("cacheThenNetwork yields the cached value first, then the fresh one")
    func cacheThenNetwork() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter()
            let request = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/c", query: ["max-age": "60"]))
            _ = try await client.request(on: request)
            var updates: [PrismNetworkUpdate<CacheHit>] = []
            for try await update in client.responses(on: request) { updates.append(update) }
            #expect(updates.map(\.source) == [.cache, .network])
            #expect(updates.map(\.value.hit) == [1, 2])
            // Without a cached value, only the network answer arrives.
            var fresh: [PrismNetworkUpdate<CacheHit>.Source] = []
            let other = ServerRequest<CacheHit>(
                endpoint: ServerEndpoint(server, "/cache/other", query: ["max-age": "60"]))
            for try await update in client.responses(on: other) { fresh.append(update.source) }
            #expect(fresh == [.network])
        }
    }
}
