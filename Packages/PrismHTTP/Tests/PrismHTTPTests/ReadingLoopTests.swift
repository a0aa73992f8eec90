#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import PrismSupport
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// Where the AsyncHTTPClient transport starts an exchange that collects a whole response: on the
/// loop its client's connections last read on while it is the only one under way (the loop of
/// the one kept-alive connection), else where AsyncHTTPClient chooses.
@Suite("An exchange alone under way starts on the loop its client's connections last read on")
struct ReadingLoopTests {
    @Test("nothing before a read; then the reading connection's loop, for an exchange with no other under way")
    func lastReadLoop() async throws {
        try await withServer { server in
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let reading = ReadingLoop(group: group)
            let connected = PrismLocked<[any EventLoop]>([])
            var settings = HTTPClient.Configuration()
            settings.http1_1ConnectionDebugInitializer = reading.noting { channel in
                connected.withLock { $0.append(channel.eventLoop) }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            let client = HTTPClient(eventLoopGroup: group, configuration: settings)
            do {
                // No connection has read: nothing tells where one waits.
                #expect(reading.begin() == nil)
                reading.end()
                let response = try await client.execute(
                    HTTPClientRequest(url: server.url("/json/1024").absoluteString), timeout: .seconds(60))
                _ = try await response.body.collect(upTo: 1 << 20)
                // The note was taken on the connection's own loop (the one connection made).
                let loops = connected.value
                #expect(loops.count == 1)
                let loop = try #require(loops.first)
                let alone = try #require(reading.begin())
                #expect(alone === loop)
                // A second exchange while the first is under way: AsyncHTTPClient's choice.
                #expect(reading.begin() == nil)
                reading.end()
                reading.end()
                // Both ended: alone again.
                #expect(reading.begin() === loop)
                reading.end()
            } catch {
                try await client.shutdown()
                try await group.shutdownGracefully()
                throw error
            }
            try await client.shutdown()
            try await group.shutdownGracefully()
        }
    }

    @Test("a POST's body arrives whole, sent alone on its connection's loop or beside another request")
    func postBodies() async throws {
        struct Echo: Decodable {
            var method: String
            var bodyLength: Int
            var bodyBase64: String?
        }
        try await withServer { server in
            let configuration = PrismTransportConfiguration(maximumConnectionsPerHost: 2)
            try await PrismAsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                // 300 KB: more than one write of the socket.
                let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                let post = PrismHTTPRequest(url: server.url("/echo"), method: .post, body: body)
                func expectEchoed(_ response: PrismHTTPResponse) throws {
                    #expect(response.statusCode == 200)
                    let echo = try JSONDecoder().decode(Echo.self, from: response.body)
                    #expect(echo.method == "POST")
                    #expect(echo.bodyLength == body.count)
                    #expect(echo.bodyBase64.flatMap { Data(base64Encoded: $0) } == body)
                }
                // Nothing read yet, then alone after a read: on the connection's loop.
                try expectEchoed(try await transport.send(post))
                try expectEchoed(try await transport.send(post))
                // Beside a request under way (its head and 10 bytes, then nothing for 20 s).
                let stall = PrismHTTPRequest(url: server.url("/hostile/stall?sent=10&ms=20000"))
                let stalled = Task { try await transport.send(stall) }
                try await eventually { server.bodyBytesSent("/hostile/stall") == 10 }
                try expectEchoed(try await transport.send(post))
                stalled.cancel()
                _ = await stalled.result
            }
        }
    }

    @Test(
        "a request alone under way, started on its connection's loop, is cancelled with its task and its connection closed"
    )
    func cancelledOnTheReadingLoop() async throws {
        try await withServer { server in
            // Connection settings of its own: a client, and a note of its reads, of its own.
            let configuration = PrismTransportConfiguration(maximumConnectionsPerHost: 1)
            try await PrismAsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                let client = PrismNetworkAdapter(transport: transport, cache: nil)
                // The first request leaves a connection that has read.
                let first = try await client.request(on: RawRequest(endpoint: ServerEndpoint(server, "/json/1024")))
                #expect(first.count == 1024)
                try await expectCancelledMidBody(client, server)
            }
        }
    }
}
#endif
