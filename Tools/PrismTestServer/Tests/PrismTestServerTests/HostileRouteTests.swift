import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import PrismTestServer
import Testing

@Suite("Hostile routes")
struct HostileRouteTests {
    /// Waits (up to five seconds) until `condition` holds: the server notices a client leaving
    /// only when its next write or wait ends.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test("GET /hostile/stall sends the head and the first bytes, waits, then the rest")
    func stallThenRest() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/hostile/stall?length=5000&sent=100&ms=50"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Length") == "5000")
            #expect(reply.bytes.count == 5000)
            #expect(reply.bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
            #expect(server.bodyBytesSent("/hostile/stall") == 5000)
            #expect(server.abandonedResponses("/hostile/stall") == 0)
        }
    }

    @Test("a client that leaves during the stall is counted as an abandoned response")
    func stallAbandoned() async throws {
        try await withServer { server in
            let port = server.port
            // A raw socket: read the head and the first ten body bytes, then close.
            let received = try await onOwnThread {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "GET /hostile/stall?length=1000&sent=10&ms=60000 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return try connection.readHead(thenBodyBytes: 10)
            }
            #expect(received.hasPrefix("HTTP/1.1 200"))
            #expect(received.contains("Content-Length: 1000"))
            #expect(try await eventually { server.abandonedResponses("/hostile/stall") == 1 })
            #expect(server.bodyBytesSent("/hostile/stall") == 10)
        }
    }

    @Test("GET /hostile/drip sends its body one byte at a time")
    func drip() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/hostile/drip?bytes=5&interval=10"))
            #expect(reply.status == 200)
            #expect(reply.bytes == [0, 1, 2, 3, 4])
            #expect(server.bodyBytesSent("/hostile/drip") == 5)
        }
    }

    @Test("GET /hostile/oversized/:bytes streams a chunked body with no Content-Length")
    func oversized() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/hostile/oversized/200000"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Length") == nil)
            #expect(reply.header("Transfer-Encoding") == "chunked")
            #expect(reply.bytes.count == 200_000)
            #expect(server.bodyBytesSent("/hostile/oversized/200000") == 200_000)
        }
    }

    @Test("/hostile/redirect answers any status and Location it is given")
    func redirect() async throws {
        try await withServer { server in
            let target = "http://localhost:1/elsewhere?x=1"
            var components = URLComponents(url: server.url("/hostile/redirect"), resolvingAgainstBaseURL: false)!
            components.queryItems = [
                URLQueryItem(name: "to", value: target), URLQueryItem(name: "status", value: "307"),
            ]
            let reply = try await TestClient.send(.POST, components.url!, text: "body")
            #expect(reply.status == 307)
            #expect(reply.header("Location") == target)
            let missing = try await TestClient.send(.GET, server.url("/hostile/redirect"))
            #expect(missing.status == 400)
        }
    }

    @Test("/hostile/redirect-chain/:n redirects n times with relative Locations, then answers")
    func redirectChain() async throws {
        try await withServer { server in
            let first = try await TestClient.send(.GET, server.url("/hostile/redirect-chain/2?status=308"))
            #expect(first.status == 308)
            #expect(first.header("Location") == "/hostile/redirect-chain/1?status=308")
            let end = try await TestClient.send(.GET, server.url("/hostile/redirect-chain/0"))
            #expect(end.status == 200)
            #expect(try end.object()["chain"] as? String == "end")
        }
    }

    @Test("/hostile/unauthorized answers 401 to every request")
    func unauthorized() async throws {
        try await withServer { server in
            for _ in 0..<3 {
                let reply = try await TestClient.send(
                    .GET, server.url("/hostile/unauthorized"), headers: [("Authorization", "Bearer token-0")])
                #expect(reply.status == 401)
                #expect(reply.header("WWW-Authenticate") == "Bearer")
            }
            #expect(server.hits("/hostile/unauthorized") == 3)
        }
    }

    @Test("POST /upload?requireToken=1 refuses a request without the current bearer token")
    func uploadRequiresToken() async throws {
        try await withServer { server in
            let url = server.url("/upload?requireToken=1")
            let refused = try await TestClient.send(.POST, url, text: "data")
            #expect(refused.status == 401)
            let accepted = try await TestClient.send(
                .POST, url, headers: [("Authorization", "Bearer \(server.currentToken)")], text: "data")
            #expect(accepted.status == 200)
            #expect(try accepted.object()["bodyLength"] as? Int == 4)
        }
    }

    @Test("a server started with tls: true speaks HTTPS with the certificate it publishes")
    func tls() async throws {
        try await PrismTestServer.withRunning(tls: true) { server in
            #expect(server.baseURL.scheme == "https")
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            tlsConfiguration.additionalTrustRoots = [
                .certificates(try NIOSSLCertificate.fromPEMBytes(Array(PrismTestServer.certificatePEM.utf8)))
            ]
            var configuration = HTTPClient.Configuration(tlsConfiguration: tlsConfiguration)
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            do {
                let response = try await client.execute(
                    HTTPClientRequest(url: server.url("/users/octocat").absoluteString), timeout: .seconds(120))
                #expect(response.status.code == 200)
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(String(buffer: body).contains("\"login\":\"octocat\""))
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}
