// Load benchmarks (issue 60): the client against what a user would write without Prism, measured
// as a user sees it. The server runs in a process of its own (`TestServerProcess`), so that the
// CPU this process spends (`getrusage`) is the client's alone. Each round runs every contender
// once, in turn (the first one rotating from round to round); a figure's ratio is the median of
// its per-round ratios against the baseline, which shared the machine's state of that round.
//
// `--filter "client"` runs the 1 KB JSON GET at concurrency 1, 16 and 64; `--filter "graphql"`
// includes the GraphQL query against a plain POST (GraphQLBenchmarks.swift).
import Foundation
import PrismGraphQL
import PrismNetwork
import PrismTestServer

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
#endif

#if canImport(Glibc)
import Glibc
#endif

/// What one contender measured in one round.
struct LoadRound {
    var nanosecondsPerRequest: Double
    var p50: Double
    var p99: Double
    var cpuPerRequest: Double
    /// Context switches (voluntary and not) of this process per request.
    var switchesPerRequest: Double = 0
}

/// One way of making the same request.
struct LoadContender {
    let name: String
    let operation: @Sendable () async throws -> Void
}

/// The CPU time this process has used so far, user and system, in nanoseconds.
func processCPUNanoseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    let microseconds = Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    return seconds * 1e9 + microseconds * 1e3
}

/// The context switches (voluntary and involuntary) of this process so far.
func processContextSwitches() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_nvcsw + usage.ru_nivcsw)
}

/// `total` requests made by `concurrency` workers, each timed.
func loadRound(total: Int, concurrency: Int, _ operation: @escaping @Sendable () async throws -> Void)
    async throws -> LoadRound
{
    let cpu = processCPUNanoseconds()
    let switches = processContextSwitches()
    let start = ContinuousClock.now
    var latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for worker in 0..<concurrency {
            let share = total / concurrency + (worker < total % concurrency ? 1 : 0)
            group.addTask {
                var times: [Double] = []
                times.reserveCapacity(share)
                for _ in 0..<share {
                    let begin = ContinuousClock.now
                    try await operation()
                    times.append((ContinuousClock.now - begin).nanoseconds)
                }
                return times
            }
        }
        var all: [Double] = []
        all.reserveCapacity(total)
        for try await times in group { all += times }
        return all
    }
    let elapsed = (ContinuousClock.now - start).nanoseconds
    let used = processCPUNanoseconds() - cpu
    let switched = processContextSwitches() - switches
    latencies.sort()
    return LoadRound(
        nanosecondsPerRequest: elapsed / Double(total),
        p50: latencies[latencies.count / 2],
        p99: latencies[min(latencies.count - 1, latencies.count * 99 / 100)],
        cpuPerRequest: used / Double(total),
        switchesPerRequest: switched / Double(total))
}

/// `rounds` rounds of every contender, after a warm-up of each: the rounds of each, in the order
/// given.
func loadRounds(rounds: Int, total: Int, concurrency: Int, _ contenders: [LoadContender]) async throws
    -> [[LoadRound]]
{
    for contender in contenders {
        _ = try await loadRound(total: total / 2, concurrency: concurrency, contender.operation)
    }
    var measured = Array(repeating: [LoadRound](), count: contenders.count)
    for round in 0..<rounds {
        for turn in 0..<contenders.count {
            let index = (round + turn) % contenders.count
            let began = monotonicNanoseconds()
            measured[index].append(
                try await loadRound(total: total, concurrency: concurrency, contenders[index].operation))
            if marksWanted {
                FileHandle.standardError.write(
                    Data("mark \(index) c=\(concurrency) \(began) \(monotonicNanoseconds())\n".utf8))
            }
        }
    }
    return measured
}

/// Whether each round's contender, concurrency and span of `CLOCK_MONOTONIC` go to standard
/// error (`PRISM_LOAD_MARKS=1`), for Tools/scripts/perf-by-contender.py to split a `perf record
/// -k CLOCK_MONOTONIC` of the whole run by contender.
private let marksWanted = ProcessInfo.processInfo.environment["PRISM_LOAD_MARKS"] != nil

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// The candidate's and the baseline's figure, the candidate's ratio the median of the rounds'.
func pairedTimings(_ candidate: [Double], against baseline: [Double]) -> (Timing, Timing) {
    let base = Timing(nanosecondsPerOperation: median(baseline))
    var timing = Timing(nanosecondsPerOperation: median(candidate))
    timing.pairedRatio = (median(zip(candidate, baseline).map { $0 / $1 }), base.identity)
    return (timing, base)
}

