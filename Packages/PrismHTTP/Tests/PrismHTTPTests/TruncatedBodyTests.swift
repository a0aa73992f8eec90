import Foundation
import PrismTestServer
import Testing

@testable import PrismHTTP

@Suite("A body the connection cuts off short of its Content-Length")
struct TruncatedBodyTests {
    @Test(
        "fails the request with connectionFailed on both transports, rather than coming back short",
        arguments: TransportKind.allCases)
    func bodyShorterThanAnnounced(transport: TransportKind) async throws {
        // Five of the ten bytes announced, then the listener closes the connection.
        let answers = ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello"]
        try await PrismVerbatimListener.withRunning(answering: answers) { listener in
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/file"))
            // The same code from both (URLSession on Linux said transportFailed, from libcurl's
            // "partial file" as URLError.unknown), so that a retry policy treats them alike.
            let error = await expectHTTPError(.connectionFailed) { try await client.send(PrismHTTPRequest(url: url)) }
            #expect(error?.message.contains("127.0.0.1") == false)
        }
    }
}
