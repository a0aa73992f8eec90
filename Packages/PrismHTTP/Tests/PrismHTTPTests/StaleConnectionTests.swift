import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// A server that closes a kept-alive connection just as the client reuses it: the request never
/// reached the application, and an idempotent one is sent again on a new connection (RFC 9110
/// §9.2.2), as browsers and OkHttp do; a POST is not.
@Suite("A kept-alive connection the server closes as it is reused")
struct StaleConnectionTests {
    /// Nothing here waits for a timeout: the listener answers or closes at once. Five minutes, so
    /// that on a busy machine a slow exchange is not taken for a lost one.
    func request(_ port: Int, _ method: PrismNetworkMethod, body: Data? = nil) -> PrismHTTPRequest {
        PrismHTTPRequest(
            url: URL(string: "http://127.0.0.1:\(port)/item")!, method: method, body: body, timeout: .seconds(300))
    }

    @Test(
        "an idempotent request on a connection closed under it is sent once more on a new one",
        arguments: TransportKind.allCases, [PrismNetworkMethod.get, .put, .delete])
    func idempotentIsResent(transport: TransportKind, method: PrismNetworkMethod) async throws {
        try await PrismClosingListener.withRunning { listener in
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let body = method == .put ? Data("new value".utf8) : nil
            #expect(try await client.send(request(listener.port, method, body: body)).statusCode == 200)
            let second = try await client.send(request(listener.port, method, body: body))
            #expect(second.statusCode == 200)
            #expect(String(decoding: second.body, as: UTF8.self) == "ok")
            // The first, the one cut off, and the one sent again.
            #expect(listener.requestsReceived == 3)
            #expect(listener.acceptedConnections == 2)
        }
    }

    // The AsyncHTTPClient transport only: URLSession's own rules decide there (libcurl, under
    // FoundationNetworking, sends a POST again when the connection it reused closes first).
    @Test("a POST on a connection closed under it fails with the AsyncHTTPClient transport: it is not sent twice")
    func postIsNotResent() async throws {
        try await PrismClosingListener.withRunning { listener in
            let client = PrismNetworkAdapter(transport: TransportKind.asyncHTTPClient.make(), cache: nil)
            _ = try await client.send(request(listener.port, .post, body: Data("one".utf8)))
            await expectHTTPError(.connectionFailed) {
                try await client.send(request(listener.port, .post, body: Data("two".utf8)))
            }
            #expect(listener.requestsReceived == 2)
        }
    }
}
