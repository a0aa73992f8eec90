#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import Testing

/// An app may hand the transport an `HTTPClient` of its own. One configured to follow redirects
/// would follow them past Prism's rules: AsyncHTTPClient strips `Authorization` and `Cookie` on
/// a cross-origin hop, but not `X-API-Key` or any other secret header, and resends a 307/308 body.
@Suite("An app's own HTTPClient that follows redirects cannot carry secrets or bodies to another origin")
struct OwnHTTPClientRedirectTests {
    static func withOwnClient<T>(follow: Bool, _ body: (PrismNetworkAdapter) async throws -> T) async throws -> T {
        try await withHTTPClient(followingRedirects: follow) { client in
            try await body(PrismNetworkAdapter(transport: PrismAsyncHTTPClientTransport(client: client), cache: nil))
        }
    }

    @Test("a 307 with X-API-Key, a cookie and a body reaches nothing at the other origin, and fails clearly")
    func nothingReachesTheOtherOrigin() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            try await Self.withOwnClient(follow: true) { client in
                for status in [302, 307, 308] {
                    let error = await expectHTTPError(.transportFailed) {
                        try await client.send(
                            PrismHTTPRequest(
                                url: redirectURL(server, to: otherOrigin(server, "/echo/stolen"), status: status),
                                method: .post,
                                headers: [
                                    "X-API-Key": "secret-key", "Cookie": "session=secret", "Content-Type": "text/plain",
                                ],
                                body: Data("private body".utf8)))
                    }
                    #expect(error?.message.contains("redirectConfiguration") == true)
                }
                // What the other origin received: nothing at all.
                #expect(server.hits("/echo/stolen") == 0)
                #expect(!server.requests.contains { $0.path == "/echo/stolen" })
                // Nothing was sent anywhere: the refusal comes before the first byte.
                #expect(server.requests.isEmpty)
            }
        }
    }

    @Test("the same client with redirects disallowed follows Prism's rules: same-origin hops only")
    func disallowingClientWorks() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            try await Self.withOwnClient(follow: false) { client in
                let response = try await client.send(
                    PrismHTTPRequest(
                        url: redirectURL(server, to: otherOrigin(server, "/echo/stolen"), status: 307),
                        method: .post, headers: ["X-API-Key": "secret-key"], body: Data("private body".utf8)))
                #expect(response.statusCode == 307)
                #expect(server.hits("/echo/stolen") == 0)
                let home = try await client.send(PrismHTTPRequest(url: server.url("/hostile/redirect-chain/2")))
                #expect(home.statusCode == 200)
            }
        }
    }
}
#endif
