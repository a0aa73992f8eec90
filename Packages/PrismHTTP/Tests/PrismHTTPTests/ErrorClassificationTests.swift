#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import PrismHTTP
import PrismTestServer
import Testing

@Suite("AsyncHTTPClient's and NIO's errors are classified by type, and their messages carry no URL")
struct ErrorClassificationTests {
    let transport = PrismAsyncHTTPClientTransport(
        configuration: PrismTransportConfiguration(maximumResponseBytes: 10_000))

    @Test("a refused connection is connectionFailed, from a NIO connection error")
    func refused() async throws {
        let refused = try PrismRefusedPort()
        defer { refused.close() }
        let url = URL(string: "http://127.0.0.1:\(refused.port)/users/a?token=abc")!
        // Long timeouts: a machine too busy to run the event loop for a while must not turn the
        // refusal into a connect timeout.
        let patient = PrismAsyncHTTPClientTransport(
            configuration: PrismTransportConfiguration(connectTimeout: .seconds(300), requestTimeout: .seconds(300)))
        let error = await expectHTTPError(.connectionFailed) { try await patient.send(PrismHTTPRequest(url: url)) }
        try await patient.shutdown()
        let underlying = try #require(error?.underlying)
        #expect(
            underlying is NIOConnectionError || underlying is IOError || underlying is ChannelError
                || underlying is HTTPClientError, "\(type(of: underlying))")
        #expect(error?.message.contains("127.0.0.1") == false)
        #expect(error?.message.contains("token") == false)
    }

    @Test("a connection closed before the response is connectionFailed, from HTTPClientError.remoteConnectionClosed")
    func closedEarly() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let error = await expectHTTPError(.connectionFailed) {
                try await transport.send(PrismHTTPRequest(url: server.url("/drop")))
            }
            #expect(error?.underlying as? HTTPClientError == .remoteConnectionClosed)
        }
    }

    @Test("a body over the limit is responseTooLarge, announced or not")
    func tooLarge() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            await expectHTTPError(.responseTooLarge) {
                try await transport.send(PrismHTTPRequest(url: server.url("/hostile/oversized/50000")))
            }
            let announced = await expectHTTPError(.responseTooLarge) {
                try await transport.send(PrismHTTPRequest(url: server.url("/large/50000")))
            }
            #expect(announced?.message.contains("50000 bytes announced") == true)
            // Uploads stream through the async API, whose collect(upTo:) throws NIOTooManyBytesError
            // when a chunked answer passes the limit.
            let uploaded = await expectHTTPError(.responseTooLarge) {
                try await transport.upload(
                    PrismHTTPRequest(url: server.url("/hostile/oversized/50000"), method: .get),
                    body: .data(Data(count: 100))
                ) { _ in }
            }
            #expect(uploaded?.underlying is NIOTooManyBytesError)
        }
    }

    @Test("a server that answers too late is timedOut")
    func late() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            await expectHTTPError(.timedOut) {
                try await transport.send(PrismHTTPRequest(url: server.url("/delay/3000"), timeout: .milliseconds(200)))
            }
        }
    }
}
#endif
