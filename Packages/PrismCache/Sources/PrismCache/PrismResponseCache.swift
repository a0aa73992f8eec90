/// An in-memory cache of HTTP responses, with least-recently-used eviction and a time to live
/// per entry.
///
/// ```swift
/// let cache = PrismResponseCache(maxSize: 200)
///
/// let entry = PrismCacheEntry(data: responseData, statusCode: 200, ttl: .seconds(300))
/// await cache.set(entry, for: "github/users/octocat")
///
/// let cached = await cache.get(for: "github/users/octocat")  // nil if expired or missing
/// await cache.invalidate(key: "github/users/octocat")
/// await cache.clear()
/// ```
///
/// Every operation is O(1). The cache holds at most `maxSize` entries and `maxBytes` bytes
/// (``PrismCacheEntry/cost``, keys included; ``defaultMaxBytes``, 32 MiB, unless you say
/// otherwise): storing more evicts the least recently used, and an entry larger than `maxBytes`
/// is not stored at all. An entry past its time to live is not returned by ``get(for:)-(String)`` but
/// stays, as ``PrismCacheLookup/stale(_:)``, until it is evicted, so that a client can revalidate
/// it with its `ETag` or `Last-Modified`.
///
/// Beside an entry, the cache can keep one value decoded from its body
/// (``lookup(_:decodedBy:)``, ``keepDecoded(_:decodedBy:from:cost:for:)``), so that an HTTP
/// client serves a hit without decoding again. That value goes wherever the entry goes: replacing,
/// invalidating, evicting or removing the entry drops it, and its estimated size counts against
/// `maxBytes`.
///
/// Each operation reads the clock at most once. A caller that uses one key several times (look
/// up, then store, then invalidate) can make a ``PrismCacheKey`` once, so that the key is hashed
/// once, and pass it to the overloads that take one.
///
/// The cache lives in memory, for the life of the value. Call ``removeAll()`` when the user signs
/// out, so that nothing of theirs is kept, even for a request that would never be served it.
public actor PrismResponseCache {
    struct Stored {
        var entry: PrismCacheEntry
        /// When the entry stops being fresh: when it was stored (or last revalidated) plus its
        /// time to live, in nanoseconds on the cache's clock.
        var freshUntil: Int64
        /// What the entry counts against `maxBytes`: its own cost and its key's, and the
        /// decoded value's estimate when one is kept.
        var cost: Int
        /// The value decoded from `entry.data`, if a caller kept one.
        var decoded: DecodedValue?
    }

    /// The byte budget of a cache made without one: 32 MiB.
    public static let defaultMaxBytes = 32 * 1_024 * 1_024

    /// The most entries the cache holds.
    public nonisolated let maxSize: Int
    /// The most bytes the cache holds (``PrismCacheEntry/cost`` of every entry, its key, and the
    /// estimated size of a decoded value kept beside it); `nil` only when the cache was made with
    /// `maxBytes: nil` explicitly, which leaves memory unbounded but by `maxSize`.
    public nonisolated let maxBytes: Int?

    var storage = LRUStorage<PrismCacheKey, Stored>()
    var bytes = 0
    /// The cache's clock, in nanoseconds since an arbitrary start.
    let now: @Sendable () -> Int64

    /// Creates an empty cache that holds at most `maxSize` entries and `maxBytes` bytes
    /// (``defaultMaxBytes`` unless given), measuring time to live on the continuous clock.
    ///
    /// - Precondition: `maxSize` is at least 1, and `maxBytes`, if not nil, at least 1.
    public init(maxSize: Int, maxBytes: Int? = PrismResponseCache.defaultMaxBytes) {
        self.init(maxSize: maxSize, maxBytes: maxBytes, now: ContinuousNanoseconds.now)
    }

    /// Creates an empty cache whose time to live is measured on `clock`.
    ///
    /// A test can pass a clock it controls to expire entries without waiting.
    public init<C: Clock>(maxSize: Int, maxBytes: Int? = PrismResponseCache.defaultMaxBytes, clock: C)
    where C.Duration == Duration {
        let start = clock.now
        self.init(maxSize: maxSize, maxBytes: maxBytes, now: { start.duration(to: clock.now).clampedNanoseconds })
    }

    init(maxSize: Int, maxBytes: Int?, now: @escaping @Sendable () -> Int64) {
        precondition(maxSize >= 1, "PrismResponseCache(maxSize:) needs room for at least one entry.")
        precondition(maxBytes.map { $0 >= 1 } ?? true, "PrismResponseCache(maxBytes:) must be at least 1 byte.")
        self.maxSize = maxSize
        self.maxBytes = maxBytes
        self.now = now
    }

    /// The number of entries, fresh or stale.
    public var count: Int { storage.count }

    /// The bytes held: the ``PrismCacheEntry/cost`` of every entry, its key, and the estimated
    /// size of a decoded value kept beside it.
    public var totalBytes: Int { bytes }

    /// Stores `entry` for `key` (replacing what was there, and any value decoded from it) and
    /// evicts the least recently used entries past the limits.
    ///
    /// An entry larger than `maxBytes` is not stored (and any old entry for `key` is removed).
    public func set(_ entry: PrismCacheEntry, for key: String) {
        set(entry, for: PrismCacheKey(key))
    }

    /// Stores `entry` for `key`, like the `String`-keyed `set(_:for:)`, with a key hashed beforehand.
    public func set(_ entry: PrismCacheEntry, for key: PrismCacheKey) {
        let cost = entry.cost + key.string.utf8.count
        if let maxBytes, cost > maxBytes {
            invalidate(key: key)
            return
        }
        let stored = Stored(entry: entry, freshUntil: Self.freshUntil(now(), ttl: entry.ttl), cost: cost)
        if let old = storage.set(stored, for: key) {
            bytes -= old.cost
        }
        bytes += cost
        evictPastLimits()
    }

    /// The entry for `key` if it is still fresh, else nil (expired or missing).
    public func get(for key: String) -> PrismCacheEntry? {
        get(for: PrismCacheKey(key))
    }

    /// The entry for `key` if it is still fresh, like the `String`-keyed `get(for:)`, with a key hashed
    /// beforehand.
    public func get(for key: PrismCacheKey) -> PrismCacheEntry? {
        let now = now()
        return storage.withValue(for: key) { stored in now < stored.freshUntil ? stored.entry : nil } ?? nil
    }

    /// What the cache holds for `key`: fresh, stale (past its time to live, kept for
    /// revalidation) or nothing. Marks the entry most recently used.
    public func lookup(_ key: String) -> PrismCacheLookup {
        lookup(PrismCacheKey(key))
    }

    /// What the cache holds for `key`, like the `String`-keyed `lookup(_:)`, with a key hashed beforehand.
    public func lookup(_ key: PrismCacheKey) -> PrismCacheLookup {
        let now = now()
        return storage.withValue(for: key) { stored in
            now < stored.freshUntil ? .fresh(stored.entry) : .stale(stored.entry)
        } ?? .miss
    }

    /// Marks the entry for `key` fresh again, as after a `304 Not Modified`: its time to live
    /// starts over, `ttl` replaces it if given, and `headers` are merged into it. Returns the
    /// refreshed entry, or nil when nothing is cached for `key`.
    ///
    /// The body is unchanged, so a value decoded from it stays beside it.
    @discardableResult
    public func refresh(key: String, headers: [String: String] = [:], ttl: Duration? = nil) -> PrismCacheEntry? {
        refresh(key: PrismCacheKey(key), headers: headers, ttl: ttl)
    }

    /// Marks the entry for `key` fresh again, like the `String`-keyed `refresh(key:headers:ttl:)`, with a
    /// key hashed beforehand.
    @discardableResult
    public func refresh(key: PrismCacheKey, headers: [String: String] = [:], ttl: Duration? = nil)
        -> PrismCacheEntry?
    {
        guard var stored = storage.peek(key) else { return nil }
        for (name, value) in headers {
            if let existing = stored.entry.headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                stored.entry.headers[existing] = nil
            }
            stored.entry.headers[name] = value
        }
        if let ttl { stored.entry.ttl = ttl }
        stored.freshUntil = Self.freshUntil(now(), ttl: stored.entry.ttl)
        let decodedCost = stored.decoded?.cost ?? 0
        stored.cost = stored.entry.cost + key.string.utf8.count + decodedCost
        if let maxBytes, stored.cost > maxBytes {
            // The headers grew past the budget: without its decoded value, or not at all.
            stored.decoded = nil
            stored.cost -= decodedCost
            if stored.cost > maxBytes {
                invalidate(key: key)
                return nil
            }
        }
        // Stored again, as most recently used, so that the byte budget sees the new headers.
        if let old = storage.set(stored, for: key) { bytes -= old.cost }
        bytes += stored.cost
        evictPastLimits()
        return storage.peek(key)?.entry
    }

    /// Removes the entry for `key`, and any value decoded from it.
    public func invalidate(key: String) {
        invalidate(key: PrismCacheKey(key))
    }

    /// Removes the entry for `key`, like the `String`-keyed `invalidate(key:)`, with a key hashed beforehand.
    public func invalidate(key: PrismCacheKey) {
        if let removed = storage.remove(key) { bytes -= removed.cost }
    }

    /// Removes every entry, and every value decoded from one: what an app does when its user
    /// signs out, so that no response of theirs stays in memory.
    public func removeAll() {
        storage.removeAll()
        bytes = 0
    }

    /// Removes every entry (the same as ``removeAll()``).
    public func clear() {
        removeAll()
    }

    /// The keys from most to least recently used.
    public var keysByRecency: [String] { storage.keysByRecency.map(\.string) }

    /// When an entry stored at `now` with `ttl` stops being fresh (saturating, so that a huge time to
    /// live never wraps around into the past).
    static func freshUntil(_ now: Int64, ttl: Duration) -> Int64 {
        let (sum, overflow) = now.addingReportingOverflow(ttl.clampedNanoseconds)
        return overflow ? (ttl > .zero ? .max : .min) : sum
    }

    /// Evicts the least recently used entries while the cache holds more than `maxSize` entries
    /// or `maxBytes` bytes.
    func evictPastLimits() {
        while storage.count > maxSize || (maxBytes.map { bytes > $0 } ?? false) {
            guard let evicted = storage.removeLeastRecentlyUsed() else { break }
            bytes -= evicted.value.cost
        }
    }
}
