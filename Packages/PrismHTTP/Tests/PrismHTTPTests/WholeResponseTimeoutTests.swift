import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Timeouts cover the whole response: a server cannot hold a request past its timeout")
struct WholeResponseTimeoutTests {
    // The hostile bodies below would take 20 s in full; the timeouts are two seconds: long
    // enough for the head and the first bytes to arrive on a loaded machine, so that it is the
    // body the timeout has to cut short. What shows the request ended early is what the server
    // saw (the body it never finished sending), not the time it took.

    /// Sends GET `path` to `server` through `client`, with `timeout` if any, and expects it to
    /// time out.
    static func timesOut(
        _ client: PrismNetworkAdapter, _ server: PrismTestServer, _ path: String, timeout: Duration? = nil
    ) async {
        await expectHTTPError(.timedOut) {
            try await client.send(PrismHTTPRequest(url: server.url(path), timeout: timeout))
        }
    }

    @Test(
        "a server that sends its headers and then stalls fails the request with timedOut, and loses the connection",
        arguments: TransportKind.allCases)
    func stall(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            await Self.timesOut(client, server, "/hostile/stall?sent=100&ms=20000", timeout: .seconds(2))
            // The client closed the connection rather than keeping it, stalled, in its pool. (On a
            // machine so loaded that the head had not arrived within two seconds, the server never
            // started the body, and there is nothing to abandon.)
            if server.bodyBytesSent("/hostile/stall") > 0 {
                try await eventually { server.abandonedResponses("/hostile/stall") == 1 }
                #expect(server.bodyBytesSent("/hostile/stall") == 100)
            }
        }
    }

    @Test(
        "a server that drips its body a byte at a time fails the request with timedOut",
        arguments: TransportKind.allCases)
    func drip(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            // 200 bytes, one every 100 ms: 20 s in all, never 100 ms without a byte.
            await Self.timesOut(client, server, "/hostile/drip?bytes=200&interval=100", timeout: .seconds(2))
            #expect(server.bodyBytesSent("/hostile/drip") < 200)
            // The client closed the connection (on a machine so loaded that the request never
            // reached the route within two seconds, there is nothing to abandon).
            if server.bodyBytesSent("/hostile/drip") > 0 {
                try await eventually { server.abandonedResponses("/hostile/drip") == 1 }
            }
        }
    }

    @Test(
        "the configuration's request timeout bounds the body too when the request sets none",
        arguments: TransportKind.allCases)
    func configurationTimeout(transport: TransportKind) async throws {
        try await withClient(transport, PrismTransportConfiguration(requestTimeout: .milliseconds(500))) {
            (server, client) async throws in
            await Self.timesOut(client, server, "/hostile/stall?sent=10&ms=20000")
        }
    }

    @Test(
        "a request's own timeout, longer than the configuration's, is the one that applies",
        arguments: TransportKind.allCases)
    func longerRequestTimeout(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            // The configuration says one second; this request gives itself five minutes. The
            // server answers after three seconds: URLSession's resource timeout must not cut it at
            // the configuration's. (The request's own bound is a hundred times the server's delay,
            // so that a busy machine cannot make it the one that ends the request.)
            let client = PrismNetworkAdapter(
                transport: transport.make(PrismTransportConfiguration(requestTimeout: .seconds(1))), cache: nil)
            let response = try await client.send(
                PrismHTTPRequest(url: server.url("/delay/3000"), timeout: .seconds(300)))
            #expect(response.statusCode == 200)
        }
    }

    @Test(
        "a shorter timeout after a longer one on the same transport still ends its request first",
        arguments: TransportKind.allCases)
    func shorterAfterLonger(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let finished = LockedBox(false)
            // The first request stalls with thirty seconds to go; the second one, sent after it,
            // stalls with half a second: its deadline comes first, and must end it first.
            let long = Task {
                defer { finished.mutate { $0 = true } }
                return try await client.send(
                    PrismHTTPRequest(url: server.url("/hostile/stall?sent=10&ms=60000"), timeout: .seconds(30)))
            }
            try await eventually { server.hits("/hostile/stall") == 1 }
            await Self.timesOut(client, server, "/hostile/stall?sent=10&ms=60000", timeout: .milliseconds(500))
            #expect(finished.wrappedValue == false)
            long.cancel()
            _ = await long.result
        }
    }

    @Test(
        "a request cancelled while its body stalls ends at once, and loses its connection",
        arguments: TransportKind.allCases)
    func cancelledDuringBody(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            // The deadline is five minutes away: only the cancellation can end the request. It is
            // cancelled once the server has sent the head and the first 100 bytes of the body.
            let request = Task {
                try await client.send(
                    PrismHTTPRequest(url: server.url("/hostile/stall?sent=100&ms=60000"), timeout: .seconds(300)))
            }
            try await eventually { server.bodyBytesSent("/hostile/stall") == 100 }
            request.cancel()
            let result = await request.result
            #expect(throws: CancellationError.self) { try result.get() }
            try await eventually { server.abandonedResponses("/hostile/stall") == 1 }
        }
    }

    @Test("after a timed-out body the transport still serves the next request", arguments: TransportKind.allCases)
    func transportRecovers(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            _ = try? await client.send(
                PrismHTTPRequest(url: server.url("/hostile/stall?sent=10&ms=20000"), timeout: .milliseconds(300)))
            let next = try await client.send(PrismHTTPRequest(url: server.url("/users/octocat")))
            #expect(next.statusCode == 200)
        }
    }
}