/// The report's rows for each contender after the first (the baseline): requests per second (bar
/// `rate`, as a share of the baseline's), CPU per request (bar `cpu`) and p99 latency (bar `p99`).
func loadResults(
    _ label: String,
    concurrency: Int,
    contenders: [LoadContender],
    rounds measured: [[LoadRound]],
    rate: Double,
    cpu: Double,
    p99: Double
) -> [Result] {
    var results: [Result] = []
    let baseline = measured[0]
    for (contender, rounds) in zip(contenders.dropFirst(), measured.dropFirst()) {
        let name = "\(contender.name), \(label), c=\(concurrency)"
        let (time, baseTime) = pairedTimings(
            rounds.map(\.nanosecondsPerRequest), against: baseline.map(\.nanosecondsPerRequest))
        let (used, baseUsed) = pairedTimings(rounds.map(\.cpuPerRequest), against: baseline.map(\.cpuPerRequest))
        let (tail, baseTail) = pairedTimings(rounds.map(\.p99), against: baseline.map(\.p99))
        let (middle, baseMiddle) = pairedTimings(rounds.map(\.p50), against: baseline.map(\.p50))
        results.append(
            Result(
                name: "\(name): time/req",
                timing: time,
                baselineName: contenders[0].name,
                baseline: baseTime,
                bar: .atMostRatio(1 / rate),
                note: String(
                    format: "%.0f vs %.0f req/s = %.3fx", 1e9 / time.nanosecondsPerOperation,
                    1e9 / baseTime.nanosecondsPerOperation, 1 / (time.pairedRatio?.ratio ?? 1))
            ))
        results.append(
            Result(
                name: "\(name): CPU/req", timing: used, baselineName: contenders[0].name, baseline: baseUsed,
                bar: .atMostRatio(cpu),
                note: String(
                    format: "%.2f vs %.2f context switches/req", median(rounds.map(\.switchesPerRequest)),
                    median(baseline.map(\.switchesPerRequest)))))
        results.append(
            Result(
                name: "\(name): p99", timing: tail, baselineName: contenders[0].name, baseline: baseTail,
                bar: .atMostRatio(p99),
                note: String(
                    format: "p50 %.1f vs %.1f us = %.2fx", middle.nanosecondsPerOperation / 1e3,
                    baseMiddle.nanosecondsPerOperation / 1e3, middle.pairedRatio?.ratio ?? 0)))
    }
    return results
}

/// ``loadRounds(rounds:total:concurrency:_:)`` at each of `concurrencies` (1,000 requests a
/// round at concurrency 1, 2,000 above), reported by ``loadResults``.
func compareUnderLoad(
    _ label: String,
    concurrencies: [Int],
    _ contenders: [LoadContender],
    rate: Double,
    cpu: Double,
    p99: Double
) async throws -> [Result] {
    var results: [Result] = []
    for concurrency in concurrencies {
        let measured = try await loadRounds(
            rounds: 11, total: concurrency == 1 ? 1_000 : 2_000, concurrency: concurrency, contenders)
        results += loadResults(
            label, concurrency: concurrency, contenders: contenders, rounds: measured, rate: rate, cpu: cpu, p99: p99)
    }
    return results
}

/// The 1 KB JSON GET at concurrency 1, 16 and 64: raw AsyncHTTPClient with Foundation's
/// `JSONDecoder` at its defaults (what a user writes), against `request(on:)` with no cache and
/// with a cache that misses. Bars: at least 0.97x the baseline's requests per second, at most
/// 1.05x its CPU per request, p99 within 1.1x.
func clientLoadBenchmarks() async throws -> [Result] {
    #if AsyncHTTPClient && os(Linux)
    guard selected("client") else { return [] }
    let server = try TestServerProcess()
    defer { server.stop() }
    let url = server.url("/json/1024").absoluteString
    let request = DocumentRequest(endpoint: DocumentEndpoint(port: server.baseURL.port))
    let uncached = PrismNetworkAdapter(cache: nil)
    let cache = PrismResponseCache(maxSize: 100)
    let missing = PrismNetworkAdapter(cache: cache)
    let contenders = [
        LoadContender(name: "raw AHC + JSONDecoder()") {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            _ = try JSONDecoder().decode(Document.self, from: Data(body.readableBytesView))
        },
        LoadContender(name: "request(on:), no cache") { _ = try await uncached.request(on: request) },
        LoadContender(name: "request(on:), cache miss") { _ = try await missing.request(on: request) },
    ]
    let results = try await compareUnderLoad(
        "1 KB JSON GET", concurrencies: [1, 16, 64], contenders, rate: 0.97, cpu: 1.05, p99: 1.1)
    // A miss every time: the server sends nothing that lets a response be stored.
    guard await cache.count == 0 else {
        throw BenchmarkError("the cache-miss contender hit its cache: /json/1024 was stored")
    }
    return results
    #else
    return []
    #endif
}

