#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOSSL
import PrismTestServer
import Testing

@testable import PrismHTTP

@Suite("HTTPS: never downgraded to HTTP by a redirect")
struct TLSRedirectTests {
    /// An AsyncHTTPClient that trusts the test server's certificate, and the transport over it.
    static func withTrustingTransport<T>(
        follow: Bool = false, _ body: (PrismAsyncHTTPClientTransport) async throws -> T
    ) async throws -> T {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [
            .certificates(try NIOSSLCertificate.fromPEMBytes(Array(PrismTestServer.certificatePEM.utf8)))
        ]
        return try await withHTTPClient(HTTPClient.Configuration(tlsConfiguration: tls), followingRedirects: follow) {
            client in
            try await body(PrismAsyncHTTPClientTransport(client: client))
        }
    }

    @Test("a redirect from https to http is not followed: the credentials and the answer would travel in clear")
    func neverDowngrade() async throws {
        try await withServer { (plain: PrismTestServer) async throws in
            try await PrismTestServer.withRunning(tls: true) { (secure: PrismTestServer) async throws in
                try await Self.withTrustingTransport { (transport: PrismAsyncHTTPClientTransport) async throws in
                    let client = PrismNetworkAdapter(transport: transport, cache: nil)
                    let downgrade = redirectURL(secure, to: plain.url("/echo/in-clear"))
                    let response = try await client.send(
                        PrismHTTPRequest(url: downgrade, headers: ["Authorization": "Bearer secret-token"]))
                    #expect(response.statusCode == 302)
                    #expect(plain.hits("/echo/in-clear") == 0)
                    // https to https is followed.
                    let upgrade = try await client.send(PrismHTTPRequest(url: secure.url("/hostile/redirect-chain/2")))
                    #expect(upgrade.statusCode == 200)
                    #expect(upgrade.url.scheme == "https")
                }
            }
        }
    }

    @Test(
        "an HTTPClient that follows redirects itself is refused before it sends anything: the other origin hears nothing"
    )
    func clientThatFollowsIsRefused() async throws {
        try await withServer { (other: PrismTestServer) async throws in
            try await PrismTestServer.withRunning(tls: true) { (secure: PrismTestServer) async throws in
                try await Self.withTrustingTransport(follow: true) {
                    (transport: PrismAsyncHTTPClientTransport) async throws in
                    let elsewhere = redirectURL(secure, to: other.url("/echo/elsewhere"))
                    let error = await expectHTTPError(.transportFailed) {
                        try await transport.send(
                            PrismHTTPRequest(url: elsewhere, headers: ["Authorization": "Bearer secret-token"]))
                    }
                    #expect(error?.message.contains("redirectConfiguration = .disallow") == true)
                    #expect(other.hits("/echo/elsewhere") == 0)
                    #expect(secure.requests.isEmpty, "the request was refused before it was sent")
                }
            }
        }
    }

    @Test("the reflection that reads whether an HTTPClient follows redirects still sees AsyncHTTPClient's field")
    func reflectedRedirectConfiguration() async throws {
        // If AsyncHTTPClient stores its configuration otherwise, `followsRedirects` answers false
        // for every client: this test fails, rather than the refusal above passing unseen.
        for (follow, expected) in [(true, true), (false, false)] {
            try await withHTTPClient(followingRedirects: follow, maximum: 3) { client in
                #expect(PrismAsyncHTTPClientTransport.followsRedirects(client) == expected)
            }
        }
    }

    @Test("a certificate the client does not trust is a connectionFailed error, classified by its type")
    func untrustedCertificate() async throws {
        try await PrismTestServer.withRunning(tls: true) { (secure: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: PrismAsyncHTTPClientTransport(), cache: nil)
            let error = await expectHTTPError(.connectionFailed) {
                try await client.send(PrismHTTPRequest(url: secure.url("/users/octocat")))
            }
            #expect(error?.underlying is NIOSSLError || error?.underlying is BoringSSLError)
        }
    }
}
#endif
