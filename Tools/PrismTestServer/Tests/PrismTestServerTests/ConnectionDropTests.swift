import AsyncHTTPClient
import Foundation
import NIOCore
import PrismTestServer
import Testing

@Suite("Dropped connections")
struct ConnectionDropTests {
    @Test("GET /drop closes the connection: the client sees an error, not a response")
    func drop() async throws {
        try await withServer { server in
            await #expect(throws: (any Error).self) {
                let reply = try await TestClient.send(.GET, server.url("/drop"), timeout: .seconds(10))
                Issue.record("unexpected response \(reply.status)")
            }
            #expect(server.hits("/drop") >= 1)
            #expect(server.requests.first?.path == "/drop")
            // The server goes on serving.
            let next = try await TestClient.send(.GET, server.url("/users/a"))
            #expect(next.status == 200)
        }
    }

    @Test("GET /drop also drops a request with a body after reading it")
    func dropWithBody() async throws {
        try await withServer { server in
            await #expect(throws: (any Error).self) {
                _ = try await TestClient.send(.POST, server.url("/drop"), text: "payload")
            }
            #expect(server.requests.first?.bodyByteCount == 7)
        }
    }

    @Test("GET /drop-mid-body sends a head and part of the body, then closes")
    func dropMidBody() async throws {
        try await withServer { server in
            let request = HTTPClientRequest(url: server.url("/drop-mid-body?length=100000&sent=1000").absoluteString)
            let response = try await TestClient.http.execute(request, timeout: .seconds(120))
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "Content-Length") == "100000")
            var received: [UInt8] = []
            await #expect(throws: (any Error).self) {
                for try await chunk in response.body {
                    received += chunk.readableBytesView
                }
            }
            #expect(received.count == 1000)
            #expect(received.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
            let next = try await TestClient.send(.GET, server.url("/users/a"))
            #expect(next.status == 200)
        }
    }

    @Test("GET /drop-mid-body with defaults fails a client that reads the whole body")
    func dropMidBodyDefaults() async throws {
        try await withServer { server in
            await #expect(throws: (any Error).self) {
                _ = try await TestClient.send(.GET, server.url("/drop-mid-body"), timeout: .seconds(10))
            }
        }
    }

    @Test("GET /drop closes the TCP connection without sending a single byte")
    func dropSendsNothing() async throws {
        try await withServer { server in
            let port = server.port
            let received = try await onOwnThread {
                let connection = try RawConnection(port: port)
                try connection.send("GET /drop HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return try connection.read()
            }
            #expect(received == "")
        }
    }
}
