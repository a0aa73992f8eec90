import Foundation
import Logging
@_spi(PrismInternals) import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Background revalidation (staleWhileRevalidate) is tracked by its client")
struct BackgroundRevalidationTests {
    /// A client whose cache runs on `clock`, and a request to `/cache/<name>` fresh for 1000 s:
    /// minutes, so that what an exchange takes on a busy machine (the age on arrival counts it, on
    /// the wall clock) never makes a response stale before the test clock does.
    func setUp(
        _ server: PrismTestServer,
        _ name: String,
        delay: Int? = nil,
        cache: PrismResponseCache,
        logger: Logger? = nil
    ) -> (PrismNetworkAdapter, ServerRequest<CacheHit>) {
        let query = delay.map { ["delay": String($0)] } ?? [:]
        let client = PrismNetworkAdapter(cache: cache, logger: logger)
        return (client, cacheHitRequest(server, name, maxAge: 1000, query: query))
    }

    @Test("two stale hits for the same key start one revalidation request")
    func oneRevalidationPerKey() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            // Revalidations wait 4 s at the server: the second hit (a cache lookup later) comes
            // while the first runs, even on a loaded machine.
            let (client, request) = setUp(
                server, "once", delay: 4_000, cache: PrismResponseCache(maxSize: 10, clock: clock))
            #expect(try await client.request(on: request).hit == 1)
            await clock.advance(by: .seconds(1_100))
            #expect(try await client.request(on: request, cachePolicy: .staleWhileRevalidate).hit == 1)
            #expect(try await client.request(on: request, cachePolicy: .staleWhileRevalidate).hit == 1)
            #expect(await client.backgroundRevalidations.count == 1)
            await client.backgroundRevalidations.waitForAll()
            #expect(server.hits("/cache/once") == 2)
            #expect(await client.backgroundRevalidations.count == 0)
            // The one revalidation stored its answer.
            #expect(try await client.request(on: request).hit == 2)
        }
    }

    @Test("a revalidation still running when its client goes away is cancelled and writes nothing")
    func cancelledWithItsClient() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            let cache = PrismResponseCache(maxSize: 10, clock: clock)
            // The revalidation would wait 10 s at the server: only a cancellation ends it sooner.
            var client: PrismNetworkAdapter? = PrismNetworkAdapter(cache: cache)
            let request = cacheHitRequest(server, "gone", maxAge: 10, query: ["delay": "10000"])
            #expect(try await client?.request(on: request).hit == 1)
            await clock.advance(by: .seconds(11))
            #expect(try await client?.request(on: request, cachePolicy: .staleWhileRevalidate).hit == 1)
            let tasks = await client?.backgroundRevalidations.tasks ?? []
            #expect(tasks.count == 1)
            // Reaching the server shows the revalidation is running.
            try await eventually { server.hits("/cache/gone") == 2 }
            client = nil
            for task in tasks { await task.value }
            let key = PrismCacheKey("GET \(server.url("/cache/gone?delay=10000&max-age=10").absoluteString)")
            let lookup = await cache.lookup(key)
            guard case .stale(let entry) = lookup else {
                Issue.record("the entry was replaced or removed: \(lookup)")
                return
            }
            #expect(try CacheHit.decoder.decode(CacheHit.self, from: entry.data).hit == 1)
        }
    }

    @Test("a background revalidation that gets no answer keeps the stale entry and logs a warning")
    func failedRevalidationKeepsTheEntry() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            let lines = LockedBox<[String]>([])
            let (client, request) = setUp(
                server, "down", cache: PrismResponseCache(maxSize: 10, clock: clock),
                logger: Logger(label: "test") { _ in CapturingLogHandler(lines: lines) })
            #expect(try await client.request(on: request).hit == 1)
            try await server.shutdown()
            await clock.advance(by: .seconds(1_100))
            #expect(try await client.request(on: request, cachePolicy: .staleWhileRevalidate).hit == 1)
            await client.backgroundRevalidations.waitForAll()
            #expect(lines.wrappedValue.contains { $0.hasPrefix("warning GET ") && $0.contains("/cache/down") })
            // Still there, stale: cacheFirst serves it without asking the (stopped) server.
            #expect(try await client.request(on: request, cachePolicy: .cacheFirst).hit == 1)
        }
    }

    @Test("a background revalidation answered by a 5xx keeps the stale entry and logs a warning")
    func serverErrorKeepsTheEntry() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            let lines = LockedBox<[String]>([])
            let client = PrismNetworkAdapter(
                cache: PrismResponseCache(maxSize: 10, clock: clock),
                logger: Logger(label: "test") { _ in CapturingLogHandler(lines: lines) })
            let tasks = RawRequest(endpoint: ServerEndpoint(server, "/tasks", query: ["max-age": "10"]))
            let first = try await client.request(on: tasks)
            _ = try await client.send(
                PrismHTTPRequest(url: server.url("/tasks/fail-next?count=1&status=503"), method: .post))
            await clock.advance(by: .seconds(11))
            #expect(try await client.request(on: tasks, cachePolicy: .staleWhileRevalidate) == first)
            await client.backgroundRevalidations.waitForAll()
            #expect(server.hits("/tasks") == 2)
            #expect(lines.wrappedValue.contains { $0.hasPrefix("warning ") && $0.contains("status=503") })
            #expect(try await client.request(on: tasks, cachePolicy: .cacheFirst) == first)
        }
    }
}
