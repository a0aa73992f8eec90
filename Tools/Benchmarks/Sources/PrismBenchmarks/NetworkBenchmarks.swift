// Network benchmarks (issues 21 and 27; the client under load is in LoadBenchmarks.swift): a
// cache hit (bar: 200x the network), a cache hit against the network, and the response cache against a dictionary; issue 28's disk hit (bar: a
// 10 KB response read from the cache's folder at least 10x faster than over the network).
// `--filter "cache hit"`, `--filter "disk hit"` or `--filter "cache get/set"` runs one of the
// cache figures alone (to profile it).
import Foundation
import PrismNetwork
import PrismTestServer

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
#endif

/// A ~1 KB JSON document, as the test server's `/json/1024` serves it.
struct Document: PrismEntity {
    var id: Int
    var name: String
    var items: [String]
}

struct DocumentEndpoint: PrismNetworkEndpoint {
    let port: Int?
    var scheme: PrismNetworkScheme { .http }
    var host: String { "127.0.0.1" }
    var path: String { "/json/1024" }
}

struct DocumentRequest: PrismNetworkRequest {
    typealias Response = Document
    let endpoint: DocumentEndpoint
}

/// Requests per second of `operation`, run `total` times by `concurrency` workers.
func requestsPerSecond(total: Int, concurrency: Int, _ operation: @escaping @Sendable () async throws -> Void)
    async throws -> Double
{
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
            let share = total / concurrency + (worker < total % concurrency ? 1 : 0)
            group.addTask {
                for _ in 0..<share { try await operation() }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = ContinuousClock.now - start
    return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

/// Median of `rounds` alternate measurements of `candidate` and `baseline`, in requests per second.
func pairedRate(
    rounds: Int,
    total: Int,
    concurrency: Int,
    candidate: @escaping @Sendable () async throws -> Void,
    baseline: @escaping @Sendable () async throws -> Void
) async throws -> (candidate: Double, baseline: Double) {
    var candidates: [Double] = []
    var baselines: [Double] = []
    _ = try await requestsPerSecond(total: total / 4, concurrency: concurrency, candidate)
    _ = try await requestsPerSecond(total: total / 4, concurrency: concurrency, baseline)
    for _ in 0..<rounds {
        candidates.append(try await requestsPerSecond(total: total, concurrency: concurrency, candidate))
        baselines.append(try await requestsPerSecond(total: total, concurrency: concurrency, baseline))
    }
    return (candidates.sorted()[rounds / 2], baselines.sorted()[rounds / 2])
}

@MainActor
func networkBenchmarks() async throws -> [Result] {
    var results: [Result] = []
    guard
        selected("cache hit") || selected("cache get/set") || selected("hit loop")
            || selected("disk hit")
    else {
        return results
    }
    let server = try await PrismTestServer.start()
    defer { Task { try? await server.shutdown() } }
    let request = DocumentRequest(endpoint: DocumentEndpoint(port: server.port))
    let client = PrismNetworkAdapter(cache: nil)

    if selected("cache hit") {
        let cachingClient = PrismNetworkAdapter()
        let cached = DocumentRequest(endpoint: DocumentEndpoint(port: server.port))
        // /json/1024 sends no cache headers: cache it for the endpoint's sake with a policy.
        _ = try await cachingClient.request(on: cached, options: PrismRequestOptions(cachePolicy: .networkOnly))
        let cacheRequest = CachedDocumentRequest(endpoint: CachedDocumentEndpoint(port: server.port))
        _ = try await cachingClient.request(on: cacheRequest)
        let (hit, network) = try await pairedRate(
            rounds: 5,
            total: 2_000,
            concurrency: 1,
            candidate: { _ = try await cachingClient.request(on: cacheRequest) },
            baseline: { _ = try await client.request(on: request) }
        )
        results.append(
            Result(
                name: "cache hit through the client (1 KB JSON, decoded)",
                timing: Timing(nanosecondsPerOperation: 1e9 / hit),
                baselineName: "the same request over the network",
                baseline: Timing(nanosecondsPerOperation: 1e9 / network),
                bar: .atMostRatio(1.0 / 200),
                note: String(format: "%.1fx faster", hit / network)
            )
        )
    }
    if selected("disk hit") {
        results.append(try await diskHitBenchmark(port: server.port))
    }
    if selected("cache get/set") {
        results += try await cacheStructureBenchmarks()
    }
    // `--filter "hit loop"`: cache hits only, 300,000 of them, to profile (`perf record`); no figure.
    if selected("hit loop") {
        let cachingClient = PrismNetworkAdapter()
        let cacheRequest = CachedDocumentRequest(endpoint: CachedDocumentEndpoint(port: server.port))
        _ = try await cachingClient.request(on: cacheRequest)
        // Off the main actor, as the paired figure runs: no hop per hit but the client's own.
        let elapsed = try await Task.detached {
            let start = ContinuousClock.now
            for _ in 0..<300_000 { _ = try await cachingClient.request(on: cacheRequest) }
            return ContinuousClock.now - start
        }.value
        print(
            String(
                format: "hit loop: %.0f ns per hit",
                Double(elapsed.components.attoseconds / 300_000) / 1e9
                    + Double(elapsed.components.seconds) * 1e9 / 300_000))
    }
    return results
}

struct CachedDocumentEndpoint: PrismNetworkEndpoint {
    let port: Int?
    var scheme: PrismNetworkScheme { .http }
    var host: String { "127.0.0.1" }
    var path: String { "/json/1024" }
    var cacheInterval: TimeInterval? { 3_600 }
}

struct CachedDocumentRequest: PrismNetworkRequest {
    typealias Response = Document
    let endpoint: CachedDocumentEndpoint
}

/// 10 KB of JSON, kept as bytes (no decoding), fresh for an hour: `/json/10240?copy=<copy>`.
struct TenKilobyteEndpoint: PrismNetworkEndpoint {
    let port: Int?
    let copy: String
    var scheme: PrismNetworkScheme { .http }
    var host: String { "127.0.0.1" }
    var path: String { "/json/10240" }
    var queryItems: [URLQueryItem]? { [URLQueryItem(name: "copy", value: copy)] }
    var cacheInterval: TimeInterval? { 3_600 }
}

struct TenKilobyteRequest: PrismNetworkRequest {
    typealias Response = Data
    let endpoint: TenKilobyteEndpoint
}

/// A hit read from the cache's folder, not from memory: a cache that holds one entry in memory
/// and two on disk, read in turn, so that every read finds the other one on disk. The baseline
/// is the same request over the network (loopback), without a cache.
func diskHitBenchmark(port: Int?) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("prism-disk-hit-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = try PrismResponseCache(maxSize: 1, directory: folder)
    let client = PrismNetworkAdapter(cache: cache)
    let network = PrismNetworkAdapter(cache: nil)
    let first = TenKilobyteRequest(endpoint: TenKilobyteEndpoint(port: port, copy: "a"))
    let second = TenKilobyteRequest(endpoint: TenKilobyteEndpoint(port: port, copy: "b"))
    _ = try await client.request(on: first)
    _ = try await client.request(on: second)
    guard await cache.diskCount == 2, await cache.count == 1 else {
        throw BenchmarkError("the disk hit benchmark expected two entries on disk and one in memory")
    }
    let turn = LockedCounter()
    let (hit, fetched) = try await pairedRate(
        rounds: 5,
        total: 2_000,
        concurrency: 1,
        candidate: { _ = try await client.request(on: turn.next() % 2 == 0 ? first : second) },
        baseline: { _ = try await network.request(on: first) }
    )
    guard await cache.count == 1 else {
        throw BenchmarkError("the disk hit benchmark's memory held more than one entry")
    }
    return Result(
        name: "disk hit through the client (10 KB, not in memory)",
        timing: Timing(nanosecondsPerOperation: 1e9 / hit),
        baselineName: "the same request over the network",
        baseline: Timing(nanosecondsPerOperation: 1e9 / fetched),
        bar: .atMostRatio(1.0 / 10),
        note: String(format: "%.1fx faster", hit / fetched)
    )
}

/// A counter many tasks may bump.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// A dictionary guarded by an actor: the baseline for the cache's get and set.
actor DictionaryCache {
    private var storage: [String: PrismCacheEntry] = [:]

    func set(_ entry: PrismCacheEntry, for key: String) { storage[key] = entry }
    func get(for key: String) -> PrismCacheEntry? { storage[key] }
}

/// Runs `body` inside the actor that owns the cache, so that the figure is the data
/// structure's cost and not the cost of hopping onto the actor.
extension PrismResponseCache {
    func run(_ body: @Sendable (isolated PrismResponseCache) -> Void) { body(self) }
}

extension DictionaryCache {
    func run(_ body: @Sendable (isolated DictionaryCache) -> Void) { body(self) }
}

func cacheStructureBenchmarks() async throws -> [Result] {
    var results: [Result] = []
    let entry = PrismCacheEntry(data: Data(count: 64), statusCode: 200, ttl: .seconds(3_600))
    for size in [10_000, 1_000_000] {
        let keys = (0..<size).map { "https://api.example.com/items/\($0)" }
        let cache = PrismResponseCache(maxSize: size)
        let dictionary = DictionaryCache()
        let operations = 1_000_000
        var lru = Timing(nanosecondsPerOperation: 0)
        var plain = Timing(nanosecondsPerOperation: 0)
        await cache.run { cache in for key in keys { cache.set(entry, for: key) } }
        await dictionary.run { dictionary in for key in keys { dictionary.set(entry, for: key) } }
        var lruSamples: [Double] = []
        var plainSamples: [Double] = []
        for _ in 0..<5 {
            var start = ContinuousClock.now
            await cache.run { cache in
                for index in 0..<operations {
                    let key = keys[(index &* 7_919) % size]
                    if index & 7 == 0 { cache.set(entry, for: key) } else { _ = cache.get(for: key) }
                }
            }
            lruSamples.append((ContinuousClock.now - start).nanoseconds / Double(operations))
            start = ContinuousClock.now
            await dictionary.run { dictionary in
                for index in 0..<operations {
                    let key = keys[(index &* 7_919) % size]
                    if index & 7 == 0 { dictionary.set(entry, for: key) } else { _ = dictionary.get(for: key) }
                }
            }
            plainSamples.append((ContinuousClock.now - start).nanoseconds / Double(operations))
        }
        lru = Timing(nanosecondsPerOperation: lruSamples.sorted()[2])
        plain = Timing(nanosecondsPerOperation: plainSamples.sorted()[2])
        results.append(
            Result(
                name: "PrismResponseCache get/set (1:7), \(size) entries",
                timing: lru,
                baselineName: "[String: Entry] in an actor",
                baseline: plain,
                bar: .atMostRatio(2)
            )
        )
    }
    return results
}
