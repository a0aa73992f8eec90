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
/// is not stored at all. An entry past its time to live is not returned by ``get(for:)`` but
/// stays, as ``PrismCacheLookup/stale(_:)``, until it is evicted, so that a client can revalidate
/// it with its `ETag` or `Last-Modified`.
///
/// The cache lives in memory, for the life of the value. Call ``removeAll()`` when the user signs
/// out, so that nothing of theirs is kept, even for a request that would never be served it.
public actor PrismResponseCache {
    private struct Stored {
        var entry: PrismCacheEntry
        /// When the entry was stored (or last revalidated), on the cache's clock.
        var storedAt: Duration
        /// What the entry counts against `maxBytes`, its key included.
        var cost: Int
    }

    /// The byte budget of a cache made without one: 32 MiB.
    public static let defaultMaxBytes = 32 * 1_024 * 1_024

    /// The most entries the cache holds.
    public nonisolated let maxSize: Int
    /// The most bytes the cache holds (``PrismCacheEntry/cost`` of every entry, and its key);
    /// `nil` only when the cache was made with `maxBytes: nil` explicitly, which leaves memory
    /// unbounded but by `maxSize`.
    public nonisolated let maxBytes: Int?

    private var storage = LRUStorage<String, Stored>()
    private var bytes = 0
    private let now: @Sendable () -> Duration

    /// Creates an empty cache that holds at most `maxSize` entries and `maxBytes` bytes
    /// (``defaultMaxBytes`` unless given), measuring time to live on the continuous clock.
    ///
    /// - Precondition: `maxSize` is at least 1, and `maxBytes`, if not nil, at least 1.
    public init(maxSize: Int, maxBytes: Int? = PrismResponseCache.defaultMaxBytes) {
        self.init(maxSize: maxSize, maxBytes: maxBytes, clock: ContinuousClock())
    }

    /// Creates an empty cache whose time to live is measured on `clock`.
    ///
    /// A test can pass a clock it controls to expire entries without waiting.
    public init<C: Clock>(maxSize: Int, maxBytes: Int? = PrismResponseCache.defaultMaxBytes, clock: C)
    where C.Duration == Duration {
        precondition(maxSize >= 1, "PrismResponseCache(maxSize:) needs room for at least one entry.")
        precondition(maxBytes.map { $0 >= 1 } ?? true, "PrismResponseCache(maxBytes:) must be at least 1 byte.")
        self.maxSize = maxSize
        self.maxBytes = maxBytes
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
    }

    /// The number of entries, fresh or stale.
    public var count: Int { storage.count }

    /// The bytes held: the ``PrismCacheEntry/cost`` of every entry, and its key.
    public var totalBytes: Int { bytes }

    /// Stores `entry` for `key` (replacing what was there) and evicts the least recently used
    /// entries past the limits.
    ///
    /// An entry larger than `maxBytes` is not stored (and any old entry for `key` is removed).
    public func set(_ entry: PrismCacheEntry, for key: String) {
        let cost = entry.cost + key.utf8.count
        if let maxBytes, cost > maxBytes {
            invalidate(key: key)
            return
        }
        if let old = storage.set(Stored(entry: entry, storedAt: now(), cost: cost), for: key) {
            bytes -= old.cost
        }
        bytes += cost
        while storage.count > maxSize || (maxBytes.map { bytes > $0 } ?? false) {
            guard let evicted = storage.removeLeastRecentlyUsed() else { break }
            bytes -= evicted.value.cost
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
        guard var stored = storage.peek(key) else { return nil }
        for (name, value) in headers {
            if let existing = stored.entry.headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                stored.entry.headers[existing] = nil
            }
            stored.entry.headers[name] = value
        }
        if let ttl { stored.entry.ttl = ttl }
        let entry = stored.entry
        // Stored again, so that the byte budget sees the new headers (and evicts if needed).
        set(entry, for: key)
        return storage.peek(key)?.entry
    }

    /// Removes the entry for `key`.
    public func invalidate(key: String) {
        if let removed = storage.remove(key) { bytes -= removed.cost }
    }

    /// Removes every entry: what an app does when its user signs out, so that no response of
    /// theirs stays in memory.
    public func removeAll() {
        storage.removeAll()
        bytes = 0
    }

    /// Removes every entry (the same as ``removeAll()``).
    public func clear() {
        removeAll()
    }

    /// The keys from most to least recently used.
    public var keysByRecency: [String] { storage.keysByRecency }
}
