import Foundation
import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("no-cache and must-revalidate are honoured under every policy; error statuses are cached only when allowed")
struct RevalidationRulesTests {
    @Test("no-cache is revalidated before use even with .cacheFirst, .staleWhileRevalidate and .cacheThenNetwork")
    func noCacheUnderEveryPolicy() async throws {
        try await withCachingClient { (server, client) async throws in
            // /etag/:name answers with an ETag and Cache-Control: no-cache.
            let request = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, "/etag/n", cacheInterval: 60))
            #expect(try await client.request(on: request).version == 1)
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).version == 1)
            #expect(server.hits("/etag/n") == 2)
            #expect(server.requests.last?.headers["if-none-match"] != nil)
            try await bump("/etag/n", on: server, through: client)
            // The server changed it: a policy that served the stale copy would say 1.
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).version == 2)
            try await bump("/etag/n", on: server, through: client)
            #expect(try await client.request(on: request, cachePolicy: .staleWhileRevalidate).version == 3)
            // The stale copy is not yielded first either: only the network's answer arrives.
            try await bump("/etag/n", on: server, through: client)
            var updates: [PrismNetworkUpdate<Versioned>] = []
            for try await update in client.responses(on: request, cachePolicy: .cacheThenNetwork) {
                updates.append(update)
            }
            #expect(updates.map(\.value.version) == [4])
            #expect(updates.map(\.source) == [.network])
        }
    }

    @Test("must-revalidate is served while fresh, and revalidated once stale, whatever the policy")
    func mustRevalidate() async throws {
        try await withClockedCachingClient { (server, clock, client) async throws in
            // Lifetimes of minutes, so that what an exchange takes on a busy machine (the age on
            // arrival counts it, on the wall clock) never moves a response across a boundary.
            let request = cacheHitRequest(server, "m", maxAge: 1000, query: ["must-revalidate": "1"])
            #expect(try await client.request(on: request).hit == 1)
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).hit == 1)  // fresh
            await clock.advance(by: .seconds(1_100))
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).hit == 2)
            await clock.advance(by: .seconds(1_100))
            #expect(try await client.request(on: request, cachePolicy: .staleWhileRevalidate).hit == 3)
            await clock.advance(by: .seconds(1_100))
            var sources: [PrismNetworkUpdate<CacheHit>.Source] = []
            for try await update in client.responses(on: request) { sources.append(update.source) }
            #expect(sources == [.network])
        }
    }

    @Test("a stale entry without such directives is still served by .cacheFirst")
    func plainStaleStillServed() async throws {
        try await withClockedCachingClient { (server, clock, client) async throws in
            let request = cacheHitRequest(server, "p", maxAge: 10)
            #expect(try await client.request(on: request).hit == 1)
            await clock.advance(by: .seconds(11))
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).hit == 1)
        }
    }

    @Test("an error status is not cached because the endpoint has a cacheInterval", arguments: TransportKind.allCases)
    func errorsNeedServerPermission(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let notFound = RawRequest(endpoint: ServerEndpoint(server, "/status/404", cacheInterval: 300))
            for _ in 0..<2 { await #expect(throws: PrismHTTPError.self) { try await client.request(on: notFound) } }
            #expect(server.hits("/status/404") == 2)
            // The server's own max-age does allow it.
            let allowed = RawRequest(
                endpoint: ServerEndpoint(
                    server, "/status/410", query: ["header.Cache-Control": "max-age=60"], cacheInterval: 300))
            for _ in 0..<2 { await #expect(throws: PrismHTTPError.self) { try await client.request(on: allowed) } }
            #expect(server.hits("/status/410") == 1)
        }
    }
}

@Suite("Entity tags in the conditional requests the cache makes")
struct EntityTagTests {
    @Test(
        "a bare ETag from the server is sent back quoted in If-None-Match; a quoted or weak one as it came",
        arguments: TransportKind.allCases)
    func bareTagsAreQuoted(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            for (name, sent, expected) in [
                ("bare", "abcdef", #""abcdef""#), ("quoted", #""abcdef""#, #""abcdef""#),
                ("weak", #"W/"abcdef""#, #"W/"abcdef""#),
            ] {
                server.script(
                    name,
                    [
                        Scripted(headers: [("Cache-Control", "max-age=0"), ("ETag", sent)], body: "one"),
                        Scripted(status: 304, headers: [("ETag", sent)]),
                    ])
                let url = server.url("/scripted/\(name)")
                _ = try await client.send(PrismHTTPRequest(url: url))
                let revalidated = try await client.send(PrismHTTPRequest(url: url))
                #expect(server.requests.last?.headers["if-none-match"] == expected, "\(name)")
                #expect(String(decoding: revalidated.body, as: UTF8.self) == "one")
            }
        }
    }
}
