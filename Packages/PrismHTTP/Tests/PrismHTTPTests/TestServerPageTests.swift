import Foundation
import PrismHTTP
import PrismTestServer
import Testing

/// The example of PrismTestServer's documentation page, run: the page's code block is this
/// test's body, verbatim (`make lint` checks that it still is).
@Suite("PrismTestServer's page: a test starts a server, revalidates, and counts hits")
struct TestServerPageTests {
    @Test("the second fetch of an ETag route is revalidated and answered 304")
    func revalidation() async throws {
        let server = try await PrismTestServer.start()
        let client = PrismNetworkAdapter()
        let profile = PrismHTTPRequest(url: server.url("/etag/profile"))
        _ = try await client.send(profile)
        let second = try await client.send(profile)  // If-None-Match, answered 304
        #expect(second.source == .revalidated)
        #expect(server.hits("/etag/profile") == 2)
        try await server.shutdown()
    }
}