#if AsyncHTTPClient && os(Linux)
/// The GraphQL benchmark's POST of `body` to `server`'s `/graphql` as raw AsyncHTTPClient sends
/// it: what a user writes without Prism.
func rawGraphQLPost(to server: TestServerProcess, body: Data) -> HTTPClientRequest {
    var post = HTTPClientRequest(url: server.url("/graphql").absoluteString)
    post.method = .POST
    post.headers.add(name: "Content-Type", value: "application/json")
    post.headers.add(name: "Accept", value: "application/json")
    post.body = .bytes(ByteBuffer(bytes: body))
    return post
}
#endif

/// `--filter "client loop"` or `"raw loop"`: 20,000 requests (or `PRISM_LOOP_REQUESTS`) for the 1 KB
/// JSON GET by the client (no cache) or by raw AsyncHTTPClient + `JSONDecoder()`, at the concurrency
/// `PRISM_LOOP_CONCURRENCY` names (1 if unset), against the server in its own process: to profile
/// the client alone (`perf record -g`, `perf stat`). `"post loop"`, `"raw post loop"` and
/// `"graphql loop"` do the same for the GraphQL benchmark's POST: through PrismHTTP's
/// `request(on:)`, raw AsyncHTTPClient + `JSONDecoder()`, and `graphql.execute`. `"transport
/// loop"`, `"send loop"` and `"bare loop"` are the GET's layers. No figure, and only when asked for
/// by name.
func clientLoop() async throws {
    #if AsyncHTTPClient && os(Linux)
    guard let filter = benchmarkFilter, filter.hasSuffix(" loop"), !filter.hasSuffix("scope loop"),
        filter != "root send loop"
    else { return }
    let typed = "client loop".contains(filter)
    let mode = filter
    let environment = ProcessInfo.processInfo.environment
    let concurrency = environment["PRISM_LOOP_CONCURRENCY"].flatMap { Int($0) } ?? 1
    let total = environment["PRISM_LOOP_REQUESTS"].flatMap { Int($0) } ?? 20_000
    let server = try TestServerProcess()
    defer { server.stop() }
    let url = server.url("/json/1024").absoluteString
    let request = DocumentRequest(endpoint: DocumentEndpoint(port: server.baseURL.port))
    let client = PrismNetworkAdapter(cache: nil)
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let switches = usage.ru_nvcsw + usage.ru_nivcsw
    let transport = PrismAsyncHTTPClientTransport()
    let plain = PrismHTTPRequest(url: server.url("/json/1024"))
    let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: client, cache: nil)
    let body = try GraphQLBenchmarkOperation.body()
    let post = GraphQLBenchmarkRequest(endpoint: GraphQLBenchmarkEndpoint(port: server.baseURL.port, payload: body))
    let raw = rawGraphQLPost(to: server, body: body)
    let round = try await loadRound(total: total, concurrency: concurrency) {
        if mode == "post loop" {
            _ = try await client.request(on: post)
        } else if mode == "raw post loop" {
            let response = try await HTTPClient.shared.execute(raw, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            _ = try JSONDecoder().decode(GraphQLBenchmarkEnvelope.self, from: Data(bytes.readableBytesView))
        } else if mode == "graphql loop" {
            _ = try await graphql.execute(GraphQLBenchmarkOperation.query, as: GraphQLBenchmarkData.self)
        } else if mode == "transport loop" {
            _ = try await transport.send(plain)
        } else if mode == "send loop" {
            _ = try await client.send(plain)
        } else if mode == "bare loop" {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
        } else if typed {
            _ = try await client.request(on: request)
        } else {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            _ = try JSONDecoder().decode(Document.self, from: Data(body.readableBytesView))
        }
    }
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    print(
        String(
            format:
                "%@, c=%d: %.1f us/request, CPU %.1f us/request, p50 %.1f us, p99 %.1f us, %.2f context switches/request",
            mode, concurrency, round.nanosecondsPerRequest / 1e3, round.cpuPerRequest / 1e3,
            round.p50 / 1e3, round.p99 / 1e3, Double(usage.ru_nvcsw + usage.ru_nivcsw - switches) / Double(total)))
    #endif
}

