import Foundation
import PrismCache
import Testing

/// Two decodings, as an HTTP client would name them: by request type.
private enum First {}
private enum Second {}

private let first = ObjectIdentifier(First.self)
private let second = ObjectIdentifier(Second.self)

/// The key the tests keep a value beside.
private let key = PrismCacheKey("k")

/// Stores `stored` under `key` in `cache`, and keeps `value` beside it as `first` decoded it from
/// `source` (the stored body unless given), counting `cost` bytes.
private func store(
    _ stored: PrismCacheEntry, keeping value: any Sendable, cost: Int, decodedFrom source: Data? = nil,
    in cache: PrismResponseCache
) async {
    await cache.set(stored, for: key)
    await cache.keepDecoded(value, decodedBy: first, from: source ?? stored.data, cost: cost, for: key)
}

@Suite("Decoded values kept beside cached entries")
struct DecodedValueTests {
    @Test("a kept value is returned only to a lookup by the same decoding")
    func onlyToTheSameDecoding() async {
        let cache = PrismResponseCache(maxSize: 10)
        await store(entry("body"), keeping: "decoded", cost: 7, in: cache)
        let (lookup, decoded) = await cache.lookup(key, decodedBy: first)
        #expect(lookup == .fresh(entry("body")))
        #expect(decoded as? String == "decoded")
        #expect(await cache.lookup(key, decodedBy: second).decoded == nil)
        // Another decoding's value replaces it.
        await cache.keepDecoded(42, decodedBy: second, from: Data("body".utf8), cost: 8, for: key)
        #expect(await cache.lookup(key, decodedBy: first).decoded == nil)
        #expect(await cache.lookup(key, decodedBy: second).decoded as? Int == 42)
    }

    @Test("a value decoded from a body the entry no longer has is not kept")
    func notKeptForAnotherBody() async {
        let cache = PrismResponseCache(maxSize: 10)
        await store(entry("new"), keeping: "from old", cost: 8, decodedFrom: Data("old".utf8), in: cache)
        #expect(await cache.lookup(key, decodedBy: first).decoded == nil)
        await cache.keepDecoded("orphan", decodedBy: first, from: Data("x".utf8), cost: 6, for: PrismCacheKey("none"))
        #expect(await cache.count == 1)
    }

    @Test("replacing the entry drops the value, even when the new body has the same size")
    func droppedOnReplace() async {
        let cache = PrismResponseCache(maxSize: 10)
        await store(entry("v1"), keeping: "one", cost: 3, in: cache)
        await cache.set(entry("v2"), for: key)
        #expect(await cache.lookup(key, decodedBy: first).decoded == nil)
        #expect(await cache.totalBytes == 3)  // "v2" and the key "k"
    }

    @Test("invalidate, removeAll and eviction drop the value and the bytes it counted")
    func droppedWithTheEntry() async {
        let cache = PrismResponseCache(maxSize: 1)
        await store(entry("body"), keeping: "decoded", cost: 100, in: cache)
        #expect(await cache.totalBytes == 105)
        await cache.invalidate(key: "k")
        #expect(await cache.totalBytes == 0)
        #expect(await cache.lookup(key, decodedBy: first).lookup == .miss)

        await store(entry("body"), keeping: "decoded", cost: 100, in: cache)
        await cache.removeAll()
        #expect(await cache.totalBytes == 0)

        await store(entry("body"), keeping: "decoded", cost: 100, in: cache)
        await cache.set(entry("other"), for: "j")  // evicts k
        #expect(await cache.totalBytes == 6)
        await cache.set(entry("body"), for: key)
        #expect(await cache.lookup(key, decodedBy: first).decoded == nil)
    }

    @Test("a kept value counts against the byte budget: it evicts others, and is not kept if it cannot fit")
    func countedInTheBudget() async {
        let cache = PrismResponseCache(maxSize: 10, maxBytes: 40)
        await cache.set(entry("12345"), for: "a")  // 6 bytes
        await cache.set(entry("12345"), for: "b")  // 6 bytes
        let key = PrismCacheKey("b")
        await cache.keepDecoded("b", decodedBy: first, from: Data("12345".utf8), cost: 20, for: key)
        #expect(await cache.totalBytes == 32)
        #expect(await cache.lookup(key, decodedBy: first).decoded as? String == "b")
        await cache.keepDecoded("a", decodedBy: first, from: Data("12345".utf8), cost: 20, for: PrismCacheKey("a"))
        // a (26) and b (26) do not fit in 40: b, now the least recently used, is evicted.
        #expect(await cache.keysByRecency == ["a"])
        #expect(await cache.totalBytes == 26)
        await cache.keepDecoded(
            "too big", decodedBy: first, from: Data("12345".utf8), cost: 35, for: PrismCacheKey("a"))
        #expect(await cache.lookup(PrismCacheKey("a"), decodedBy: first).decoded as? String == "a")
        #expect(await cache.totalBytes == 26)
    }

    @Test("a refresh after a 304 keeps the value, since the body is the same")
    func keptThroughRefresh() async {
        let clock = ManualClock()
        let cache = PrismResponseCache(maxSize: 10, clock: clock)
        await store(
            entry("body", ttl: .seconds(1), headers: ["ETag": "\"1\""]), keeping: "decoded", cost: 10, in: cache)
        clock.advance(by: .seconds(2))
        let (stale, decoded) = await cache.lookup(key, decodedBy: first)
        #expect(stale == .stale(entry("body", ttl: .seconds(1), headers: ["ETag": "\"1\""])))
        #expect(decoded as? String == "decoded")
        await cache.refresh(key: key, headers: ["ETag": "\"1\""], ttl: .seconds(10))
        let (fresh, kept) = await cache.lookup(key, decodedBy: first)
        #expect(fresh.entry?.ttl == .seconds(10))
        #expect(kept as? String == "decoded")
    }

    @Test("a key hashed once and its string reach the same entry")
    func keysAgree() async {
        let cache = PrismResponseCache(maxSize: 10)
        await cache.set(entry("a"), for: "GET https://example.com/a")
        #expect(await cache.get(for: PrismCacheKey("GET https://example.com/a"))?.data == Data("a".utf8))
        await cache.set(entry("b"), for: PrismCacheKey("GET https://example.com/b"))
        #expect(await cache.get(for: "GET https://example.com/b")?.data == Data("b".utf8))
        #expect(PrismCacheKey("x") == PrismCacheKey("x"))
        #expect(PrismCacheKey("x") != PrismCacheKey("y"))
        #expect(Set([PrismCacheKey("x"), PrismCacheKey("x"), PrismCacheKey("y")]).count == 2)
        await cache.invalidate(key: PrismCacheKey("GET https://example.com/a"))
        #expect(await cache.keysByRecency == ["GET https://example.com/b"])
    }
}
