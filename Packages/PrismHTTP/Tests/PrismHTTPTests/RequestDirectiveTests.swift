import Foundation
import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// A request's own `Cache-Control` (RFC 9111 §5.2.1) and `Pragma` (§5.4).
@Suite("A request's own Cache-Control: no-cache, max-age=0, only-if-cached, Pragma")
struct RequestDirectiveTests {
    @Test(
        "no-cache, max-age=0 and Pragma: no-cache ask the server although a fresh response is stored, under every policy",
        arguments: TransportKind.allCases)
    func noCache(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let url = server.url("/cache/a?max-age=60")
            _ = try await client.send(PrismHTTPRequest(url: url))
            var expected = 1
            for headers: PrismHTTPHeaders in [
                ["Cache-Control": "no-cache"], ["Cache-Control": "max-age=0"], ["Pragma": "no-cache"],
            ] {
                for policy in [PrismCachePolicy?.none, .cacheFirst, .staleWhileRevalidate] {
                    _ = try await client.send(
                        PrismHTTPRequest(url: url, headers: headers), options: PrismRequestOptions(cachePolicy: policy))
                    expected += 1
                    #expect(server.hits("/cache/a") == expected, "\(headers) \(String(describing: policy))")
                }
            }
            // Pragma is ignored when the request has a Cache-Control; plain requests use the cache.
            _ = try await client.send(
                PrismHTTPRequest(url: url, headers: ["Cache-Control": "max-age=60", "Pragma": "no-cache"]))
            _ = try await client.send(PrismHTTPRequest(url: url))
            #expect(server.hits("/cache/a") == expected)
        }
    }

    @Test(
        "responses(on:) yields no stored value the request's directives refuse, and only the stored one with only-if-cached"
    )
    func streamedDirectives() async throws {
        try await withCachingClient { (server, client) async throws in
            func sources(_ path: String, _ headers: [String: String]) async throws -> [Int] {
                var endpoint = ServerEndpoint(server, path, query: ["max-age": "60"])
                endpoint.headers = headers
                var hits: [Int] = []
                for try await update in client.responses(on: ServerRequest<CacheHit>(endpoint: endpoint)) {
                    hits.append(update.value.hit)
                }
                return hits
            }
            #expect(try await sources("/cache/streamed", [:]) == [1])
            #expect(try await sources("/cache/streamed", [:]) == [1, 2])
            // The stored value is not yielded first: the server's is the only one.
            #expect(try await sources("/cache/streamed", ["Cache-Control": "no-cache"]) == [3])
            #expect(try await sources("/cache/streamed", ["Cache-Control": "max-age=0"]) == [4])
            #expect(try await sources("/cache/streamed", ["Pragma": "no-cache"]) == [5])
            // only-if-cached: the stored value, and the server is not asked.
            #expect(try await sources("/cache/streamed", ["Cache-Control": "only-if-cached"]) == [5])
            #expect(server.hits("/cache/streamed") == 5)
            await #expect(throws: PrismHTTPError.self) {
                _ = try await sources("/cache/never", ["Cache-Control": "only-if-cached"])
            }
            #expect(server.hits("/cache/never") == 0)
        }
    }

    @Test(
        "only-if-cached never asks the server: a 504 when nothing usable is stored", arguments: TransportKind.allCases)
    func onlyIfCached(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let url = server.url("/cache/b?max-age=60")
            let offline = PrismHTTPRequest(url: url, headers: ["Cache-Control": "only-if-cached"])
            let missing = try await client.send(offline)
            #expect(missing.statusCode == 504)
            #expect(server.hits("/cache/b") == 0)
            _ = try await client.send(PrismHTTPRequest(url: url))
            let stored = try await client.send(offline)
            #expect(stored.statusCode == 200)
            #expect(server.hits("/cache/b") == 1)
            // A stale stored response that must be revalidated is not served either.
            let stale = server.url("/etag/only")
            _ = try await client.send(PrismHTTPRequest(url: stale))
            let refused = try await client.send(
                PrismHTTPRequest(url: stale, headers: ["Cache-Control": "only-if-cached"]))
            #expect(refused.statusCode == 504)
            #expect(server.hits("/etag/only") == 1)
        }
    }
}
