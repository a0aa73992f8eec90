import Foundation
import PrismCache
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("The client's cache has a byte budget")
struct CacheBudgetTests {
    @Test("the default client's cache is bounded in bytes as well as in entries")
    func defaultBudget() {
        let client = PrismNetworkAdapter()
        #expect(client.cache?.maxBytes == PrismResponseCache.defaultMaxBytes)
        #expect(client.cache?.maxSize == 500)
    }

    @Test(
        "a response larger than the budget is not stored, and the cache stays within it",
        arguments: TransportKind.allCases)
    func tooLargeNotStored(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let cache = PrismResponseCache(maxSize: 100, maxBytes: 50_000)
            let client = PrismNetworkAdapter(transport: transport.make(), cache: cache)
            let large = RawRequest(endpoint: ServerEndpoint(server, "/large/100000", cacheInterval: 300))
            let small = RawRequest(endpoint: ServerEndpoint(server, "/json/2000", cacheInterval: 300))
            for _ in 0..<2 {
                #expect(try await client.request(on: large).count == 100_000)
                _ = try await client.request(on: small)
            }
            #expect(server.hits("/large/100000") == 2)
            #expect(server.hits("/json/2000") == 1)
            #expect(await cache.totalBytes <= 50_000)
        }
    }

    @Test("removeAll on sign-out leaves nothing to serve")
    func signOut() async throws {
        try await withCachingClient { (server, client) async throws in
            let request = cacheHitRequest(server, "me")
            #expect(try await client.request(on: request).hit == 1)
            await client.cache?.removeAll()
            #expect(try await client.request(on: request).hit == 2)
        }
    }
}
