import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// A complete stored response answers a range request with the part asked for (RFC 9111 §3.4,
/// RFC 9110 §14), from the cache, without asking the server.
@Suite("Range requests answered from a stored complete response")
struct CachedRangeTests {
    @Test(
        "one byte range of a stored 200 is a 206 from the cache; anything else is the whole response",
        arguments: TransportKind.allCases)
    func ranges(transport: TransportKind) async throws {
        let answers = [
            Scripted(
                headers: [("Cache-Control", "max-age=3600"), ("ETag", "\"d1\""), ("Content-Type", "text/plain")],
                body: "0123456789A")
        ]
        try await withScriptedRoute("digits", answers, on: transport) { (route, _, client) async throws in
            _ = try await client.send(route.request)
            func send(_ range: String, ifRange: String? = nil) async throws -> PrismHTTPResponse {
                var request = PrismHTTPRequest(url: route.url, headers: ["Range": range])
                if let ifRange { request.headers["If-Range"] = ifRange }
                return try await client.send(request)
            }
            for (range, part, contentRange) in [
                ("bytes=0-1", "01", "bytes 0-1/11"), ("bytes=1-", "123456789A", "bytes 1-10/11"),
                ("bytes=-1", "A", "bytes 10-10/11"), ("bytes=-100", "0123456789A", "bytes 0-10/11"),
                ("bytes=3-100", "3456789A", "bytes 3-10/11"), ("BYTES=2-2", "2", "bytes 2-2/11"),
            ] {
                let response = try await send(range)
                #expect(response.statusCode == 206, "\(range)")
                #expect(String(decoding: response.body, as: UTF8.self) == part, "\(range)")
                #expect(response.headers["Content-Range"] == contentRange, "\(range)")
                #expect(response.headers["Content-Type"] == "text/plain")
                #expect(response.source == .cache)
                if let length = response.headers["Content-Length"] { #expect(length == String(part.count)) }
            }
            // Several ranges, another unit, an unsatisfiable or malformed range, an If-Range that
            // does not match: the whole stored response, still from the cache.
            for (range, ifRange) in [
                ("bytes=0-1,3-4", nil), ("items=0-1", nil), ("bytes=20-", nil), ("bytes=5-2", nil), ("bytes=a-b", nil),
                ("bytes=-0", nil), ("bytes = 0-1", nil), ("bytes=0-1", "\"other\""),
                ("bytes=0-1", "Thu, 01 Jan 1970 00:00:00 GMT"),
            ] {
                let response = try await send(range, ifRange: ifRange)
                #expect(response.statusCode == 200, "\(range) \(ifRange ?? "")")
                #expect(String(decoding: response.body, as: UTF8.self) == "0123456789A")
                #expect(response.headers["Content-Range"] == nil)
            }
            let matching = try await send("bytes=0-1", ifRange: "\"d1\"")
            #expect(matching.statusCode == 206)
            #expect(route.hits == 1)
        }
    }
}
