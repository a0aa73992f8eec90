// What PrismTelemetry's instruments cost a request when no backend is bootstrapped (the shared
// no-op metrics handlers and the no-op tracer): `make bench ARGS="--filter telemetry"`.
#if Telemetry
import Foundation
import PrismNetwork
import PrismTelemetry
import PrismTestServer

/// `--filter "telemetry"`: `request(on:)` with a metrics and a tracing instrument and no backend,
/// against the same client without instruments: with no network (a transport that answers at
/// once), where the instruments' own nanoseconds show, and over loopback to the test server in
/// its own process (bar: within 1% of the rate, the CPU within 1%).
func telemetryBenchmarks() async throws -> [Result] {
    guard selected("telemetry") else { return [] }
    let instruments: [any PrismNetworkInstrument] = [PrismMetricsInstrument(), PrismTracingInstrument()]
    var results: [Result] = []

    let server = try await PrismTestServer.start()
    let body = try await PrismNetworkAdapter(cache: nil).send(PrismHTTPRequest(url: server.url("/json/1024"))).body
    try await server.shutdown()
    let request = DocumentRequest(endpoint: DocumentEndpoint(port: 8080))
    let bare = PrismNetworkAdapter(transport: CannedTransport(body: body), cache: nil)
    let instrumented = PrismNetworkAdapter(transport: CannedTransport(body: body), cache: nil, instruments: instruments)
    let count = 20_000
    var with: [Double] = []
    var without: [Double] = []
    for _ in 0..<7 {
        var start = ContinuousClock.now
        for _ in 0..<count { blackHole(try await instrumented.request(on: request)) }
        with.append((ContinuousClock.now - start).nanoseconds / Double(count))
        start = ContinuousClock.now
        for _ in 0..<count { blackHole(try await bare.request(on: request)) }
        without.append((ContinuousClock.now - start).nanoseconds / Double(count))
    }
    let (timing, baseline) = pairedTimings(with, against: without)
    results.append(
        Result(
            name: "request(on:), metrics and tracing instruments, no backend, no network",
            timing: timing, baselineName: "the same client without instruments", baseline: baseline, bar: .none,
            note: String(
                format: "the instruments' own cost: %.0f ns a request",
                timing.nanosecondsPerOperation - baseline.nanosecondsPerOperation)))

    #if AsyncHTTPClient && os(Linux)
    let process = try TestServerProcess()
    defer { process.stop() }
    let overLoopback = DocumentRequest(endpoint: DocumentEndpoint(port: process.baseURL.port))
    let plain = PrismNetworkAdapter(cache: nil)
    let traced = PrismNetworkAdapter(cache: nil, instruments: instruments)
    results += try await compareUnderLoad(
        "1 KB GET, instruments with no backend",
        concurrencies: [1, 16],
        [
            LoadContender(name: "request(on:), no instruments") { _ = try await plain.request(on: overLoopback) },
            LoadContender(name: "request(on:), metrics and tracing") { _ = try await traced.request(on: overLoopback) },
        ],
        rate: 0.99, cpu: 1.01, p99: .infinity)
    #endif
    return results
}
#else
/// Without the Telemetry trait there is nothing to measure.
func telemetryBenchmarks() async throws -> [Result] { [] }
#endif
