import Foundation
@_spi(PrismInternals) import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// A client whose cache keeps its responses in a folder: after a relaunch, with the server gone,
/// what was stored still answers, within the rules of each policy.
@Suite("Offline: responses kept on disk answer after a relaunch, with the server gone")
struct OfflineCacheTests {
    /// Runs `body` with a new folder for a cache, and removes the folder afterwards.
    func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-offline-\(UUID().uuidString)", isDirectory: true)
        // 0700: the cache refuses a folder others may read or write.
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    /// A client on a new transport of `kind` whose ten-entry cache keeps its responses in `folder`.
    func diskClient(_ kind: TransportKind, _ folder: URL) throws -> PrismNetworkAdapter {
        PrismNetworkAdapter(transport: kind.make(), cache: try PrismResponseCache(maxSize: 10, directory: folder))
    }

    func request(_ url: URL, _ policy: PrismCachePolicy? = nil, token: String? = nil) -> PrismPreparedRequest {
        var request = PrismHTTPRequest(url: url)
        // Long enough for a machine loaded with every other suite (under AddressSanitizer too):
        // no request here waits on a server that stalls.
        request.timeout = .seconds(30)
        if let token { request.headers["Authorization"] = "Bearer \(token)" }
        return prepared(request, cachePolicy: policy)
    }

    @Test(
        "after a relaunch with the server stopped: fresh responses are served, networkFirst serves within maxStale, cacheOnly serves what is stored",
        arguments: TransportKind.allCases)
    func relaunchWithoutServer(transport: TransportKind) async throws {
        try await withFolder { (folder: URL) async throws in
            let server = try await PrismTestServer.start()
            // Lifetimes of minutes, so that what an exchange (or the relaunch) takes on a busy
            // machine (the age counts it, on the wall clock) never moves a response across a
            // boundary.
            server.script("news", [Scripted(headers: [("Cache-Control", "max-age=6000")], body: "news")])
            server.script("feed", [Scripted(headers: [("Cache-Control", "max-age=1000")], body: "feed")])
            let news = server.url("/scripted/news")
            let feed = server.url("/scripted/feed")
            let never = server.url("/scripted/never")
            do {
                let client = try diskClient(transport, folder)
                #expect(text(try await client.send(request(news))) == "news")
                #expect(text(try await client.send(request(feed))) == "feed")
            }
            // The server goes away mid-test; the app is launched again on the same folder.
            try await server.shutdown()

            let clock = TestClock()
            let cache = try PrismResponseCache(maxSize: 10, directory: folder, clock: clock)
            let client = PrismNetworkAdapter(transport: transport.make(), cache: cache)
            let fresh = try await client.send(request(news))
            #expect(text(fresh) == "news")
            #expect(fresh.source == .cache)

            // 4000 seconds on: "news" is fresh, "feed" stale by 3000 seconds.
            await clock.advance(by: .seconds(4_000))
            let fallback = try await client.send(request(feed, .networkFirst(maxStale: .seconds(6_000))))
            #expect(text(fallback) == "feed")
            guard case .stale(.networkFailed) = fallback.source else {
                Issue.record("expected a stale response after a network failure, got \(fallback.source)")
                return
            }
            #expect(fallback.age.map { $0 >= .seconds(4_000) } == true)
            let tooStale = await #expect(throws: PrismHTTPError.self) {
                try await client.send(request(feed, .networkFirst(maxStale: .seconds(500))))
            }
            #expect(tooStale?.code != .notCached)
            let offline = try await client.send(request(feed, .cacheOnly))
            #expect(text(offline) == "feed")
            #expect(offline.source == .stale(.policy))
            await expectHTTPError(.notCached) { try await client.send(request(never, .cacheOnly)) }
        }
    }

    @Test(
        "a response to a request with credentials is on disk under a digest only, and served after a relaunch to the same credentials alone",
        arguments: TransportKind.allCases)
    func credentialsStayOffDisk(transport: TransportKind) async throws {
        let secret = "s3cr3t-\(UUID().uuidString)"
        try await withFolder { (folder: URL) async throws in
            try await withServer { (server: PrismTestServer) async throws in
                server.script("me", [Scripted(headers: [("Cache-Control", "private, max-age=600")], body: "mine")])
                let me = server.url("/scripted/me")
                let client = try diskClient(transport, folder)
                #expect(text(try await client.send(request(me, token: secret))) == "mine")

                // The entry, and the folder's secret its files are signed with.
                let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                    .filter { $0 != "PrismCache.secret" }
                #expect(names.count == 1)
                for name in names {
                    let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
                    #expect(bytes.range(of: Data(secret.utf8)) == nil)
                    #expect(!name.contains(secret))
                }

                let relaunched = try diskClient(transport, folder)
                let served = try await relaunched.send(request(me, .cacheOnly, token: secret))
                #expect(text(served) == "mine")
                await expectHTTPError(.notCached) {
                    try await relaunched.send(request(me, .cacheOnly, token: "someone-else"))
                }
                #expect(server.hits("/scripted/me") == 1)

                // Signing out wipes the entries (the secret, which holds nothing of the user's, stays).
                await relaunched.cache?.removeAll()
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["PrismCache.secret"])
            }
        }
    }
}