/// A transport that answers every request at once with the same 1 KB JSON document.
struct CannedTransport: PrismHTTPTransport {
    let body: Data
    var configuration: PrismTransportConfiguration { .default }

    func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        var headers = PrismHTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: "\(body.count)")
        return PrismHTTPResponse(statusCode: 200, headers: headers, body: body, url: request.url)
    }
}

/// `--filter "pipeline"`: the client's own work per request, with no network (a transport that
/// answers at once), against decoding the same body with `JSONDecoder()`: what Prism adds.
func pipelineBenchmark() async throws -> [Result] {
    guard selected("pipeline") else { return [] }
    let server = try await PrismTestServer.start()
    let body = try await PrismNetworkAdapter(cache: nil).send(PrismHTTPRequest(url: server.url("/json/1024"))).body
    try await server.shutdown()
    let client = PrismNetworkAdapter(transport: CannedTransport(body: body), cache: nil)
    let request = DocumentRequest(endpoint: DocumentEndpoint(port: 8080))
    let count = 20_000
    var throughClient: [Double] = []
    var decode: [Double] = []
    for _ in 0..<7 {
        var start = ContinuousClock.now
        for _ in 0..<count { blackHole(try await client.request(on: request)) }
        throughClient.append((ContinuousClock.now - start).nanoseconds / Double(count))
        start = ContinuousClock.now
        for _ in 0..<count { blackHole(try JSONDecoder().decode(Document.self, from: body)) }
        decode.append((ContinuousClock.now - start).nanoseconds / Double(count))
    }
    let (timing, baseline) = pairedTimings(throughClient, against: decode)
    return [
        Result(
            name: "request(on:) through a transport that answers at once",
            timing: timing, baselineName: "JSONDecoder() of the same 1 KB", baseline: baseline, bar: .none)
    ]
}

