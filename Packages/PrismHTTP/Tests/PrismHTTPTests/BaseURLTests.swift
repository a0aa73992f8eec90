import Foundation
import PrismHTTP
import PrismTestServer
import Testing

/// Endpoints without a host, relative to their client's base URL.
@Suite("A client's base URL")
struct BaseURLTests {
    /// An endpoint that names only its path: its client gives the rest.
    struct Relative: PrismNetworkEndpoint {
        var path: String
        var queryItems: [URLQueryItem]? = nil
    }

    struct Hit: PrismEntity {
        var name: String
        var hit: Int
    }

    @Test(
        "an endpoint without a host takes the base URL's scheme, host, port and path prefix; one with a host keeps its own"
    )
    func relativeEndpoints() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            for base in ["http://127.0.0.1:\(server.port)/cache", "http://127.0.0.1:\(server.port)/cache/"] {
                let client = PrismNetworkAdapter(cache: nil, baseURL: URL(string: base)!)
                let hit = try await client.request(
                    on: PrismEndpointRequest<Relative, Hit>(Relative(path: "/relative")))
                #expect(hit.name == "relative")
            }
            #expect(server.hits("/cache/relative") == 2)
            // A full endpoint is not moved by the base URL.
            let client = PrismNetworkAdapter(cache: nil, baseURL: URL(string: "http://127.0.0.1:1/elsewhere")!)
            let absolute = ServerEndpoint(server, "/cache/absolute")
            _ = try await client.request(on: RawRequest(endpoint: absolute))
            #expect(server.hits("/cache/absolute") == 1)
        }
    }

    @Test("without a base URL, or with one that cannot be, a relative endpoint fails with invalidURL saying why")
    func missingOrInvalidBase() async throws {
        let request = PrismEndpointRequest<Relative, Hit>(Relative(path: "/users"))
        let missing = await expectHTTPError(.invalidURL) {
            try await PrismNetworkAdapter(cache: nil).request(on: request)
        }
        #expect(missing?.message.contains("baseURL") == true)
        for bad in ["ftp://example.com", "https://example.com/v1?key=1", "/just/a/path", "https://user:pw@example.com"]
        {
            let client = PrismNetworkAdapter(cache: nil, baseURL: URL(string: bad)!)
            let error = await expectHTTPError(.invalidURL, "\(bad)") { try await client.request(on: request) }
            #expect(error?.message.contains("baseURL") == true, "\(bad)")
        }
    }
}
