import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// What drops a stored response: an unsafe method on its URL (RFC 9111 §4.4), a redirect that
/// must not be stored under the URL that was redirected, and the app itself.
@Suite("Stored responses dropped by unsafe methods, redirects and the app")
struct CacheInvalidationTests {
    /// `/status/200` with `max-age=60`: cacheable, and answered to any method.
    static let cached = "/status/200?header.Cache-Control=max-age%3D60"

    /// Runs `body` with a test server, a client with the default cache on a new transport of `kind`
    /// (see ``withCachingClient(_:_:)``), and the URL of ``cached`` on the server.
    static func withCachedURL(
        _ kind: TransportKind, _ body: (PrismTestServer, PrismNetworkAdapter, URL) async throws -> Void
    ) async throws {
        try await withCachingClient(kind) { (server, client) async throws in
            try await body(server, client, server.url(cached))
        }
    }

    /// Sends `requests` through `client` one after the other, whatever they are answered.
    static func send(_ requests: PrismHTTPRequest..., through client: PrismNetworkAdapter) async throws {
        for request in requests { _ = try await client.send(request) }
    }

    @Test(
        "a successful POST, PUT, PATCH or DELETE drops the stored GET of its URL, for every credential; a failed one does not",
        arguments: TransportKind.allCases)
    func unsafeMethods(transport: TransportKind) async throws {
        try await Self.withCachedURL(transport) { (server, client, url) async throws in
            let other: PrismHTTPHeaders = ["Authorization": "Bearer other"]
            try await Self.send(PrismHTTPRequest(url: url), PrismHTTPRequest(url: url, headers: other), through: client)
            #expect(server.hits("/status/200") == 2, "one stored response per credential")
            for method in [PrismNetworkMethod.post, .put, .patch, .delete] {
                let before = server.hits("/status/200")
                _ = try await client.send(PrismHTTPRequest(url: url))
                #expect(server.hits("/status/200") == before, "\(method): stored before")
                // The unsafe request, then both credentials' GETs again.
                try await Self.send(
                    PrismHTTPRequest(url: url, method: method), PrismHTTPRequest(url: url),
                    PrismHTTPRequest(url: url, headers: other), through: client)
                #expect(server.hits("/status/200") == before + 3, "\(method): both dropped")
            }
            // An error answer to the unsafe method drops nothing: a 500 stored for its
            // max-age stays stored after a POST that also fails.
            let failing = server.url("/status/500?header.Cache-Control=max-age%3D60")
            try await Self.send(
                PrismHTTPRequest(url: failing), PrismHTTPRequest(url: failing, method: .post),
                PrismHTTPRequest(url: failing), through: client)
            #expect(server.hits("/status/500") == 2)
        }
    }

    @Test(
        "a POST sent as a stream drops the stored GET of its URL like any other; a failed one does not",
        arguments: TransportKind.allCases)
    func streamedUnsafeMethods(transport: TransportKind) async throws {
        try await Self.withCachedURL(transport) { (server, client, url) async throws in
            try await Self.send(PrismHTTPRequest(url: url), PrismHTTPRequest(url: url), through: client)
            #expect(server.hits("/status/200") == 1, "stored")
            let posted = try await client.stream(PrismHTTPRequest(url: url, method: .post))
            #expect(posted.statusCode == 200)
            _ = try await posted.collect(upTo: 1 << 20)
            _ = try await client.send(PrismHTTPRequest(url: url))
            #expect(server.hits("/status/200") == 3, "dropped by the streamed POST, fetched again")
            let failing = server.url("/status/500?header.Cache-Control=max-age%3D60")
            _ = try await client.send(PrismHTTPRequest(url: failing))
            let failed = try await client.stream(PrismHTTPRequest(url: failing, method: .post))
            #expect(failed.statusCode == 500)
            failed.body.cancel()
            _ = try await client.send(PrismHTTPRequest(url: failing))
            #expect(server.hits("/status/500") == 2, "the stored 500 stays")
        }
    }

