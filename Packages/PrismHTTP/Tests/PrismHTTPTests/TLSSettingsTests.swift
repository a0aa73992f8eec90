import Foundation
import PrismHTTP
import PrismTestServer
import Testing

/// The settings' own rules: parsing certificates and pins, and which pins a host gets.
@Suite("TLS settings: certificates, pins and identities are checked when they are made")
struct TLSSettingsValueTests {
    @Test("a certificate's pin is the SHA-256 of its SubjectPublicKeyInfo, as openssl computes it")
    func pinOfCertificate() throws {
        // openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der
        //     | openssl dgst -sha256 -binary | base64
        let server = try PrismCertificate(pem: PrismTestCertificates.serverCertificatePEM)
        #expect(server.publicKeySHA256 == "biwTCJIKSdJhbC7tjFWnQNrdSrfzhTQFiNtgERmfWjE=")
        let authority = try PrismCertificate(pem: PrismTestCertificates.authorityPEM)
        #expect(authority.publicKeySHA256 == "4wexf02qGheqBwU17VnRkSPrt2c/LRA/OLMq+u6xM6k=")
        let bundle = try PrismCertificate.all(
            pem: PrismTestCertificates.serverCertificatePEM + "\n" + PrismTestCertificates.authorityPEM)
        #expect(bundle == [server, authority])
    }

    @Test(
        "text that is not a certificate is invalidTLSConfiguration",
        arguments: [
            "", "hello", "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----",
            "-----BEGIN CERTIFICATE-----\nMIIB\n",
            "-----BEGIN CERTIFICATE-----\nAAAAAAAA\n-----END CERTIFICATE-----",
        ])
    func notACertificate(text: String) {
        expectHTTPError(.invalidTLSConfiguration) { try PrismCertificate(pem: text) }
    }

    @Test("every truncation of a real certificate is refused, never read past its end")
    func truncatedCertificates() throws {
        let der = try PrismCertificate(pem: PrismTestCertificates.serverCertificatePEM).derBytes
        for length in 0..<der.count {
            #expect(throws: PrismHTTPError.self) { try PrismCertificate(derBytes: der.prefix(length)) }
        }
    }

