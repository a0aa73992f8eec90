import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PrismTestServer
import Testing

@Suite("Echo route")
struct EchoRouteTests {
    @Test("ANY /echo answers with the method, path, query, headers and body it received")
    func echoes() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .PUT,
                server.url("/echo/a/b?x=1&y=two%20words&empty"),
                headers: [("X-Custom", "Value"), ("X-Twice", "1"), ("X-Twice", "2")],
                text: "héllo"
            )
            #expect(reply.status == 200)
            let echo = try reply.object()
            #expect(echo["method"] as? String == "PUT")
            #expect(echo["path"] as? String == "/echo/a/b")
            #expect(echo["query"] as? [String: String] == ["x": "1", "y": "two words", "empty": ""])
            let headers = try #require(echo["headers"] as? [String: String])
            #expect(headers["x-custom"] == "Value")
            #expect(headers["x-twice"] == "1, 2")
            #expect(echo["body"] as? String == "héllo")
            #expect(echo["bodyBase64"] as? String == Data("héllo".utf8).base64EncodedString())
            #expect(echo["bodyLength"] as? Int == 6)
        }
    }

    @Test("A body that is not UTF-8 is null in body and exact in bodyBase64")
    func binaryBody() async throws {
        try await withServer { server in
            let bytes: [UInt8] = [0xFF, 0x00, 0xC3, 0x28]
            let reply = try await TestClient.send(.POST, server.url("/echo"), body: .bytes(ByteBuffer(bytes: bytes)))
            let echo = try reply.object()
            #expect(echo["body"] is NSNull)
            #expect(echo["bodyBase64"] as? String == Data(bytes).base64EncodedString())
            #expect(echo["bodyLength"] as? Int == 4)
        }
    }

    @Test("Echo answers any method, even one the router does not know, and HEAD without a body")
    func anyMethod() async throws {
        try await withServer { server in
            let purge = try await TestClient.send(HTTPMethod(rawValue: "PURGE"), server.url("/echo"))
            #expect(try purge.object()["method"] as? String == "PURGE")
            #expect(try purge.object()["body"] is NSNull)
            let get = try await TestClient.send(.GET, server.url("/echo"))
            #expect(try get.object()["method"] as? String == "GET")
            let head = try await TestClient.send(.HEAD, server.url("/echo"))
            #expect(head.status == 200)
            #expect(head.body.readableBytes == 0)
        }
    }
}
