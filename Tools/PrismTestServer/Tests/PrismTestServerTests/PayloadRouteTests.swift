import AsyncHTTPClient
import Foundation
import NIOCore
import PrismTestServer
import Testing

@Suite("JSON and large payload routes")
struct PayloadRouteTests {
    private struct Payload: Decodable {
        var id: Int
        var name: String
        var items: [String]
    }

    @Test(
        "GET /json/:bytes answers a decodable object of exactly that size",
        arguments: [64, 100, 1024, 4096, 65_536, 1 << 20])
    func json(bytes: Int) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/json/\(bytes)"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            #expect(reply.body.readableBytes == bytes)
            let payload = try JSONDecoder().decode(Payload.self, from: Data(reply.bytes))
            #expect(payload.id == 1)
            #expect(payload.name == "payload-\(bytes)")
            #expect(!payload.items.isEmpty)
            let again = try await TestClient.send(.GET, server.url("/json/\(bytes)"))
            #expect(again.bytes == reply.bytes)
        }
    }

    @Test("GET /json/:bytes below the smallest object answers the smallest object", arguments: [0, 10])
    func tinyJSON(bytes: Int) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/json/\(bytes)"))
            let payload = try JSONDecoder().decode(Payload.self, from: Data(reply.bytes))
            #expect(payload.items.isEmpty)
        }
    }

    @Test(
        "GET /large/:bytes answers exactly that many pattern bytes with Content-Length",
        arguments: [0, 1, 250, 251, 64_256, 1_000_003])
    func large(bytes: Int) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/large/\(bytes)"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/octet-stream")
            #expect(reply.header("Content-Length") == String(bytes))
            #expect(reply.body.readableBytes == bytes)
            let mismatch = reply.bytes.enumerated().first { $0.element != UInt8($0.offset % 251) }
            #expect(mismatch == nil)
        }
    }

    @Test("A body of many megabytes streams to a client that reads it chunk by chunk")
    func manyMegabytes() async throws {
        try await withServer { server in
            // 16 MB: hundreds of the server's chunks, and far more than a socket buffers.
            let total = 16 << 20
            let request = HTTPClientRequest(url: server.url("/large/\(total)").absoluteString)
            let response = try await TestClient.http.execute(request, timeout: .seconds(300))
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "Content-Length") == String(total))
            var received = 0
            var patternHolds = true
            var largestChunk = 0
            for try await chunk in response.body {
                let offset = received % 251
                // Spot-check each chunk's first and last byte against the pattern.
                if let first = chunk.readableBytesView.first, first != UInt8(offset) { patternHolds = false }
                if let last = chunk.readableBytesView.last, last != UInt8((received + chunk.readableBytes - 1) % 251) {
                    patternHolds = false
                }
                received += chunk.readableBytes
                largestChunk = max(largestChunk, chunk.readableBytes)
            }
            #expect(received == total)
            #expect(patternHolds)
            #expect(largestChunk < total)
        }
    }

    @Test("HEAD /large/:bytes answers the length without a body")
    func headLarge() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.HEAD, server.url("/large/5000"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Length") == "5000")
            #expect(reply.body.readableBytes == 0)
        }
    }
}