    @Test("a pin takes base64 hashes of 32 bytes, with or without sha256/, and a name or a wildcard pattern")
    func pinValidation() throws {
        let hash = "biwTCJIKSdJhbC7tjFWnQNrdSrfzhTQFiNtgERmfWjE="
        let pin = try PrismCertificatePin(host: "API.Example.com.", sha256: ["sha256/" + hash])
        #expect(pin.host == "api.example.com")
        #expect(pin.sha256 == [hash])
        for (host, hashes) in [
            ("", [hash]), ("*", [hash]), ("a.*.example.com", [hash]), ("*.", [hash]), ("**.", [hash]),
            ("example.com", []), ("example.com", ["not base64"]), ("example.com", ["AAAA"]),
        ] {
            let error = #expect(throws: PrismHTTPError.self, "\(host) \(hashes)") {
                try PrismCertificatePin(host: host, sha256: hashes)
            }
            #expect(error?.code == .invalidTLSConfiguration)
        }
    }

    @Test("*.name covers one label, **.name the name and everything under it, a name itself only")
    func pinPatterns() throws {
        let hash = "biwTCJIKSdJhbC7tjFWnQNrdSrfzhTQFiNtgERmfWjE="
        let one = try PrismCertificatePin(host: "*.example.com", sha256: [hash])
        let any = try PrismCertificatePin(host: "**.example.org", sha256: [hash])
        let exact = try PrismCertificatePin(host: "api.example.net", sha256: [hash])
        let tls = PrismTLSConfiguration(pins: [one, any, exact])
        let covered = [
            "a.example.com", "A.Example.COM.", "example.org", "x.example.org", "x.y.example.org",
            "api.example.net",
        ]
        let notCovered = [
            "example.com", "a.b.example.com", "xexample.org", "example.org.evil", "www.api.example.net",
            "example.net", "127.0.0.1",
        ]
        for host in covered { #expect(tls.pins(for: host) == [hash], "\(host)") }
        for host in notCovered { #expect(tls.pins(for: host).isEmpty, "\(host)") }
    }

    @Test("an identity needs a certificate and a private key block")
    func identityValidation() throws {
        _ = try PrismClientIdentity(
            certificateChainPEM: PrismTestCertificates.clientCertificatePEM,
            privateKeyPEM: PrismTestCertificates.clientPrivateKeyPEM)
        for (chain, key) in [
            ("", PrismTestCertificates.clientPrivateKeyPEM),
            (PrismTestCertificates.clientCertificatePEM, ""),
            (PrismTestCertificates.clientCertificatePEM, PrismTestCertificates.clientCertificatePEM),
        ] {
            expectHTTPError(.invalidTLSConfiguration) {
                try PrismClientIdentity(certificateChainPEM: chain, privateKeyPEM: key)
            }
        }
    }
}

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient

/// The AsyncHTTPClient transport against the test server's HTTPS: a private authority, pins,
/// client certificates and the oldest TLS version.
@Suite("TLS settings: trust roots, pins, client certificates and TLS versions on AsyncHTTPClient")
struct TLSSettingsTransportTests {
    let authority: PrismCertificate
    let server: PrismCertificate

    init() throws {
        authority = try PrismCertificate(pem: PrismTestCertificates.authorityPEM)
        server = try PrismCertificate(pem: PrismTestCertificates.serverCertificatePEM)
    }

    /// Sends GET `path` to `server` through a transport with `tls`, and shuts the transport down.
    static func get(
        _ path: String, on server: PrismTestServer, tls: PrismTLSConfiguration, retry: Bool = false
    ) async throws -> PrismHTTPResponse {
        try await PrismAsyncHTTPClientTransport.withTransport(
            configuration: PrismTransportConfiguration(tls: tls)
        ) { transport in
            let client = PrismNetworkAdapter(transport: transport, cache: nil)
            let policy =
                retry ? PrismExponentialBackoff(baseDelay: .milliseconds(1), maxAttempts: 3, jitter: .zero) : nil
            return try await client.send(
                PrismHTTPRequest(url: server.url(path)), options: PrismRequestOptions(retryPolicy: policy))
        }
    }

    @Test("a private authority: trusted when added to or replacing the system's roots, refused otherwise")
    func privateAuthority() async throws {
        try await PrismTestServer.withRunning(tls: true) { (server: PrismTestServer) async throws in
            for roots in [PrismTLSConfiguration.TrustRoots.only([authority]), .systemAnd([authority])] {
                let response = try await Self.get(
                    "/users/octocat", on: server, tls: PrismTLSConfiguration(trustRoots: roots))
                #expect(response.statusCode == 200)
            }
            let client = try PrismCertificate(pem: PrismTestCertificates.clientAuthorityPEM)
            for roots in [PrismTLSConfiguration.TrustRoots.only([client]), .system] {
                await expectHTTPError(.connectionFailed) {
                    try await Self.get(
                        "/users/octocat", on: server,
                        tls: PrismTLSConfiguration(trustRoots: roots, minimumVersion: .tls12))
                }
            }
            #expect(server.hits("/users/octocat") == 2)
        }
    }

    @Test("the server's key pinned: served; another key pinned: pinMismatch naming the host, nothing sent, not retried")
    func pinning() async throws {
        try await PrismTestServer.withRunning(tls: true) { (server: PrismTestServer) async throws in
            let good = PrismTLSConfiguration(
                trustRoots: .only([authority]),
                pins: [try PrismCertificatePin(host: "127.0.0.1", certificates: [self.server])])
            #expect(try await Self.get("/echo/pinned", on: server, tls: good).statusCode == 200)
            #expect(server.hits("/echo/pinned") == 1)

            // The authority's key is in the chain, but pins name the server's own key.
            let wrong = PrismTLSConfiguration(
                trustRoots: .only([authority]),
                pins: [try PrismCertificatePin(host: "127.0.0.1", certificates: [authority])])
            let error = await expectHTTPError(.pinMismatch) {
                try await Self.get("/echo/mispinned", on: server, tls: wrong, retry: true)
            }
            #expect(error?.message.contains("127.0.0.1") == true)
            #expect(error?.message.contains(self.server.publicKeySHA256) == true)
            #expect(error?.url == server.url("/echo/mispinned"))
            #expect(server.hits("/echo/mispinned") == 0)

            // A pin for other hosts leaves this one to the trust roots.
            let elsewhere = PrismTLSConfiguration(
                trustRoots: .only([authority]),
                pins: [try PrismCertificatePin(host: "**.example.com", certificates: [authority])])
            #expect(try await Self.get("/echo/unpinned", on: server, tls: elsewhere).statusCode == 200)
        }
    }

    @Test("a pinned host asked over plain HTTP is refused before anything is sent")
    func pinnedHostInClear() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            let tls = PrismTLSConfiguration(pins: [
                try PrismCertificatePin(host: "127.0.0.1", certificates: [self.server])
            ])
            await expectHTTPError(.pinMismatch) {
                try await Self.get("/echo/clear", on: server, tls: tls)
            }
            #expect(server.hits("/echo/clear") == 0)
        }
    }

    @Test(
        "a route that requires a client certificate: refused without one, served with PEM or PKCS#12, a stranger's fails"
    )
    func clientCertificates() async throws {
        try await PrismTestServer.withRunning(tls: true) { (server: PrismTestServer) async throws in
            let path = "/tls/client-certificate"
            let anonymous = try await Self.get(
                path, on: server, tls: PrismTLSConfiguration(trustRoots: .only([authority])))
            #expect(anonymous.statusCode == 403)

            let pem = try PrismClientIdentity(
                certificateChainPEM: PrismTestCertificates.clientCertificatePEM,
                privateKeyPEM: PrismTestCertificates.clientPrivateKeyPEM)
            let bundle = PrismClientIdentity(
                pkcs12: PrismTestCertificates.clientPKCS12, passphrase: PrismTestCertificates.clientPKCS12Passphrase)
            for identity in [pem, bundle] {
                let response = try await Self.get(
                    path, on: server,
                    tls: PrismTLSConfiguration(trustRoots: .only([authority]), clientIdentity: identity))
                #expect(response.statusCode == 200)
                let body = try JSONSerialization.jsonObject(with: response.body) as? [String: String]
                #expect(body?["subject"] == "prism-test-client")
            }

            let stranger = try PrismClientIdentity(
                certificateChainPEM: PrismTestCertificates.strangerCertificatePEM,
                privateKeyPEM: PrismTestCertificates.strangerPrivateKeyPEM)
            await expectHTTPError(.connectionFailed) {
                try await Self.get(
                    path, on: server,
                    tls: PrismTLSConfiguration(trustRoots: .only([authority]), clientIdentity: stranger))
            }
            #expect(server.hits(path) == 3)
        }
    }

    @Test(
        "a PKCS#12 bundle with the wrong passphrase, or a key of another certificate, fails every request before sending"
    )
    func unusableIdentity() async throws {
        try await PrismTestServer.withRunning(tls: true) { (server: PrismTestServer) async throws in
            let wrongPassphrase = PrismClientIdentity(pkcs12: PrismTestCertificates.clientPKCS12, passphrase: "nope")
            let error = await expectHTTPError(.invalidTLSConfiguration) {
                try await Self.get(
                    "/echo/identity", on: server,
                    tls: PrismTLSConfiguration(trustRoots: .only([authority]), clientIdentity: wrongPassphrase))
            }
            #expect(error?.url == server.url("/echo/identity"))
            #expect(server.hits("/echo/identity") == 0)
        }
    }

    @Test("a client that requires TLS 1.3 does not talk to a server that stops at TLS 1.2; the default does")
    func minimumVersion() async throws {
        let server = try await PrismTestServer.start(tls: true, highestTLSVersion: .tls12)
        do {
            let modern = PrismTLSConfiguration(trustRoots: .only([authority]), minimumVersion: .tls13)
            await expectHTTPError(.connectionFailed) {
                try await Self.get("/echo/old", on: server, tls: modern)
            }
            let lenient = PrismTLSConfiguration(trustRoots: .only([authority]))
            #expect(try await Self.get("/echo/old", on: server, tls: lenient).statusCode == 200)
            #expect(server.hits("/echo/old") == 1)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test("TLS settings cannot be applied to an HTTPClient the app made: every request is refused, nothing sent")
    func appOwnedClient() async throws {
        try await PrismTestServer.withRunning(tls: true) { (server: PrismTestServer) async throws in
            let own = HTTPClient(
                eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
            defer { _ = own.shutdown() }
            let transport = PrismAsyncHTTPClientTransport(
                client: own,
                configuration: PrismTransportConfiguration(tls: PrismTLSConfiguration(minimumVersion: .tls13)))
            await expectHTTPError(.invalidTLSConfiguration) {
                try await transport.send(PrismHTTPRequest(url: server.url("/echo/own")))
            }
            #expect(server.hits("/echo/own") == 0)
        }
    }
}
#endif

#if canImport(FoundationNetworking)
@Suite("TLS settings on Linux's URLSession")
struct TLSSettingsURLSessionTests {
    @Test("swift-corelibs-foundation cannot apply TLS settings: the request is refused, not sent without them")
    func refusedOnLinux() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            let tls = PrismTLSConfiguration(
                trustRoots: .only([try PrismCertificate(pem: PrismTestCertificates.authorityPEM)]))
            let transport = PrismURLSessionTransport(configuration: PrismTransportConfiguration(tls: tls))
            await expectHTTPError(.invalidTLSConfiguration) {
                try await transport.send(PrismHTTPRequest(url: server.url("/echo/curl")))
            }
            #expect(server.hits("/echo/curl") == 0)
        }
    }
}
#endif

@Suite("TLS settings never print a private key or a passphrase")
struct TLSSettingsSecrecyTests {
    @Test("an identity, and settings holding one, print neither the key nor the passphrase")
    func identityIsRedacted() throws {
        let pem = try PrismClientIdentity(
            certificateChainPEM: PrismTestCertificates.clientCertificatePEM,
            privateKeyPEM: PrismTestCertificates.clientPrivateKeyPEM)
        let bundle = PrismClientIdentity(pkcs12: PrismTestCertificates.clientPKCS12, passphrase: "hunter2-passphrase")
        let keyLine = try #require(PrismTestCertificates.clientPrivateKeyPEM.split(separator: "\n").dropFirst().first)
        for identity in [pem, bundle] {
            let configuration = PrismTransportConfiguration(tls: PrismTLSConfiguration(clientIdentity: identity))
            for text in [
                "\(identity)", String(reflecting: identity), "\(configuration)", String(reflecting: configuration),
            ] {
                #expect(!text.contains(keyLine))
                #expect(!text.contains("hunter2"))
            }
        }
    }
}
