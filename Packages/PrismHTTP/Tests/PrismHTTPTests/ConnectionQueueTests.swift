import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// A request that finds every connection to its host busy (`maximumConnectionsPerHost` of them)
/// waits for one within its own timeout: `connectTimeout` bounds opening a connection, not the
/// wait for one that is in use.
@Suite("A request queued for a busy host's connection waits within its own timeout")
struct ConnectionQueueTests {
    @Test(
        "a request queued behind a busy connection outlasts the connect timeout, and is answered when the connection frees",
        arguments: TransportKind.allCases)
    func queuedRequestOutlastsConnectTimeout(transport kind: TransportKind) async throws {
        try await withHeldConnection(kind) { server, transport, held in
            server.script("quick", [Scripted(body: "quick")])
            let queued = Task { try await transport.send(PrismHTTPRequest(url: server.url("/scripted/quick"))) }
            // Three connect timeouts: a busy machine only makes the pool's timer fire
            // later, never the test fail.
            try await Task.sleep(for: .seconds(3))
            // It waited for the one connection the held answer keeps.
            #expect(server.hits("/scripted/quick") == 0)
            // The held answer ends, and its connection goes back to the pool for the queued
            // request. (Cancelling the held body instead closed the connection, and the queued
            // request then had one second, the connect timeout, to open another: a starved
            // event loop took longer once.)
            server.release("held")
            var heldBody = ""
            for try await chunk in held.body { heldBody += String(decoding: chunk, as: UTF8.self) }
            #expect(heldBody == "head, rest")
            let response = try await queued.value
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "quick")
        }
    }

    @Test(
        "a request that never gets a connection fails with timedOut at its own timeout",
        arguments: TransportKind.allCases)
    func queuedRequestTimesOut(transport kind: TransportKind) async throws {
        try await withHeldConnection(kind) { server, transport, _ in
            // The held answer never frees the connection: only the request's own timeout ends
            // its wait (the pool's waits of connectTimeout each are not the end of it).
            var queued = PrismHTTPRequest(url: server.url("/scripted/quick"))
            queued.timeout = .seconds(3)
            await expectHTTPError(.timedOut) { try await transport.send(queued) }
            #expect(server.hits("/scripted/quick") == 0)
        }
    }

    /// Runs `body` with a test server, a transport of `kind` allowed one connection per host with
    /// a connect timeout of one second, and a streamed answer that holds that connection: its
    /// head came, and the rest comes when the test releases "held" (`server.release`), or never.
    /// Shuts the transport down.
    func withHeldConnection(
        _ kind: TransportKind,
        _ body: (PrismTestServer, any PrismHTTPTransport, PrismHTTPStreamedResponse) async throws -> Void
    ) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            server.script("held", [Scripted(body: "head", parts: [.init(releasedBy: "held", ", rest")])])
            let transport = kind.make(
                PrismTransportConfiguration(connectTimeout: .seconds(1), maximumConnectionsPerHost: 1))
            let held = try await transport.stream(
                PrismHTTPRequest(url: server.url("/scripted/held")), idleTimeout: .seconds(600))
            try await body(server, transport, held)
            held.body.cancel()
            #if AsyncHTTPClient && os(Linux)
            try await (transport as? PrismAsyncHTTPClientTransport)?.shutdown()
            #endif
        }
    }
}