/// `--filter "post layers"`: the GraphQL benchmark's POST, layer by layer, at concurrency 16,
/// against raw AsyncHTTPClient with no decoding: raw AsyncHTTPClient through a client that
/// decompresses (as the transport's does), raw AsyncHTTPClient + `JSONDecoder()`, the transport
/// alone, the client's `send(_:)`, and `request(on:)`. `PRISM_LAYERS` picks some of them by
/// position (`PRISM_LAYERS=0,2,5`). Informational.
func postLayerBenchmarks() async throws -> [Result] {
    #if AsyncHTTPClient && os(Linux)
    guard benchmarkFilter == "post layers" else { return [] }
    let server = try TestServerProcess()
    defer { server.stop() }
    let body = try GraphQLBenchmarkOperation.body()
    let raw = rawGraphQLPost(to: server, body: body)
    var settings = HTTPClient.Configuration()
    settings.decompression = .enabled(limit: .none)
    settings.redirectConfiguration = .disallow
    let decompressing = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    var plain = PrismHTTPRequest(url: server.url("/graphql"), method: .post)
    plain.headers["Content-Type"] = "application/json"
    plain.headers["Accept"] = "application/json"
    plain.body = body
    let post = plain
    let request = GraphQLBenchmarkRequest(
        endpoint: GraphQLBenchmarkEndpoint(port: server.baseURL.port, payload: body))
    let transport = PrismAsyncHTTPClientTransport()
    let client = PrismNetworkAdapter(transport: transport, cache: nil)
    let contenders = [
        LoadContender(name: "raw AHC POST, no decoding") {
            let response = try await HTTPClient.shared.execute(raw, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
        },
        LoadContender(name: "raw AHC POST, decompressing client") {
            let response = try await decompressing.execute(raw, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
        },
        LoadContender(name: "raw AHC POST + JSONDecoder()") {
            let response = try await HTTPClient.shared.execute(raw, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            _ = try JSONDecoder().decode(GraphQLBenchmarkEnvelope.self, from: Data(bytes.readableBytesView))
        },
        LoadContender(name: "transport.send") { _ = try await transport.send(post) },
        LoadContender(name: "client.send") { _ = try await client.send(post) },
        LoadContender(name: "request(on:)") { _ = try await client.request(on: request) },
    ]
    // `PRISM_LAYERS=0,2,5` runs only those contenders (by position; the first is the baseline).
    let picked = ProcessInfo.processInfo.environment["PRISM_LAYERS"].map {
        $0.split(separator: ",").compactMap { Int($0) }.filter { contenders.indices.contains($0) }
    }
    let chosen = picked.map { $0.map { contenders[$0] } } ?? contenders
    let results = try await compareUnderLoad(
        "GetUser POST", concurrencies: [16], chosen, rate: 0, cpu: .infinity, p99: .infinity)
    try await decompressing.shutdown()
    return results
    #else
    return []
    #endif
}

/// `--filter "layers"`: where the client's cost is, layer by layer, against raw AsyncHTTPClient
/// with no decoding: the transport alone (`send(_:)` of ``PrismAsyncHTTPClientTransport``), the
/// client's `send(_:)` (the pipeline, no decoding), and `request(on:)`. Informational.
func clientLayerBenchmarks() async throws -> [Result] {
    #if AsyncHTTPClient && os(Linux)
    guard let filter = benchmarkFilter, "layers".contains(filter) else { return [] }
    let server = try TestServerProcess()
    defer { server.stop() }
    let url = server.url("/json/1024").absoluteString
    let plain = PrismHTTPRequest(url: server.url("/json/1024"))
    let request = DocumentRequest(endpoint: DocumentEndpoint(port: server.baseURL.port))
    let transport = PrismAsyncHTTPClientTransport()
    let client = PrismNetworkAdapter(transport: transport, cache: nil)
    let contenders = [
        LoadContender(name: "raw AHC, no decoding") {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
        },
        LoadContender(name: "transport.send") { _ = try await transport.send(plain) },
        LoadContender(name: "client.send") { _ = try await client.send(plain) },
        LoadContender(name: "request(on:)") { _ = try await client.request(on: request) },
    ]
    return try await compareUnderLoad(
        "1 KB GET", concurrencies: [1, 16], contenders, rate: 0, cpu: .infinity, p99: .infinity)
    #else
    return []
    #endif
}

/// `--filter "graphql"`: `PrismGraphQLClient.execute` of a query against what a user writes
/// without PrismGraphQL: a POST of the same body with raw AsyncHTTPClient, decoded with
/// `JSONDecoder()`, at concurrency 1, 16 and 64, the server in its own process. Bars: as the
/// client's.
func graphQLLoadBenchmarks() async throws -> [Result] {
    #if AsyncHTTPClient && os(Linux)
    guard selected("graphql") else { return [] }
    let server = try TestServerProcess()
    defer { server.stop() }
    let query = GraphQLBenchmarkOperation.query
    let adapter = PrismNetworkAdapter(cache: nil)
    let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: adapter, cache: nil)
    let body = try GraphQLBenchmarkOperation.body()
    let plain = GraphQLBenchmarkRequest(
        endpoint: GraphQLBenchmarkEndpoint(port: server.baseURL.port, payload: body))
    let raw = rawGraphQLPost(to: server, body: body)
    let contenders = [
        LoadContender(name: "raw AHC POST + JSONDecoder()") {
            let response = try await HTTPClient.shared.execute(raw, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let envelope = try JSONDecoder().decode(GraphQLBenchmarkEnvelope.self, from: Data(bytes.readableBytesView))
            precondition(envelope.data?.user?.publicRepos == 8)
        },
        LoadContender(name: "graphql.execute") {
            let result = try await graphql.execute(query, as: GraphQLBenchmarkData.self)
            precondition(result.data?.user?.publicRepos == 8)
        },
        // The same POST through PrismHTTP alone: what of the difference is PrismGraphQL's.
        LoadContender(name: "PrismHTTP request(on:) POST") {
            let envelope = try await adapter.request(on: plain)
            precondition(envelope.data?.user?.publicRepos == 8)
        },
    ]
    return try await compareUnderLoad(
        "GetUser query", concurrencies: [1, 16, 64], contenders, rate: 0.97, cpu: 1.05, p99: 1.1)
    #else
    return []
    #endif
}

/// `--filter "stream"`: a 100 MB body read through `client.stream(_:)` against raw AsyncHTTPClient
/// reading the same body, the server in its own process: throughput (bar: at least 0.97x) and
/// CPU per byte (bar: at most 1.05x).
func streamLoadBenchmarks() async throws -> [Result] {
    #if AsyncHTTPClient && os(Linux)
    guard selected("stream") else { return [] }
    let server = try TestServerProcess()
    defer { server.stop() }
    let size = 100 << 20
    let url = server.url("/large/\(size)")
    let client = PrismNetworkAdapter(cache: nil)
    let contenders = [
        LoadContender(name: "raw AHC streaming") {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: url.absoluteString), timeout: .seconds(60))
            var total = 0
            for try await buffer in response.body { total += buffer.readableBytes }
            precondition(total == size, "read \(total) bytes of \(size)")
        },
        LoadContender(name: "client.stream") {
            let response = try await client.stream(PrismHTTPRequest(url: url))
            var total = 0
            for try await chunk in response.body { total += chunk.count }
            precondition(total == size, "streamed \(total) bytes of \(size)")
        },
    ]
    let measured = try await loadRounds(rounds: 15, total: 2, concurrency: 1, contenders)
    return loadResults(
        "100 MB body", concurrency: 1, contenders: contenders, rounds: measured, rate: 0.97, cpu: 1.05,
        p99: .infinity)
    #else
    return []
    #endif
}

/// `--filter "graphql pipeline"`: `graphql.execute` with no network (a transport that answers at
/// once with the server's answer), against decoding the same answer with `JSONDecoder()`: what
/// PrismGraphQL and PrismHTTP add to a query. Informational.
func graphQLPipelineBenchmark() async throws -> [Result] {
    guard let filter = benchmarkFilter, "graphql pipeline".contains(filter) else { return [] }
    let server = try await PrismTestServer.start()
    let body = try GraphQLBenchmarkOperation.body()
    var post = PrismHTTPRequest(url: server.url("/graphql"), method: .post, body: body)
    post.headers["Content-Type"] = "application/json"
    post.headers["Accept"] = "application/json"
    let answer = try await PrismNetworkAdapter(cache: nil).send(post).body
    try await server.shutdown()
    let canned = PrismNetworkAdapter(transport: CannedTransport(body: answer), cache: nil)
    let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: canned, cache: nil)
    let query = GraphQLBenchmarkOperation.query
    let request = GraphQLBenchmarkRequest(
        endpoint: GraphQLBenchmarkEndpoint(port: server.baseURL.port, payload: body))
    let count = 20_000
    var executed: [Double] = []
    var requested: [Double] = []
    var sent: [Double] = []
    var decoded: [Double] = []
    for _ in 0..<7 {
        var start = ContinuousClock.now
        for _ in 0..<count { blackHole(try await graphql.execute(query, as: GraphQLBenchmarkData.self)) }
        executed.append((ContinuousClock.now - start).nanoseconds / Double(count))
        start = ContinuousClock.now
        for _ in 0..<count { blackHole(try await canned.request(on: request)) }
        requested.append((ContinuousClock.now - start).nanoseconds / Double(count))
        start = ContinuousClock.now
        for _ in 0..<count { blackHole(try await canned.send(post)) }
        sent.append((ContinuousClock.now - start).nanoseconds / Double(count))
        start = ContinuousClock.now
        for _ in 0..<count { blackHole(try JSONDecoder().decode(GraphQLBenchmarkEnvelope.self, from: answer)) }
        decoded.append((ContinuousClock.now - start).nanoseconds / Double(count))
    }
    let baselineName = "JSONDecoder() of the same answer"
    return [
        ("graphql.execute through a transport that answers at once", executed),
        ("PrismHTTP request(on:) POST through a transport that answers at once", requested),
        ("PrismHTTP send(_:) POST through a transport that answers at once (no decoding)", sent),
    ].map { name, timings in
        let (timing, baseline) = pairedTimings(timings, against: decoded)
        return Result(name: name, timing: timing, baselineName: baselineName, baseline: baseline, bar: .none)
    }
}
