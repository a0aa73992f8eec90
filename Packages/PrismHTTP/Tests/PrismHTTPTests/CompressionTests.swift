import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@testable import PrismHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Compressed bodies both ways, made and read back by Python's gzip and zlib modules (a real
/// child process): responses that arrive encoded, bombs and corrupt data among them, and request
/// bodies compressed on request.
@Suite("Compression")
struct CompressionTests {
    /// What Python's `gzip.compress` or `zlib.compress` makes of `data`, for the content coding
    /// named `coding`; or, with `decompress`, what it reads back from `data`.
    static func zlib(_ coding: String, _ data: Data, decompress: Bool = false) async throws -> Data {
        let module = coding == "gzip" ? "gzip" : "zlib"
        let function = decompress ? "decompress" : "compress"
        return try await python(
            "import sys, \(module); sys.stdout.buffer.write(\(module).\(function)(sys.stdin.buffer.read()))",
            input: data)
    }

    /// A JSON document of about 6 KB: compresses well, as an API's answers do.
    static let document: Data = {
        let items = (0..<100).map { #"{"id":\#($0),"name":"item \#($0)","tags":["a","b","c"]}"# }
        return Data(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8)
    }()

    struct Items: Decodable, Equatable {
        struct Item: Decodable, Equatable {
            var id: Int
            var name: String
            var tags: [String]
        }
        var items: [Item]
    }

    /// What `/echo` answers, with the body as base64 (a compressed body is not text).
    struct EchoedBytes: Decodable {
        var headers: [String: String]
        var bodyBase64: String?

        var body: Data { bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data() }
    }

    @Test(
        "a gzip or deflate response arrives decoded, and the request asked for both",
        arguments: TransportKind.allCases, ["gzip", "deflate"])
    func decodedResponse(transport: TransportKind, coding: String) async throws {
        let encoded = try await Self.zlib(coding, Self.document)
        #expect(encoded.count < Self.document.count / 4)
        let answer = Scripted(
            headers: [("Content-Type", "application/json"), ("Content-Encoding", coding)], bytes: Array(encoded))
        try await withScriptedRoute("encoded", [answer], on: transport) { (route, _, client) async throws in
            let response = try await client.send(route.request)
            #expect(response.body == Self.document)
            let items = try JSONDecoder().decode(Items.self, from: response.body)
            #expect(items.items.count == 100)
            #expect(response.headers["Content-Encoding"] == coding)
            let asked = try #require(route.requests.last?.headers["accept-encoding"])
            let tokens = asked.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(tokens.contains("gzip") && tokens.contains("deflate"), "Accept-Encoding: \(asked)")
        }
    }

    @Test(
        "a decompression bomb fails with responseTooLarge once its decoded bytes pass maximumResponseBytes",
        arguments: TransportKind.allCases)
    func bomb(transport: TransportKind) async throws {
        // 64 MiB of zeros, about 64 KB compressed: under the limit as it crosses the wire.
        let limit = 1 << 20
        let bomb = try await Self.zlib("gzip", Data(count: 64 << 20))
        #expect(bomb.count < limit / 4)
        let configuration = PrismTransportConfiguration(maximumResponseBytes: limit)
        try await withClient(transport, configuration) { (server, client) async throws in
            server.script("bomb", [Scripted(headers: [("Content-Encoding", "gzip")], bytes: Array(bomb))])
            await expectHTTPError(.responseTooLarge) {
                try await client.send(PrismHTTPRequest(url: server.url("/scripted/bomb")))
            }
        }
    }

    @Test(
        "a body that is not the gzip its Content-Encoding says (corrupt, cut short) fails with a typed error",
        arguments: TransportKind.allCases)
    func corrupt(transport: TransportKind) async throws {
        let encoded = try await Self.zlib("gzip", Self.document)
        var corrupt = Array(encoded)
        // The gzip header stays; the DEFLATE data after it does not.
        for index in 12..<corrupt.count - 8 { corrupt[index] = 0xFF }
        let cut = Array(encoded.prefix(encoded.count / 2))
        try await withClient(transport) { (server, client) async throws in
            for (name, bytes) in [("corrupt", corrupt), ("cut", cut)] {
                server.script(name, [Scripted(headers: [("Content-Encoding", "gzip")], bytes: bytes)])
                let send = { try await client.send(PrismHTTPRequest(url: server.url("/scripted/\(name)"))) }
                #if os(Linux)
                if transport == .urlSession && name == "cut" {
                    // libcurl, under Linux's URLSession, hands on what it decoded of a gzip member
                    // that ends early, without an error (ChoosingATransport says so).
                    await withKnownIssue("URLSession on Linux passes a cut gzip body on") {
                        _ = try await send()
                        Issue.record("the cut body arrived without an error")
                    }
                    continue
                }
                #endif
                let error = await #expect(throws: PrismHTTPError.self, "\(name)") { _ = try await send() }
                #if AsyncHTTPClient && os(Linux)
                if transport == .asyncHTTPClient {
                    #expect(error?.code == .transportFailed, "\(name)")
                    #expect(error?.message.contains("does not decode as its Content-Encoding says") == true)
                }
                #endif
                _ = error
            }
        }
    }

    @Test(
        "compressingBody(with:) sends a body that Python's gzip and zlib read back whole, with Content-Encoding",
        arguments: TransportKind.allCases, [PrismContentCoding.gzip, .deflate])
    func compressedRequest(transport: TransportKind, coding: PrismContentCoding) async throws {
        try await withClient(transport) { (server, client) async throws in
            let request = PrismHTTPRequest(
                url: server.url("/echo/compressed"), method: .post,
                headers: ["Content-Type": "application/json", "Content-Length": String(Self.document.count)],
                body: Self.document)
            let compressed = try request.compressingBody(with: coding)
            #expect(compressed.headers["Content-Length"] == nil)
            #expect((compressed.body?.count ?? 0) < Self.document.count / 4)
            let response = try await client.send(compressed)
            let echo = try JSONDecoder().decode(EchoedBytes.self, from: response.body)
            #expect(echo.headers["content-encoding"] == coding.token)
            #expect(echo.headers["content-type"] == "application/json")
            #expect(echo.body == compressed.body)
            #expect(try await Self.zlib(coding.token, echo.body, decompress: true) == Self.document)
        }
    }

    @Test("a second coding is listed after the first, in the order applied; an empty body is left alone")
    func codingsInOrder() throws {
        let url = URL(string: "https://example.com/upload")!
        let once = try PrismHTTPRequest(url: url, method: .post, body: Self.document).compressingBody(with: .gzip)
        let twice = try once.compressingBody(with: .deflate)
        #expect(twice.headers["Content-Encoding"] == "gzip, deflate")
        #expect(twice.body != once.body)
        let empty = PrismHTTPRequest(url: url, method: .post, body: Data())
        #expect(try empty.compressingBody() == empty)
        #expect(try PrismHTTPRequest(url: url).compressingBody() == PrismHTTPRequest(url: url))
    }

    @Test("the compressingBodies interceptor compresses a large body and leaves a small or encoded one alone")
    func interceptor() async throws {
        try await withServer { server in
            let client = PrismNetworkAdapter(cache: nil, interceptors: [PrismInterceptor.compressingBodies()])
            func echo(_ body: Data, headers: PrismHTTPHeaders = [:]) async throws -> EchoedBytes {
                let request = PrismHTTPRequest(url: server.url("/echo"), method: .post, headers: headers, body: body)
                return try JSONDecoder().decode(EchoedBytes.self, from: try await client.send(request).body)
            }
            let large = try await echo(Self.document)
            #expect(large.headers["content-encoding"] == "gzip")
            #expect(try await Self.zlib("gzip", large.body, decompress: true) == Self.document)

            let small = try await echo(Data("{}".utf8))
            #expect(small.headers["content-encoding"] == nil)
            #expect(small.body == Data("{}".utf8))

            let preEncoded = try await Self.zlib("deflate", Self.document)
            let encoded = try await echo(preEncoded, headers: ["Content-Encoding": "deflate"])
            #expect(encoded.headers["content-encoding"] == "deflate")
            #expect(encoded.body == preEncoded)
        }
    }

    @Test("a download asks for the resource's own bytes (Accept-Encoding: identity)", arguments: TransportKind.allCases)
    func downloadAsksForIdentity(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let folder = try DownloadTests.Folder()
            let download = try await client.download(
                PrismHTTPRequest(url: server.url("/download/whole?bytes=1000")), to: folder.file("file.bin"))
            #expect(download.byteCount == 1_000)
            let sent = server.requests.last { $0.path == "/download/whole" }
            #expect(sent?.headers["accept-encoding"] == "identity")
        }
    }
}
