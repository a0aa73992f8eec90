import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// A client is let go when its owner lets go of it, whatever it was doing: nothing of a request,
/// a streamed body or an event stream keeps the adapter or its transport alive (a screen that
/// made a client, used it and closed must not leave it, its cache and its connections behind).
@Suite("Clients and transports are freed when their owners drop them")
struct ClientReleaseTests {
    /// Looks every 10 ms until `condition` holds (what was let go is freed when the tasks that
    /// ended with it have run); false if it still does not after 20 s.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test(
        "an adapter and its transport are freed after a request, a body read to its end, one left midway and an event stream left midway",
        arguments: TransportKind.allCases)
    func adapterFreed(transport kind: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            weak var weakAdapter: PrismNetworkAdapter?
            weak var weakTransport: AnyObject?
            do {
                let transport = kind.make()
                weakTransport = transport as AnyObject
                let adapter = PrismNetworkAdapter(transport: transport)
                weakAdapter = adapter
                let response = try await adapter.send(PrismHTTPRequest(url: server.url("/users/octocat")))
                #expect(response.statusCode == 200)
                let whole = try await adapter.stream(PrismHTTPRequest(url: server.url("/large/200000")))
                #expect(try await whole.body.collect(upTo: 1 << 20).count == 200_000)
                // A body the server stalls after its first bytes, left after the first chunk.
                let stalled = try await adapter.stream(
                    PrismHTTPRequest(url: server.url("/hostile/stall?length=100000&sent=1024&ms=10000")))
                var chunks = stalled.body.makeAsyncIterator()
                #expect(try await chunks.next()?.isEmpty == false)
                // The task list's events: the current revision, then the stream is left open.
                var events = adapter.events(on: ServerEndpoint(server, "/tasks/events")).makeAsyncIterator()
                #expect(try await events.next()?.type == "revision")
            }
            #expect(try await Self.eventually { weakAdapter == nil }, "the adapter")
            #expect(try await Self.eventually { weakTransport == nil }, "its transport")
        }
    }
}
