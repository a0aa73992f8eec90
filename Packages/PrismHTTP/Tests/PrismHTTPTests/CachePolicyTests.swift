import Foundation
@_spi(PrismInternals) import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// The policies a caller picks per request: always asking the server, the network first with a
/// stored response as the fallback, and the cache only.
@Suite("Cache policies: alwaysRevalidate, networkFirst, cacheOnly")
struct CachePolicyTests {
    func request(_ url: URL, _ policy: PrismCachePolicy?, timeout: Duration? = nil) -> PrismPreparedRequest {
        prepared(PrismHTTPRequest(url: url, timeout: timeout), cachePolicy: policy)
    }

    @Test(
        "alwaysRevalidate asks the server about a fresh response: a 304 serves it, a new body replaces it",
        arguments: TransportKind.allCases)
    func alwaysRevalidate(transport: TransportKind) async throws {
        let answers = [
            Scripted(headers: [("Cache-Control", "max-age=3600"), ("ETag", "\"v1\"")], body: "v1"),
            Scripted(status: 304, headers: [("ETag", "\"v1\"")]),
            Scripted(headers: [("Cache-Control", "max-age=3600"), ("ETag", "\"v2\"")], body: "v2"),
        ]
        try await withScriptedRoute("sync", answers, on: transport) { (route, _, client) async throws in
            let url = route.url
            _ = try await client.send(request(url, nil))
            #expect(try await client.send(request(url, nil)).source == .cache)
            let confirmed = try await client.send(request(url, .alwaysRevalidate))
            #expect(route.hits == 2)
            #expect(route.requests.last?.headers["if-none-match"] == "\"v1\"")
            #expect(text(confirmed) == "v1")
            #expect(confirmed.source == .revalidated)
            let changed = try await client.send(request(url, .alwaysRevalidate))
            #expect(text(changed) == "v2")
            #expect(changed.source == .network)
            #expect(text(try await client.send(request(url, nil))) == "v2")
            #expect(route.hits == 3)
        }
    }

    @Test(
        "networkFirst asks the server first, and when it cannot answer serves the stored response within maxStale",
        arguments: TransportKind.allCases)
    func networkFirst(transport: TransportKind) async throws {
        let answers = [
            Scripted(headers: [("Cache-Control", "max-age=1000")], body: "saved"),
            Scripted(headers: [("Cache-Control", "max-age=1000")], body: "new"),
            Scripted(body: "late", delayMilliseconds: 60_000),
        ]
        try await withScriptedRoute("first", answers, on: transport) { (route, clock, client) async throws in
            let url = route.url
            // Lifetimes of minutes, so that what an exchange takes on a busy machine (the age on
            // arrival counts it, on the wall clock) never moves a response across a boundary.
            let policy = PrismCachePolicy.networkFirst(maxStale: .seconds(6_000))
            _ = try await client.send(request(url, nil))
            // Fresh, yet the server is asked first.
            let asked = try await client.send(request(url, policy))
            #expect(text(asked) == "new")
            #expect(asked.source == .network)
            await clock.advance(by: .seconds(3_000))
            let fallback = try await client.send(request(url, policy, timeout: .milliseconds(300)))
            #expect(text(fallback) == "new")
            #expect(fallback.source == .stale(.networkFailed(.timedOut)))
            // Past maxStale: the failure is the answer.
            await clock.advance(by: .seconds(20_000))
            await expectHTTPError(.timedOut) {
                try await client.send(request(url, policy, timeout: .milliseconds(300)))
            }
            // alwaysRevalidate never falls back.
            await expectHTTPError(.timedOut) {
                try await client.send(request(url, .alwaysRevalidate, timeout: .milliseconds(300)))
            }
        }
    }

    @Test(
        "cacheOnly never asks the server: a stored response however stale, else notCached",
        arguments: TransportKind.allCases)
    func cacheOnly(transport: TransportKind) async throws {
        try await withClockedCachingClient(transport) { (server, clock, client) async throws in
            let kept = ScriptedRoute(
                server, "kept", [Scripted(headers: [("Cache-Control", "max-age=1000")], body: "kept")])
            let strict = ScriptedRoute(
                server, "strict", [Scripted(headers: [("Cache-Control", "max-age=1000, must-revalidate")], body: "s")])
            await expectHTTPError(.notCached) {
                try await client.send(request(kept.url, .cacheOnly))
            }
            #expect(kept.hits == 0)
            _ = try await client.send(request(kept.url, nil))
            _ = try await client.send(request(strict.url, nil))
            #expect(try await client.send(request(kept.url, .cacheOnly)).source == .cache)
            await clock.advance(by: .seconds(3_600))
            let stale = try await client.send(request(kept.url, .cacheOnly))
            #expect(text(stale) == "kept")
            #expect(stale.source == .stale(.policy))
            await expectHTTPError(.notCached) {
                try await client.send(request(strict.url, .cacheOnly))
            }
            #expect(kept.hits == 1)
            #expect(strict.hits == 1)
        }
    }
}
