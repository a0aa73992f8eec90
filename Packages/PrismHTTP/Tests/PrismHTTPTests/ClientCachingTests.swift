import Foundation
import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Client caching against the test server")
struct ClientCachingTests {
    @Test("Cache-Control max-age serves the second request from the cache", arguments: TransportKind.allCases)
    func maxAge(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let request = cacheHitRequest(server, "a")
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
        try await withCachingClient(transport) { (server, client) async throws in
            for query in [["no-store": "1"], ["no-cache": "1"]] {
                let path = "/cache/\(query.keys.first!)"
                let request = ServerRequest<CacheHit>(endpoint: ServerEndpoint(server, path, query: query))
                let first = try await client.request(on: request)
                let second = try await client.request(on: request)
                #expect(first.hit == 1 && second.hit == 2, "\(query)")
            }
        }
    }

    /// Asks `client` twice for the versioned document at `path` on `server`: the second answer must
    /// be the first, revalidated with the request header `validator` (after `expectedHits` requests
    /// to the server, when given). Then the document changes, and the next answer must be its next
    /// version.
    func expectRevalidation(
        of path: String, with validator: String, expectedHits: Int? = nil, _ server: PrismTestServer,
        _ client: PrismNetworkAdapter, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let request = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, path))
        let first = try await client.request(on: request)
        let second = try await client.request(on: request)
        #expect(first == second, sourceLocation: sourceLocation)
        if let expectedHits { #expect(server.hits(path) == expectedHits, sourceLocation: sourceLocation) }
        #expect(server.requests.last?.headers[validator] != nil, sourceLocation: sourceLocation)
        try await bump(path, on: server, through: client)
        #expect(try await client.request(on: request).version == first.version + 1, sourceLocation: sourceLocation)
    }

    @Test(
        "an ETag is revalidated with If-None-Match, and a 304 returns the cached body",
        arguments: TransportKind.allCases)
    func etagRevalidation(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            try await expectRevalidation(of: "/etag/doc", with: "if-none-match", expectedHits: 2, server, client)
        }
    }

    @Test("Last-Modified is revalidated with If-Modified-Since", arguments: TransportKind.allCases)
    func lastModifiedRevalidation(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            try await expectRevalidation(of: "/last-modified/doc", with: "if-modified-since", server, client)
        }
    }

    @Test("an endpoint's cacheInterval caches a response that has no cache headers (the seed's case)")
    func cacheInterval() async throws {
        try await withRedirectingClient { (server, client) async throws in
            _ = try await client.request(on: GetUserRequest(login: "octocat"))
            _ = try await client.request(on: GetUserRequest(login: "octocat"))
            #expect(server.hits("/users/octocat") == 1)
        }
    }

    @Test("networkOnly ignores the cache; cacheFirst serves even a stale entry")
    func policies() async throws {
        try await withClockedCachingClient { (server, clock, client) async throws in
            let request = cacheHitRequest(server, "p", maxAge: 1000)
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
        try await withClockedCachingClient { (server, clock, client) async throws in
            let request = cacheHitRequest(server, "s", maxAge: 1000)
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
        try await withCachingClient { (server, client) async throws in
            let request = cacheHitRequest(server, "c")
            _ = try await client.request(on: request)
            var updates: [PrismNetworkUpdate<CacheHit>] = []
            for try await update in client.responses(on: request) { updates.append(update) }
            #expect(updates.map(\.source) == [.cache, .network])
            #expect(updates.map(\.value.hit) == [1, 2])
            // Without a cached value, only the network answer arrives.
            var fresh: [PrismNetworkUpdate<CacheHit>.Source] = []
            let other = cacheHitRequest(server, "other")
            for try await update in client.responses(on: other) { fresh.append(update.source) }
            #expect(fresh == [.network])
        }
    }
}
