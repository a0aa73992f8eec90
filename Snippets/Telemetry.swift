// Metrics and traces of a client's requests with PrismTelemetry. It compiles with the package; the
// app bootstraps its backends (Prometheus, OpenTelemetry, ...) once, at launch.
// snippet.hide
// With the Telemetry trait only (Prism's own builds turn it on), as an app that uses PrismTelemetry.
#if Telemetry
import Foundation
import PrismHTTP
import PrismStore
import PrismTelemetry
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Profile: Decodable, Sendable {
    var login: String
}

// snippet.show
// snippet.instruments
func instrumentedClient() -> PrismNetworkAdapter {
    // Counters and timers go to the backend bootstrapped with MetricsSystem.bootstrap, spans to
    // the tracer bootstrapped with InstrumentationSystem.bootstrap; with none, both cost little.
    PrismNetworkAdapter(instruments: [PrismMetricsInstrument(), PrismTracingInstrument()])
}

func loadProfile(_ client: PrismNetworkAdapter, url: URL) async throws -> Profile {
    // The request's span is a child of this one, and its trace context goes out with it.
    try await withSpan("load profile") { _ in
        let response = try await client.send(PrismHTTPRequest(url: url))
        return try JSONDecoder().decode(Profile.self, from: response.body)
    }
}
// snippet.end

// snippet.store
@MainActor
func tracedStore<State: Sendable, Action: Sendable>(_ store: PrismStore<State, Action>) {
    // Each send a span, each effect it starts a span within it; with no tracer bootstrapped,
    // nothing happens.
    PrismStoreTracing.trace(store)
}
// snippet.end

// snippet.hide
#endif
