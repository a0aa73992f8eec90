// The Telemetry trait turns this on (Package.swift).
#if Telemetry
import Foundation
import PrismHTTP
import Tracing

/// A client span for every attempt a client sends, with swift-distributed-tracing: whatever tracer
/// the app bootstrapped (`InstrumentationSystem.bootstrap`: OpenTelemetry, ...) records it, and
/// injects the trace context into the request, so that the server's spans join the trace
/// (`traceparent` with OpenTelemetry's W3C propagation).
///
/// ```swift
/// let client = PrismNetworkAdapter(instruments: [PrismTracingInstrument()])
/// try await withSpan("load profile") { _ in
///     try await client.request(on: GetUser(login: "octocat"))  // a child span: "GET"
/// }
/// ```
///
/// Each attempt is a span of kind `client` named by the method, a child of the span the sending
/// task is in (`InstrumentationContext.current`), with OpenTelemetry's HTTP client attributes:
///
/// | attribute | value |
/// | --- | --- |
/// | `http.request.method` | the method |
/// | `url.full` | the URL, its user info and secret query items redacted (`PrismHTTPRedaction`) |
/// | `server.address`, `server.port` | the host, and the port (the scheme's when the URL has none) |
/// | `http.request.resend_count` | for a retry or a resend after a credential refresh: how many times it was sent before |
/// | `http.response.status_code` | the status, when one arrived |
/// | `error.type` | the status (400 and up), or the failure's `PrismHTTPError` code (or type) |
///
/// A status of 400 or more, or a failure, sets the span's status to error. A redirect the
/// transport follows stays inside its attempt's span. An answer from the response cache is no
/// attempt and makes no span.
public struct PrismTracingInstrument: PrismNetworkInstrument {
    /// The tracer the spans go to; nil when the one bootstrapped was the no-op tracer.
    private let tracer: (any Tracer)?

    /// An instrument whose spans go to `tracer`: the one bootstrapped when the instrument is made
    /// (`InstrumentationSystem.tracer`) when nil, as swift-distributed-tracing asks of a library;
    /// a test passes swift-distributed-tracing's `InMemoryTracer`. Make it after bootstrapping:
    /// when the tracer is still the no-op one, the instrument does nothing at all.
    public init(tracer: (any Tracer)? = nil) {
        let chosen = tracer ?? InstrumentationSystem.tracer
        self.tracer = chosen is NoOpTracer ? nil : chosen
    }

    /// Runs `body` in a span of the operation: a GraphQL query or mutation is named by its type
    /// and name (`query GetUser`), with OpenTelemetry's `graphql.operation.type` and
    /// `graphql.operation.name` (never the document, which can carry values), and its attempts
    /// are the span's children. A thrown error sets the span's status to error.
    public func around<T: Sendable>(_ operation: PrismNetworkOperation, _ body: () async throws -> T)
        async throws -> T
    {
        guard let tracer else { return try await body() }
        let name = operation.name.map { "\(operation.type) \($0)" } ?? operation.type
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: .internal)
        if span.isRecording {
            span.attributes["\(operation.system).operation.type"] = operation.type
            if let operationName = operation.name {
                span.attributes["\(operation.system).operation.name"] = operationName
            }
        }
        defer { span.end() }
        do {
            return try await InstrumentationContext.$current.withValue(span.context) { try await body() }
        } catch {
            let type = (error as? PrismHTTPError).map { "\($0.code)" } ?? String(describing: Swift.type(of: error))
            span.attributes["error.type"] = type
            span.setStatus(SpanStatus(code: .error, message: type))
            throw error
        }
    }

    /// Starts the attempt's span and injects its context into `request`'s headers.
    public func attemptStarting(_ request: inout PrismHTTPRequest, resendCount: Int) -> (any PrismNetworkAttempt)? {
        guard let tracer else { return nil }
        let method = request.method.rawValue
        let span = tracer.startSpan(method, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
        if span.isRecording {
            span.attributes["http.request.method"] = method
            span.attributes["url.full"] = PrismHTTPRedaction.redact(request.url)
            if let host = request.url.host { span.attributes["server.address"] = host }
            span.attributes["server.port"] = request.url.port ?? (request.url.scheme?.lowercased() == "http" ? 80 : 443)
            if resendCount > 0 { span.attributes["http.request.resend_count"] = resendCount }
        }
        tracer.inject(span.context, into: &request.headers, using: HeaderInjector())
        return TracedAttempt(span: span)
    }
}

/// Writes a trace context's fields into a request's headers, replacing any of the same name.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout PrismHTTPHeaders) {
        headers[key] = value
    }
}

/// One attempt's span, ended by how the attempt ended.
private struct TracedAttempt: PrismNetworkAttempt {
    let span: any Span

    func answered(_ response: PrismHTTPResponse) {
        span.attributes["http.response.status_code"] = response.statusCode
        if response.statusCode >= 400 {
            span.attributes["error.type"] = String(response.statusCode)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    func failed(_ error: any Error) {
        let type = (error as? PrismHTTPError).map { "\($0.code)" } ?? String(describing: Swift.type(of: error))
        span.attributes["error.type"] = type
        // The error's type only: its message can quote a URL or a header.
        span.setStatus(SpanStatus(code: .error, message: type))
        span.end()
    }
}
#endif
