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
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = follow ? .follow(max: 5, allowCycles: false) : .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(PrismAsyncHTTPClientTransport(client: client))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("a redirect from https to http is not followed: the credentials and the answer would travel in clear")
    func neverDowngrade() async throws {
        let plain = try await PrismTestServer.start()
        do {
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
        } catch {
            try? await plain.shutdown()
            throw error
        }
        try await plain.shutdown()
    }

    @Test(
        "an HTTPClient that follows redirects itself is refused before it sends anything: the other origin hears nothing"
    )
    func clientThatFollowsIsRefused() async throws {
        let other = try await PrismTestServer.start()
        do {
            try await PrismTestServer.withRunning(tls: true) { (secure: PrismTestServer) async throws in
                try await Self.withTrustingTransport(follow: true) {
                    (transport: PrismAsyncHTTPClientTransport) async throws in
                    let elsewhere = redirectURL(secure, to: other.url("/echo/elsewhere"))
                    let error = await #expect(throws: PrismHTTPError.self) {
                        try await transport.send(
                            PrismHTTPRequest(url: elsewhere, headers: ["Authorization": "Bearer secret-token"]))
                    }
                    #expect(error?.code == .transportFailed)
                    #expect(error?.message.contains("redirectConfiguration = .disallow") == true)
                    #expect(other.hits("/echo/elsewhere") == 0)
                    #expect(secure.requests.isEmpty, "the request was refused before it was sent")
                }
            }
        } catch {
            try? await other.shutdown()
            throw error
        }
        try await other.shutdown()
    }

    @Test("the reflection that reads whether an HTTPClient follows redirects still sees AsyncHTTPClient's field")
    func reflectedRedirectConfiguration() async throws {
        // If AsyncHTTPClient stores its configuration otherwise, `followsRedirects` answers false
        // for every client: this test fails, rather than the refusal above passing unseen.
        for (follow, expected) in [(true, true), (false, false)] {
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = follow ? .follow(max: 3, allowCycles: false) : .disallow
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            #expect(PrismAsyncHTTPClientTransport.followsRedirects(client) == expected)
            try await client.shutdown()
        }
    }

    @Test("a certificate the client does not trust is a connectionFailed error, classified by its type")
    func untrustedCertificate() async throws {
        try await PrismTestServer.withRunning(tls: true) { (secure: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: PrismAsyncHTTPClientTransport(), cache: nil)
            let error = await #expect(throws: PrismHTTPError.self) {
                try await client.send(PrismHTTPRequest(url: secure.url("/users/octocat")))
            }
            #expect(error?.code == .connectionFailed)
            #expect(error?.underlying is NIOSSLError || error?.underlying is BoringSSLError)
        }
    }
}
#endif
