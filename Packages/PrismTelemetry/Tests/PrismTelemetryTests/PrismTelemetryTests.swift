// PrismTelemetry is built with the Telemetry trait, which Prism's own builds turn on
// (Tools/scripts/swift-root.sh): a plain `swift build` leaves these out.
#if Telemetry
import Foundation
import InMemoryTracing
import Metrics
import MetricsTestKit
import PrismGraphQL
import PrismHTTP
import PrismStore
@testable import PrismTelemetry
import PrismTestServer
import PrismTestSupport
import Testing
import Tracing

/// The instruments on a real client against the test server, measured by swift-metrics'
/// `TestMetrics` and swift-distributed-tracing's `InMemoryTracer`, each given to its instrument
/// (nothing is bootstrapped: the process's other tests are not measured).
@Suite("PrismTelemetry: metrics and traces of a client's requests")
struct PrismTelemetryTests {
    static let retrying = PrismExponentialBackoff(
        baseDelay: .milliseconds(5), maxDelay: .milliseconds(50), maxAttempts: 4, jitter: .milliseconds(5))

    @Test("requests are counted and timed by method, host and status class; retries, bytes and cache lookups too")
    func metrics() async throws {
        try await PrismTestServer.withRunning { server in
            let metrics = TestMetrics()
            let client = PrismNetworkAdapter(
                retryPolicy: Self.retrying, instruments: [PrismMetricsInstrument(factory: metrics)])
            let host = try #require(server.url("/").host)

            let user = try await client.send(PrismHTTPRequest(url: server.url("/users/octocat")))
            _ = try await client.send(PrismHTTPRequest(url: server.url("/status/404")))
            _ = try await client.send(PrismHTTPRequest(url: server.url("/flaky/metrics?failures=2&status=503")))
            let posted = Data(#"{"title": "counted"}"#.utf8)
            _ = try await client.send(
                PrismHTTPRequest(
                    url: server.url("/echo"), method: .post, headers: ["Content-Type": "application/json"],
                    body: posted))
            for _ in 0..<2 { _ = try await client.send(PrismHTTPRequest(url: server.url("/cache/metrics?max-age=60"))) }

            func requests(_ method: String, _ statusClass: String) -> Int64 {
                metrics.counterTotal(
                    label: "prism_http_client_requests",
                    dimensions: [("method", method), ("host", host), ("status_class", statusClass)])
            }
            // users, the flaky route's third attempt, the first cache request (the second is a hit).
            #expect(requests("GET", "2xx") == 3)
            #expect(requests("GET", "4xx") == 1)
            #expect(requests("GET", "5xx") == 2)
            #expect(requests("POST", "2xx") == 1)
            #expect(metrics.counterTotal(label: "prism_http_client_retries") == 2)
            #expect(
                metrics.counterTotal(label: "prism_http_client_request_body_bytes", dimensions: [("method", "POST")])
                    == Int64(posted.count))
            #expect(
                metrics.counterTotal(label: "prism_http_client_response_body_bytes", dimensions: [("method", "GET")])
                    >= Int64(user.body.count))
            #expect(
                metrics.counterTotal(label: "prism_http_client_cache_lookups", dimensions: [("outcome", "hit")]) == 1)
            #expect(
                metrics.counterTotal(label: "prism_http_client_cache_lookups", dimensions: [("outcome", "miss")]) >= 1)
            let timer = try metrics.expectTimer(
                "prism_http_client_request_duration", [("method", "GET"), ("host", host), ("status_class", "4xx")])
            #expect(timer.values.count == 1)
            #expect((timer.values.first ?? -1) > 0)
        }
    }

    @Test("a connection that fails is counted as failed")
    func failedAttempt() async throws {
        let metrics = TestMetrics()
        let refused = try PrismRefusedPort()
        let client = PrismNetworkAdapter(cache: nil, instruments: [PrismMetricsInstrument(factory: metrics)])
        await #expect(throws: PrismHTTPError.self) {
            _ = try await client.send(PrismHTTPRequest(url: URL(string: "http://127.0.0.1:\(refused.port)/")!))
        }
        #expect(
            metrics.counterTotal(label: "prism_http_client_requests", dimensions: [("status_class", "failed")]) == 1)
    }

    @Test("each attempt is a client span, a child of the caller's, and the server receives its context")
    func spans() async throws {
        try await PrismTestServer.withRunning { server in
            let tracer = InMemoryTracer()
            let client = PrismNetworkAdapter(
                cache: nil, retryPolicy: Self.retrying, instruments: [PrismTracingInstrument(tracer: tracer)])
            let parent = tracer.startSpan("load profile")
            try await InstrumentationContext.$current.withValue(parent.context) {
                _ = try await client.send(PrismHTTPRequest(url: server.url("/users/octocat?access_token=secret")))
                _ = try await client.send(PrismHTTPRequest(url: server.url("/flaky/spans?failures=1&status=503")))
            }
            parent.end()
            let spans = tracer.finishedSpans.filter { $0.operationName == "GET" }
            try #require(spans.count == 3)
            let parentID = try #require(tracer.finishedSpans.first { $0.operationName == "load profile" }?.spanContext)
            for span in spans {
                #expect(span.kind == .client)
                #expect(span.parentSpanID == parentID.spanID)
                #expect(span.spanContext.traceID == parentID.traceID)
                #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
                #expect(span.attributes["server.address"]?.toSpanAttribute() == "127.0.0.1")
            }
            let url = spans[0].attributes["url.full"].map { "\($0)" } ?? ""
            #expect(url.contains("/users/octocat") && !url.contains("secret"), "\(url)")
            #expect(spans[0].attributes["http.response.status_code"]?.toSpanAttribute() == 200)
            #expect(spans[1].attributes["http.response.status_code"]?.toSpanAttribute() == 503)
            #expect(spans[1].status?.code == .error)
            #expect(spans[2].attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
            #expect(spans[2].status?.code != .error)

            // The context went out with each attempt: the server saw each span's ids.
            let sent = server.requests.filter { $0.path == "/users/octocat" || $0.path == "/flaky/spans" }
            #expect(sent.map { $0.headers[InMemoryTracer.spanIDKey] } == spans.map { $0.spanContext.spanID })
            #expect(sent.allSatisfy { $0.headers[InMemoryTracer.traceIDKey] == parentID.traceID })
        }
    }

    @Test("with no backend bootstrapped (no test bootstraps one), the instruments do nothing: no span, no header")
    func noBackend() {
        let url = URL(string: "https://api.example.com/users")!
        var request = PrismHTTPRequest(url: url)
        let untouched = request
        #expect(PrismTracingInstrument().attemptStarting(&request, resendCount: 0) == nil)
        #expect(PrismMetricsInstrument().attemptStarting(&request, resendCount: 1) == nil)
        #expect(request == untouched)
    }

    /// What the test server's `operationNumber` field answers.
    struct Number: Decodable, Sendable {
        var operationNumber: Int
    }

    @Test("a GraphQL query is a span of its own, named by its type and name, and its attempt is its child")
    func graphQLSpan() async throws {
        try await PrismTestServer.withRunning { server in
            let tracer = InMemoryTracer()
            let http = PrismNetworkAdapter(cache: nil, instruments: [PrismTracingInstrument(tracer: tracer)])
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: http)
            let query = PrismGraphQLQuery(query: "query Number { operationNumber }", operationName: "Number")
            let response = try await graphql.execute(query, as: Number.self)
            #expect(response.data != nil)
            let operation = try #require(tracer.finishedSpans.first { $0.operationName == "query Number" })
            let attempt = try #require(tracer.finishedSpans.first { $0.operationName == "POST" })
            #expect(attempt.parentSpanID == operation.spanContext.spanID)
            #expect(attempt.spanContext.traceID == operation.spanContext.traceID)
            #expect(operation.attributes["graphql.operation.name"]?.toSpanAttribute() == "Number")
            #expect(operation.attributes["graphql.operation.type"]?.toSpanAttribute() == "query")
            #expect(operation.status?.code != .error)
        }
    }

    /// A feature that loads over the network in an effect.
    struct Loader: PrismReducer {
        struct State: Equatable, Sendable {
            var loaded = false
        }

        enum Action: Sendable {
            case load(password: String)
            case loaded
        }

        let client: PrismNetworkAdapter
        let url: URL

        func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
            switch action {
            case .load:
                return .run { [client, url] send in
                    _ = try await client.send(PrismHTTPRequest(url: url))
                    send(.loaded)
                }
            case .loaded:
                state.loaded = true
                return .none
            }
        }
    }

    @Test("a traced store's send is a span, each effect it starts its child, and the effect's request the effect's")
    @MainActor
    func storeSpans() async throws {
        try await PrismTestServer.withRunning { server in
            let tracer = InMemoryTracer()
            let client = PrismNetworkAdapter(cache: nil, instruments: [PrismTracingInstrument(tracer: tracer)])
            let store = PrismStore(
                initialState: Loader.State(), reducer: Loader(client: client, url: server.url("/users/octocat")))
            PrismStoreTracing.trace(store, tracer: tracer)
            await store.send(.load(password: "hunter2")).finish()
            #expect(store.state.loaded)

            let spans = tracer.finishedSpans
            let send = try #require(spans.first { $0.operationName == "send load" })
            let effect = try #require(spans.first { $0.operationName == "effect" })
            let request = try #require(spans.first { $0.operationName == "GET" })
            #expect(send.parentSpanID == nil)
            #expect(effect.parentSpanID == send.spanContext.spanID)
            #expect(request.parentSpanID == effect.spanContext.spanID)
            #expect(Set(spans.map(\.spanContext.traceID)).count == 1)
            #expect(send.attributes["prism.action"]?.toSpanAttribute() == "load")
            // The payload (what a user typed) is in no span.
            #expect(!spans.contains { $0.operationName.contains("hunter2") || "\($0.attributes)".contains("hunter2") })
            // The action the effect sent back is reduced within the effect, not a span of its own.
            #expect(!spans.contains { $0.operationName == "send loaded" })
        }
    }

    @Test("a span names an action by its case, without its payload")
    func caseNames() {
        #expect(PrismStoreTracing.caseName(of: Loader.Action.load(password: "x")) == "load")
        #expect(PrismStoreTracing.caseName(of: Loader.Action.loaded) == "loaded")
        #expect(PrismStoreTracing.caseName(of: 42) == "Int")
    }

    @Test("a failed attempt's span says why, by the error's code, not its message")
    func failedSpan() async throws {
        let tracer = InMemoryTracer()
        let refused = try PrismRefusedPort()
        let client = PrismNetworkAdapter(cache: nil, instruments: [PrismTracingInstrument(tracer: tracer)])
        await #expect(throws: PrismHTTPError.self) {
            _ = try await client.send(PrismHTTPRequest(url: URL(string: "http://127.0.0.1:\(refused.port)/")!))
        }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "connectionFailed")
        #expect(span.attributes["http.response.status_code"] == nil)
    }
}
#endif