    @Test(
        "a method outside the standard ones is sent as written; when it succeeds it drops the stored GET, unless it is safe",
        arguments: TransportKind.allCases)
    func extensionMethods(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let echoed = try await client.send(
                PrismHTTPRequest(url: server.url("/echo/dav"), method: try #require(PrismNetworkMethod("PROPFIND"))))
            #expect(echoed.statusCode == 200)
            #expect(server.requests.last?.method == "PROPFIND")
            server.script("search", [Scripted(headers: [("Cache-Control", "max-age=60")], body: "stored")])
            let url = server.url("/scripted/search")
            // TRACE is safe: nothing is dropped.
            try await Self.send(
                PrismHTTPRequest(url: url), PrismHTTPRequest(url: url, method: .trace), PrismHTTPRequest(url: url),
                through: client)
            #expect(server.hits("/scripted/search") == 2)
            #expect(server.requests.last?.method == "TRACE")
            // M-SEARCH is not known to be safe: its success drops the stored GET.
            _ = try await client.send(PrismHTTPRequest(url: url, method: try #require(PrismNetworkMethod("M-SEARCH"))))
            // The server's parser knows M-SEARCH only as written on the wire, and SwiftNIO
            // names it MSEARCH: that name proves the request line said M-SEARCH.
            #expect(server.requests.last?.method == "MSEARCH")
            _ = try await client.send(PrismHTTPRequest(url: url))
            #expect(server.hits("/scripted/search") == 4)
        }
    }

    @Test("an unsafe method's Location on the same origin is dropped too", arguments: TransportKind.allCases)
    func location(transport: TransportKind) async throws {
        try await Self.withCachedURL(transport) { (server, client, url) async throws in
            _ = try await client.send(PrismHTTPRequest(url: url))
            // /status/201 answers with Location: /status/200?header.Cache-Control=max-age%3D60
            let created = server.url(
                "/status/201?header.Location=%2Fstatus%2F200%3Fheader.Cache-Control%3Dmax-age%253D60")
            try await Self.send(
                PrismHTTPRequest(url: created, method: .post), PrismHTTPRequest(url: url), through: client)
            #expect(server.hits("/status/200") == 2)
        }
    }

    @Test(
        "a redirect followed in the transport is not stored under the redirected URL",
        arguments: TransportKind.allCases)
    func redirectNotStoredUnderSource(transport: TransportKind) async throws {
        try await Self.withCachedURL(transport) { (server, client, url) async throws in
            let target = url.absoluteString
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let source = server.url("/hostile/redirect?status=302&to=\(encoded)")
            for _ in 0..<2 {
                let response = try await client.send(PrismHTTPRequest(url: source))
                #expect(response.statusCode == 200)
            }
            #expect(server.hits("/hostile/redirect") == 2)
        }
    }

    @Test(
        "the app drops the stored responses of a URL, or of every URL under a prefix", arguments: TransportKind.allCases
    )
    func appDrops(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let first = server.url("/cache/a?max-age=60")
            let second = server.url("/cache/b?max-age=60")
            for url in [first, second, first, second] { _ = try await client.send(PrismHTTPRequest(url: url)) }
            #expect(server.hits("/cache/a") == 1 && server.hits("/cache/b") == 1)
            await client.removeCachedResponses(for: first)
            for url in [first, second] { _ = try await client.send(PrismHTTPRequest(url: url)) }
            #expect(server.hits("/cache/a") == 2 && server.hits("/cache/b") == 1)
            await client.removeCachedResponses(withURLPrefix: server.url("/cache/").absoluteString)
            for url in [first, second] { _ = try await client.send(PrismHTTPRequest(url: url)) }
            #expect(server.hits("/cache/a") == 3 && server.hits("/cache/b") == 2)
        }
    }
}
