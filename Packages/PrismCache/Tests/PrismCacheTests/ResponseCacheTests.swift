import Foundation
import PrismCache
import Testing

/// A clock the test moves by hand, so that expiry needs no waiting.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) { lock.withLock { current = current.advanced(by: duration) } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}

func entry(_ text: String, ttl: Duration = .seconds(60), headers: [String: String] = [:]) -> PrismCacheEntry {
    PrismCacheEntry(data: Data(text.utf8), statusCode: 200, headers: headers, ttl: ttl)
}

@Suite("Response cache")
struct ResponseCacheTests {
    @Test("the seed's example: set, get, invalidate, clear")
    func seedExample() async {
        let responseData = Data(#"{"login":"octocat"}"#.utf8)
        let cache = PrismResponseCache(maxSize: 200)

        // Store a response
        let entry = PrismCacheEntry(
            data: responseData,
            statusCode: 200,
            ttl: .seconds(300)
        )
        await cache.set(entry, for: "github/users/octocat")

        // Retrieve — returns nil if expired or missing
        let cached = await cache.get(for: "github/users/octocat")
        #expect(cached?.data == responseData)
        #expect(await cache.get(for: "github/users/missing") == nil)

        // Invalidate a specific key
        await cache.invalidate(key: "github/users/octocat")
        #expect(await cache.get(for: "github/users/octocat") == nil)

        // Clear everything
        await cache.set(entry, for: "a")
        await cache.clear()
        #expect(await cache.count == 0)
        #expect(await cache.totalBytes == 0)
    }

    @Test("an entry past its time to live is not returned, but stays as stale for revalidation")
    func expiry() async {
        let clock = ManualClock()
        let cache = PrismResponseCache(maxSize: 10, clock: clock)
        await cache.set(entry("v1", ttl: .seconds(5), headers: ["ETag": "\"1\""]), for: "k")
        clock.advance(by: .seconds(4))
        #expect(await cache.get(for: "k") != nil)
        clock.advance(by: .seconds(1))
        #expect(await cache.get(for: "k") == nil)
        let lookup = await cache.lookup("k")
        guard case .stale(let stale) = lookup else {
            Issue.record("expected a stale entry, got \(lookup)")
            return
        }
        #expect(stale.etag == "\"1\"")
    }

    @Test("expiry works on the real clock too")
    func expiryOnContinuousClock() async throws {
        let cache = PrismResponseCache(maxSize: 10)
        await cache.set(entry("short", ttl: .milliseconds(30)), for: "k")
        #expect(await cache.get(for: "k") != nil)
        try await Task.sleep(for: .milliseconds(60))
        #expect(await cache.get(for: "k") == nil)
    }

    @Test("refresh after a 304 makes a stale entry fresh and merges headers")
    func refreshAfterNotModified() async {
        let clock = ManualClock()
        let cache = PrismResponseCache(maxSize: 10, clock: clock)
        await cache.set(entry("body", ttl: .seconds(1), headers: ["ETag": "\"a\"", "Date": "old"]), for: "k")
        clock.advance(by: .seconds(2))
        #expect(await cache.get(for: "k") == nil)
        let refreshed = await cache.refresh(key: "k", headers: ["date": "new"], ttl: .seconds(10))
        #expect(refreshed?.header("Date") == "new")
        #expect(refreshed?.headers.count == 2)
        #expect(await cache.get(for: "k")?.data == Data("body".utf8))
        #expect(await cache.refresh(key: "missing") == nil)
    }

    @Test("the least recently used entry is evicted first")
    func lruEviction() async {
        let cache = PrismResponseCache(maxSize: 3)
        for key in ["a", "b", "c"] { await cache.set(entry(key), for: key) }
        _ = await cache.get(for: "a")  // a is now the most recent
        await cache.set(entry("d"), for: "d")  // evicts b
        #expect(await cache.get(for: "b") == nil)
        #expect(await cache.keysByRecency == ["d", "a", "c"])
        await cache.set(entry("c2"), for: "c")  // replacing keeps the count
        #expect(await cache.count == 3)
        #expect(await cache.keysByRecency.first == "c")
    }

    @Test("a byte budget counts bodies, headers and keys, and refuses an entry larger than the budget")
    func byteLimit() async {
        let cache = PrismResponseCache(maxSize: 100, maxBytes: 12)
        await cache.set(entry("12345"), for: "a")  // 5 + key 1
        await cache.set(entry("12345"), for: "b")
        #expect(await cache.totalBytes == 12)
        await cache.set(entry("123"), for: "c")
        #expect(await cache.get(for: "a") == nil)
        #expect(await cache.totalBytes == 10)
        await cache.set(entry("123456789012"), for: "b")  // 13 with its key: refused, old b removed
        #expect(await cache.get(for: "b") == nil)
        #expect(await cache.totalBytes == 4)
        // Headers count: 1 + "X" + 8 + key = 11, which leaves no room for c.
        await cache.set(entry("1", headers: ["X": "12345678"]), for: "d")
        #expect(await cache.get(for: "c") == nil)
        #expect(await cache.totalBytes == 11)
        #expect(await cache.count == 1)
    }

    @Test("a cache made without a budget still has one: 32 MiB")
    func defaultBudget() async {
        let cache = PrismResponseCache(maxSize: 500)
        #expect(cache.maxBytes == PrismResponseCache.defaultMaxBytes)
        #expect(PrismResponseCache.defaultMaxBytes == 32 * 1_024 * 1_024)
        let huge = PrismCacheEntry(
            data: Data(count: PrismResponseCache.defaultMaxBytes), statusCode: 200, ttl: .seconds(60))
        await cache.set(huge, for: "huge")
        #expect(await cache.count == 0)
        #expect(await cache.totalBytes == 0)
    }

    @Test("a refresh that adds headers is held to the budget too")
    func refreshKeepsBudget() async {
        let cache = PrismResponseCache(maxSize: 100, maxBytes: 20)
        await cache.set(entry("12345"), for: "a")
        await cache.set(entry("12345"), for: "b")
        await cache.refresh(key: "b", headers: ["ETag": "\"123\""])
        #expect(await cache.totalBytes <= 20)
        #expect(await cache.get(for: "b")?.etag == "\"123\"")
        #expect(await cache.get(for: "a") == nil)
    }

    @Test("removeAll empties the cache, as an app does when its user signs out")
    func removeAll() async {
        let cache = PrismResponseCache(maxSize: 10)
        for key in ["me", "me/settings", "feed"] { await cache.set(entry(key), for: key) }
        await cache.removeAll()
        #expect(await cache.count == 0)
        #expect(await cache.totalBytes == 0)
        #expect(await cache.lookup("me") == .miss)
    }

    @Test("many keys keep counts and recency consistent", arguments: [1, 7, 100])
    func manyOperations(maxSize: Int) async {
        let cache = PrismResponseCache(maxSize: maxSize)
        for index in 0..<1_000 {
            await cache.set(entry("\(index)"), for: "k\(index % 150)")
            if index % 3 == 0 { await cache.invalidate(key: "k\((index * 7) % 150)") }
        }
        let count = await cache.count
        #expect(count <= maxSize)
        #expect(await cache.keysByRecency.count == count)
        #expect(Set(await cache.keysByRecency).count == count)
    }
}

@Suite("Removing entries by a test of their keys")
struct RemoveWhereTests {
    @Test("removeAll(where:) drops exactly the entries whose keys pass, and frees their bytes")
    func removesMatching() async {
        let cache = PrismResponseCache(maxSize: 100, maxBytes: 1_000_000)
        for index in 0..<50 {
            await cache.set(
                entry("body \(index)"), for: index.isMultiple(of: 2) ? "GET /even/\(index)" : "GET /odd/\(index)")
        }
        let before = await cache.totalBytes
        await cache.removeAll { $0.hasPrefix("GET /even/") }
        #expect(await cache.count == 25)
        #expect(await cache.keysByRecency.allSatisfy { $0.hasPrefix("GET /odd/") })
        #expect(await cache.totalBytes < before)
        await cache.removeAll { _ in false }
        #expect(await cache.count == 25)
    }
}
