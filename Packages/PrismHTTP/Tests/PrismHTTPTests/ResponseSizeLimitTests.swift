import Foundation
import PrismHTTP
import PrismTestServer
import Testing

@Suite("A body larger than the limit is refused as it arrives, not after it filled memory")
struct ResponseSizeLimitTests {
    @Test(
        "a chunked body with no Content-Length is cut off once it passes the limit",
        arguments: TransportKind.allCases)
    func chunkedBodyCutOff(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let limit = 1 << 20
            let client = PrismNetworkAdapter(
                transport: transport.make(PrismTransportConfiguration(maximumResponseBytes: limit)), cache: nil)
            let path = "/hostile/oversized/\(512 << 20)"
            let error = await #expect(throws: PrismHTTPError.self) {
                try await client.send(PrismHTTPRequest(url: server.url(path)))
            }
            #expect(error?.code == .responseTooLarge)
            // The client gave up: the server did not get to send its 512 MB. (AsyncHTTPClient stops
            // reading within a chunk of the limit; libcurl, under URLSession on Linux, reads on
            // until the cancellation reaches it, and the delegate drops what it hands over.)
            #expect(try await eventually { server.abandonedResponses(path) == 1 })
            #expect(server.bodyBytesSent(path) < 512 << 20)
        }
    }

    @Test(
        "a Content-Length above the limit is refused before the body is read", arguments: TransportKind.allCases)
    func announcedTooLarge(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(
                transport: transport.make(PrismTransportConfiguration(maximumResponseBytes: 1_000)), cache: nil)
            let error = await #expect(throws: PrismHTTPError.self) {
                try await client.send(PrismHTTPRequest(url: server.url("/hostile/stall?length=5000&sent=0&ms=20000")))
            }
            #expect(error?.code == .responseTooLarge)
            #expect(error?.message.contains("5000") == true)
        }
    }
}
