#if AsyncHTTPClient && os(Linux)
import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import Testing

/// The subscription socket applies the network client's TLS settings (its transport's): the
/// trust roots, the pins (checked before the upgrade request is written) and the client
/// certificate.
@Suite("GraphQL subscriptions over wss: the transport's trust roots, pins and client certificate")
struct SubscriptionTLSTests {
    let authority: PrismCertificate
    let server: PrismCertificate

    init() throws {
        authority = try PrismCertificate(pem: PrismTestCertificates.authorityPEM)
        server = try PrismCertificate(pem: PrismTestCertificates.serverCertificatePEM)
    }

    /// Subscribes to `counter(to: 2)` on `server` with `tls` on the network client's transport.
    func count(on server: PrismTestServer, tls: PrismTLSConfiguration) async throws -> [Int] {
        try await PrismAsyncHTTPClientTransport.withTransport(
            configuration: PrismTransportConfiguration(tls: tls)
        ) { transport in
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"),
                networkClient: PrismNetworkAdapter(transport: transport, cache: nil), cache: nil,
                subscriptions: PrismGraphQLSubscriptionConfiguration(
                    connectionAckTimeout: patientAcknowledgement, keepAliveInterval: nil, reconnectPolicy: nil))
            var counts: [Int] = []
            for try await event in graphql.subscribe(counterSubscription(to: 2), as: CounterData.self) {
                counts.append(try #require(event.data).counter)
            }
            return counts
        }
    }

    @Test("a private authority and the server's key pinned: events arrive over wss")
    func trustedAndPinned() async throws {
        try await PrismTestServer.withRunning(tls: true) { (testServer: PrismTestServer) async throws in
            let tls = PrismTLSConfiguration(
                trustRoots: .only([authority]),
                pins: [try PrismCertificatePin(host: "127.0.0.1", certificates: [server])])
            #expect(try await count(on: testServer, tls: tls) == [1, 2])
            #expect(testServer.graphQLSubscriptionStatistics.connections == 1)
        }
    }

    @Test("another key pinned: the subscription ends with the pin mismatch, and no upgrade request reached the server")
    func wronglyPinned() async throws {
        try await PrismTestServer.withRunning(tls: true) { (testServer: PrismTestServer) async throws in
            let tls = PrismTLSConfiguration(
                trustRoots: .only([authority]),
                pins: [try PrismCertificatePin(host: "127.0.0.1", certificates: [authority])])
            let error = await #expect(throws: PrismGraphQLError.self) { try await count(on: testServer, tls: tls) }
            #expect(error?.code == .requestFailed)
            #expect((error?.underlying as? PrismHTTPError)?.code == .pinMismatch)
            #expect(error?.message.contains("127.0.0.1") == true)
            #expect(testServer.graphQLSubscriptionStatistics.connections == 0)
            #expect(testServer.graphQLSubscriptionStatistics.upgradeHeaders.isEmpty)
        }
    }

    @Test("without the private authority the socket is not trusted, and nothing subscribes")
    func untrusted() async throws {
        try await PrismTestServer.withRunning(tls: true) { (testServer: PrismTestServer) async throws in
            let error = await #expect(throws: PrismGraphQLError.self) {
                try await count(on: testServer, tls: PrismTLSConfiguration(minimumVersion: .tls12))
            }
            #expect(error?.code == .requestFailed)
            #expect(testServer.graphQLSubscriptionStatistics.connections == 0)
        }
    }

    @Test("the client certificate is presented on the socket too; a stranger's fails the handshake")
    func clientCertificate() async throws {
        try await PrismTestServer.withRunning(tls: true) { (testServer: PrismTestServer) async throws in
            let identity = PrismClientIdentity(
                pkcs12: PrismTestCertificates.clientPKCS12, passphrase: PrismTestCertificates.clientPKCS12Passphrase)
            let tls = PrismTLSConfiguration(trustRoots: .only([authority]), clientIdentity: identity)
            #expect(try await count(on: testServer, tls: tls) == [1, 2])

            let stranger = try PrismClientIdentity(
                certificateChainPEM: PrismTestCertificates.strangerCertificatePEM,
                privateKeyPEM: PrismTestCertificates.strangerPrivateKeyPEM)
            let error = await #expect(throws: PrismGraphQLError.self) {
                try await count(
                    on: testServer, tls: PrismTLSConfiguration(trustRoots: .only([authority]), clientIdentity: stranger)
                )
            }
            #expect(error?.code == .requestFailed)
            #expect(testServer.graphQLSubscriptionStatistics.connections == 1)
        }
    }
}
#endif
