#if AsyncHTTPClient && os(Linux)
import Foundation
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// An AsyncHTTPClient transport's `HTTPClient` lives as long as someone says: the shared one for
/// the process, an owned one until `shutdown()` or the end of `withTransport`.
@Suite("AsyncHTTPClient transports end their client explicitly, and only their own")
struct TransportLifetimeTests {
    @Test("a transport with only per-request settings shares the process's client: its shutdown stops no one")
    func perRequestSettingsShare() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let limited = PrismAsyncHTTPClientTransport(
                // Generous: beside hundreds of parallel tests on two loaded cores, 5 s has run out.
                configuration: PrismTransportConfiguration(
                    requestTimeout: .seconds(60), maximumResponseBytes: 100_000, redirects: .none))
            try await limited.shutdown()
            let response = try await limited.send(PrismHTTPRequest(url: server.url("/users/octocat")))
            #expect(response.statusCode == 200)
            let other = PrismAsyncHTTPClientTransport()
            #expect(try await other.send(PrismHTTPRequest(url: server.url("/users/octocat"))).statusCode == 200)
        }
    }

    @Test("withTransport shuts down the client it made: a request after it is a connectionFailed error that says so")
    func scopedShutdown() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let configuration = PrismTransportConfiguration(connectTimeout: .seconds(3))
            let url = server.url("/users/octocat")
            let (escaped, status) = try await PrismAsyncHTTPClientTransport.withTransport(
                configuration: configuration
            ) { transport in
                (transport, try await transport.send(PrismHTTPRequest(url: url)).statusCode)
            }
            #expect(status == 200)
            let error = await expectHTTPError(.connectionFailed) {
                try await escaped.send(PrismHTTPRequest(url: server.url("/users/octocat")))
            }
            #expect(error?.message.contains("shut down") == true, "\(error?.message ?? "")")
            // A second shutdown is harmless.
            try await escaped.shutdown()
        }
    }

    @Test("withTransport shuts its client down when the body throws too, and rethrows the body's error")
    func scopedShutdownOnThrow() async throws {
        struct Failure: Error {}
        try await withServer { (server: PrismTestServer) async throws in
            let escaped = LockedBox<PrismAsyncHTTPClientTransport?>(nil)
            await #expect(throws: Failure.self) {
                try await PrismAsyncHTTPClientTransport.withTransport(
                    configuration: PrismTransportConfiguration(maximumConnectionsPerHost: 2)
                ) { transport in
                    escaped.mutate { $0 = transport }
                    throw Failure()
                }
            }
            let transport = try #require(escaped.wrappedValue)
            await expectHTTPError(.connectionFailed) {
                try await transport.send(PrismHTTPRequest(url: server.url("/users/octocat")))
            }
        }
    }
}
#endif
