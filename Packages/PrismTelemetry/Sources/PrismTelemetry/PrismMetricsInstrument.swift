// The Telemetry trait turns this on (Package.swift): without it the module is empty, and neither
// swift-metrics nor swift-distributed-tracing is fetched or linked.
#if Telemetry
import Foundation
import Metrics
import PrismHTTP

/// Counts and times what a client sends, with swift-metrics: whatever backend the app
/// bootstrapped (`MetricsSystem.bootstrap`: Prometheus, OpenTelemetry, StatsD, ...) receives it.
///
/// ```swift
/// let client = PrismNetworkAdapter(instruments: [PrismMetricsInstrument()])
/// ```
///
/// | metric | kind | dimensions | what it counts |
/// | --- | --- | --- | --- |
/// | `prism_http_client_requests` | counter | `method`, `host`, `status_class` | each attempt: `2xx` to `5xx`, or `failed` when none answered |
/// | `prism_http_client_request_duration` | timer | `method`, `host`, `status_class` | from the attempt leaving to its head arriving (a whole body with it) |
/// | `prism_http_client_retries` | counter | `method`, `host` | attempts that sent a request again (a retry, or a resend after a credential refresh) |
/// | `prism_http_client_request_body_bytes` | counter | `method`, `host` | the bytes of each body sent from memory |
/// | `prism_http_client_response_body_bytes` | counter | `method`, `host` | the bytes of each whole body received (not streams') |
/// | `prism_http_client_cache_lookups` | counter | `outcome`: `hit`, `staleHit`, `revalidation`, `miss` | each look in the response cache |
///
/// Dimensions are few and bounded: the method, the host (never the path or the query, which can
/// carry ids and secrets) and the class of the status.
///
/// Make the instrument after bootstrapping the backend, as swift-metrics asks of every metric: it
/// takes the factory bootstrapped when it is made. When that is still swift-metrics' no-op
/// handler (nothing bootstrapped), the instrument does nothing at all, at the cost of one check
/// per attempt.
public struct PrismMetricsInstrument: PrismNetworkInstrument {
    /// Where the metrics are made; nil when nothing but the no-op handler was bootstrapped.
    private let factory: (any MetricsFactory)?
    /// What every metric's label starts with.
    public let prefix: String
    /// The labels, made once.
    let labels: Labels

    /// An instrument whose labels start with `prefix`, made by `factory` (the bootstrapped
    /// backend when nil; a test passes MetricsTestKit's `TestMetrics`).
    public init(prefix: String = "prism_http_client", factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        let made = factory ?? MetricsSystem.factory
        self.factory = made is NOOPMetricsHandler ? nil : made
        self.labels = Labels(prefix: prefix)
    }

    /// Every metric's label.
    struct Labels: Sendable {
        let requests: String
        let duration: String
        let retries: String
        let requestBytes: String
        let responseBytes: String
        let cacheLookups: String

        init(prefix: String) {
            requests = prefix + "_requests"
            duration = prefix + "_request_duration"
            retries = prefix + "_retries"
            requestBytes = prefix + "_request_body_bytes"
            responseBytes = prefix + "_response_body_bytes"
            cacheLookups = prefix + "_cache_lookups"
        }
    }

    /// Counts the attempt's retry and its body, and returns what counts and times its end. The
    /// request is left as it is.
    public func attemptStarting(_ request: inout PrismHTTPRequest, resendCount: Int) -> (any PrismNetworkAttempt)? {
        guard let factory else { return nil }
        let target = [("method", request.method.rawValue), ("host", request.url.host ?? "")]
        if resendCount > 0 { Counter(label: labels.retries, dimensions: target, factory: factory).increment() }
        if let body = request.body, !body.isEmpty {
            Counter(label: labels.requestBytes, dimensions: target, factory: factory).increment(by: body.count)
        }
        return MeasuredAttempt(labels: labels, factory: factory, target: target, start: .now)
    }

    /// Counts the lookup by its outcome.
    public func cacheLookedUp(_ request: PrismHTTPRequest, outcome: PrismCacheLookupOutcome) {
        guard let factory else { return }
        Counter(label: labels.cacheLookups, dimensions: [("outcome", outcome.rawValue)], factory: factory).increment()
    }
}

/// One attempt being measured: its method and host, and when it left.
private struct MeasuredAttempt: PrismNetworkAttempt {
    let labels: PrismMetricsInstrument.Labels
    let factory: any MetricsFactory
    let target: [(String, String)]
    let start: ContinuousClock.Instant

    func answered(_ response: PrismHTTPResponse) {
        record(statusClass: "\(min(max(response.statusCode / 100, 1), 5))xx")
        if !response.body.isEmpty {
            Counter(label: labels.responseBytes, dimensions: target, factory: factory).increment(
                by: response.body.count)
        }
    }

    func failed(_ error: any Error) {
        record(statusClass: "failed")
    }

    private func record(statusClass: String) {
        let dimensions = target + [("status_class", statusClass)]
        Counter(label: labels.requests, dimensions: dimensions, factory: factory).increment()
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        Metrics.Timer(label: labels.duration, dimensions: dimensions, factory: factory).recordNanoseconds(nanoseconds)
    }
}
#endif
