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
/// Every operation is O(1). When the cache holds `maxSize` entries (or, with `maxBytes`, that
/// many bytes of bodies), storing another evicts the least recently used. An entry past its
/// time to live is not returned by ``get(for:)`` but stays, as ``PrismCacheLookup/stale(_:)``,
/// until it is evicted, so that a client can revalidate it with its `ETag` or `Last-Modified`.
public actor PrismResponseCache {
    private struct Stored {
        var entry: PrismCacheEntry
        /// When the entry was stored (or last revalidated), on the cache's clock.
        var storedAt: Duration
    }

    /// The most entries the cache holds.
    public let maxSize: Int
    /// The most bytes of response bodies the cache holds, if limited.
    public let maxBytes: Int?

    private var storage = LRUStorage<String, Stored>()
    private var bytes = 0
    private let now: @Sendable () -> Duration

    /// Creates an empty cache that holds at most `maxSize` entries and, if given, `maxBytes`
    /// bytes of bodies, measuring time to live on the continuous clock.
    ///
    /// - Precondition: `maxSize` is at least 1, and `maxBytes`, if given, at least 1.
    public init(maxSize: Int, maxBytes: Int? = nil) {
        self.init(maxSize: maxSize, maxBytes: maxBytes, clock: ContinuousClock())
    }

    /// Creates an empty cache whose time to live is measured on `clock`.
    ///
    /// A test can pass a clock it controls to expire entries without waiting.
    public init<C: Clock>(maxSize: Int, maxBytes: Int? = nil, clock: C) where C.Duration == Duration {
        precondition(maxSize >= 1, "PrismResponseCache(maxSize:) needs room for at least one entry.")
        precondition(maxBytes.map { $0 >= 1 } ?? true, "PrismResponseCache(maxBytes:) must be at least 1 byte.")
        self.maxSize = maxSize
        self.maxBytes = maxBytes
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
    }

    /// The number of entries, fresh or stale.
    public var count: Int { storage.count }

    /// The bytes of response bodies held.
    public var totalBytes: Int { bytes }

    /// Stores `entry` for `key` (replacing what was there) and evicts the least recently used
    /// entries past the limits.
    ///
    /// An entry larger than `maxBytes` is not stored (and any old entry for `key` is removed).
    public func set(_ entry: PrismCacheEntry, for key: String) {
        if let maxBytes, entry.cost > maxBytes {
            invalidate(key: key)
            return
        }
        if let old = storage.set(Stored(entry: entry, storedAt: now()), for: key) {
            bytes -= old.entry.cost
        }
        bytes += entry.cost
        while storage.count > maxSize || (maxBytes.map { bytes > $0 } ?? false) {
            guard let evicted = storage.removeLeastRecentlyUsed() else { break }
            bytes -= evicted.value.entry.cost
        }
    }

    /// The entry for `key` if it is still fresh, else nil (expired or missing).
    public func get(for key: String) -> PrismCacheEntry? {
        if case .fresh(let entry) = lookup(key) { return entry }
        return nil
    }

    /// What the cache holds for `key`: fresh, stale (past its time to live, kept for
    /// revalidation) or nothing. Marks the entry most recently used.
    public func lookup(_ key: String) -> PrismCacheLookup {
        guard let stored = storage.value(for: key) else { return .miss }
        return now() - stored.storedAt < stored.entry.ttl ? .fresh(stored.entry) : .stale(stored.entry)
    }

    /// Marks the entry for `key` fresh again, as after a `304 Not Modified`: its time to live
    /// starts over, `ttl` replaces it if given, and `headers` are merged into it. Returns the
    /// refreshed entry, or nil when nothing is cached for `key`.
    @discardableResult
    public func refresh(key: String, headers: [String: String] = [:], ttl: Duration? = nil) -> PrismCacheEntry? {
        guard storage.peek(key) != nil else { return nil }
        let time = now()
        storage.update(key) { stored in
            for (name, value) in headers {
                if let existing = stored.entry.headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                    stored.entry.headers[existing] = nil
                }
                stored.entry.headers[name] = value
            }
            if let ttl { stored.entry.ttl = ttl }
            stored.storedAt = time
        }
        return storage.value(for: key)?.entry
    }

    /// Removes the entry for `key`.
    public func invalidate(key: String) {
        if let removed = storage.remove(key) { bytes -= removed.entry.cost }
    }

    /// Removes every entry.
    public func clear() {
        storage.removeAll()
        bytes = 0
    }

    /// The keys from most to least recently used.
    public var keysByRecency: [String] { storage.keysByRecency }
}
