#if AsyncHTTPClient && os(Linux)
import Foundation
import InMemoryTracing
@testable import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing
import Tracing

/// AsyncHTTPClient records a span per request with the tracer bootstrapped when its client is
/// made. The transport's own clients keep that tracer when an app bootstrapped one, and skip
/// the span's work when it is the no-op tracer, which records nothing.
@Suite("The AsyncHTTPClient transport's spans go to the app's tracer, and cost nothing without one")
struct TransportTracingTests {
    @Test("a tracer bootstrapped before the transport's client is made gets AsyncHTTPClient's span for each request")
    func bootstrappedTracerKept() async throws {
        let tracer = InMemoryTracer()
        try await withServer { (server: PrismTestServer) async throws in
            // Connection settings of its own: the transport makes its own client, with `tracer`
            // as the tracer an app bootstrapped.
            let transport = PrismAsyncHTTPClientTransport(
                configuration: PrismTransportConfiguration(connectTimeout: .seconds(7)), deadlineClock: .continuous,
                tracer: tracer)
            let first = try await transport.send(PrismHTTPRequest(url: server.url("/users/octocat")))
            let second = try await transport.send(PrismHTTPRequest(url: server.url("/status/404")))
            try await transport.shutdown()
            #expect(first.statusCode == 200)
            #expect(second.statusCode == 404)
        }
        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["GET", "GET"])
        #expect(spans.allSatisfy { $0.kind == .client })
        #expect(spans.map { $0.attributes.get("http.status_code") } == [.int64(200), .int64(404)])
    }

    @Test("the no-op tracer is not handed to AsyncHTTPClient; any other tracer is")
    func noOpTracerDropped() {
        #expect(PrismAsyncHTTPClientTransport.recordingTracer(NoOpTracer()) == nil)
        #expect(PrismAsyncHTTPClientTransport.recordingTracer(nil) == nil)
        #expect(PrismAsyncHTTPClientTransport.recordingTracer(InMemoryTracer()) is InMemoryTracer)
    }
}
#endif
