import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
/// Made with a folder, the cache also keeps every entry on disk, so that a relaunched app has
/// its responses (what the offline policies serve: ``PrismCachePolicy/networkFirst(maxStale:)``,
/// ``PrismCachePolicy/cacheOnly``):
///
/// ```swift
/// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "responses")
/// let cache = try PrismResponseCache(maxSize: 200, directory: folder, maxDiskBytes: 50_000_000)
/// ```
///
/// Memory then holds the most recently used entries and the folder all of them, up to
/// `maxDiskBytes`, least recently used out first. Each entry is one file, written to a temporary
/// file and renamed into place, so that a crash leaves the old entry or the new one; each file
/// carries an HMAC-SHA256 under a secret kept in the folder (`PrismCache.secret`), and a file
/// that fails it (torn, changed, or written by anyone without the secret) is removed, never
/// served. The folder must be the user's with mode 0700 (one the cache creates is), or the
/// initializer throws ``PrismCacheDirectoryError``; files are 0600, and the cache neither follows
/// a link nor waits on a FIFO planted under an entry's name.
///
/// What a file holds, in clear: the key (the method and URL, its query included: keep tokens out
/// of URLs, or use a cache in memory only, for responses to such requests), the status, the
/// response's fields but `Set-Cookie` (a cookie stays in memory), the values of the request
/// headers the response varies on (a credential's only as its SHA-256), and the body. A key holds
/// a digest of the request's credentials, never the credentials; a file's name is a digest of
/// its key. An entry read from disk is as old as the time since it was stored, by the wall clock.
/// One cache uses a folder at a time.
///
/// Call ``removeAll()`` when the user signs out: it empties memory and the folder, so that
/// nothing of theirs is kept, even for a request that would never be served it.
public actor PrismResponseCache {
    struct Stored {
        var entry: PrismCacheEntry
        /// When it was stored (or last revalidated), in nanoseconds on the cache's clock.
        var storedAt: Int64
        /// When the entry stops being fresh: when it was stored (or last revalidated) plus its
        /// time to live, in nanoseconds on the cache's clock.
        var freshUntil: Int64
        /// What the entry counts against `maxBytes`: its own cost and its key's, and the
        /// decoded value's estimate when one is kept.
        var cost: Int
        /// The value decoded from `entry.data`, if a caller kept one.
        var decoded: DecodedValue?

        /// The entry as a read at `now` returns it: with the time it has spent in the cache.
        func read(at now: Int64) -> PrismCacheEntry {
            var entry = self.entry
            entry.timeInCache = .nanoseconds(now > storedAt ? now - storedAt : 0)
            return entry
        }
    }

    /// The byte budget of a cache made without one: 32 MiB.
    public static let defaultMaxBytes = 32 * 1_024 * 1_024

    /// The byte budget of a folder given without one: 100 MiB.
    public static let defaultMaxDiskBytes = 100 * 1_024 * 1_024

    /// The most entries the cache holds.
    public nonisolated let maxSize: Int
    /// The most bytes the cache holds (``PrismCacheEntry/cost`` of every entry, its key, and the
    /// estimated size of a decoded value kept beside it); `nil` only when the cache was made with
    /// `maxBytes: nil` explicitly, which leaves memory unbounded but by `maxSize`.
    public nonisolated let maxBytes: Int?

    /// The entries and their bytes, behind a lock: the actor's methods and the synchronous reads
    /// of Prism's own clients (``lookupNow(_:decodedBy:)``, which spare a cache hit two hops onto
    /// the actor's executor and back) see one state.
    nonisolated let core: PrismLocked<CacheCore>
    /// The cache's clock, in nanoseconds since an arbitrary start.
    nonisolated let now: @Sendable () -> Int64
    /// The disk tier, when the cache was made with a folder.
    nonisolated let disk: DiskTier?
    /// The wall clock less the cache's clock, in nanoseconds, read once: the disk tier records
    /// times on the wall clock (`now() + wallOffset`), which carries over to the next launch.
    nonisolated let wallOffset: Int64

    /// The folder of the disk tier, or nil for a cache in memory only.
    public nonisolated var directory: URL? { disk?.directory }
    /// The most bytes the folder holds (the sizes of its entries' files), or nil for a cache in
    /// memory only.
    public nonisolated var maxDiskBytes: Int? { disk?.maxBytes }

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
        self.init(
            maxSize: maxSize, maxBytes: maxBytes, now: { DurationMath.nanoseconds(start.duration(to: clock.now)) })
    }

    /// Creates an empty cache that also keeps its entries in `directory`, or opens the one
    /// already there: the entries a previous launch stored are served again.
    ///
    /// The folder is created (readable by the user only) when it does not exist. Memory holds
    /// at most `maxSize` entries and `maxBytes` bytes, the folder at most `maxDiskBytes` bytes.
    ///
    /// - Throws: ``PrismCacheDirectoryError`` when the folder cannot be created, is not a
    ///   folder, or cannot be written.
    /// - Precondition: `maxSize`, `maxBytes` (if not nil) and `maxDiskBytes` are at least 1.
    public init(
        maxSize: Int, maxBytes: Int? = PrismResponseCache.defaultMaxBytes, directory: URL,
        maxDiskBytes: Int = PrismResponseCache.defaultMaxDiskBytes
    ) throws {
        self.init(
            maxSize: maxSize, maxBytes: maxBytes, now: ContinuousNanoseconds.now,
            disk: try DiskTier(directory: directory, maxBytes: maxDiskBytes))
    }

    /// Creates a cache in `directory`, like ``init(maxSize:maxBytes:directory:maxDiskBytes:)``,
    /// whose time is measured on `clock`. The age of an entry read from the folder is measured
    /// on the wall clock from when `clock` started, so that a test can age stored entries by
    /// advancing `clock`.
    public init<C: Clock>(
        maxSize: Int, maxBytes: Int? = PrismResponseCache.defaultMaxBytes, directory: URL,
        maxDiskBytes: Int = PrismResponseCache.defaultMaxDiskBytes, clock: C
    ) throws where C.Duration == Duration {
        let start = clock.now
        self.init(
            maxSize: maxSize, maxBytes: maxBytes, now: { DurationMath.nanoseconds(start.duration(to: clock.now)) },
            disk: try DiskTier(directory: directory, maxBytes: maxDiskBytes))
    }

    init(maxSize: Int, maxBytes: Int?, now: @escaping @Sendable () -> Int64, disk: DiskTier? = nil) {
        precondition(maxSize >= 1, "PrismResponseCache(maxSize:) needs room for at least one entry.")
        precondition(maxBytes.map { $0 >= 1 } ?? true, "PrismResponseCache(maxBytes:) must be at least 1 byte.")
        self.maxSize = maxSize
        self.maxBytes = maxBytes
        self.now = now
        self.disk = disk
        self.wallOffset = disk == nil ? 0 : WallNanoseconds.now() &- now()
        self.core = PrismLocked(CacheCore(maxSize: maxSize, maxBytes: maxBytes))
    }

    /// The number of entries in memory, fresh or stale.
    public var count: Int { core.withLock { $0.storage.count } }

    /// The number of entries in the folder, or zero for a cache in memory only.
    public var diskCount: Int { disk?.count ?? 0 }

    /// The bytes of the entries' files in the folder, or zero for a cache in memory only.
    public var diskBytes: Int { disk?.totalBytes ?? 0 }

    /// The bytes held: the ``PrismCacheEntry/cost`` of every entry, its key, and the estimated
    /// size of a decoded value kept beside it.
    public var totalBytes: Int { core.withLock { $0.bytes } }

    /// Stores `entry` for `key` (replacing what was there, and any value decoded from it) and
    /// evicts the least recently used entries past the limits.
    ///
    /// An entry larger than `maxBytes` is not stored (and any old entry for `key` is removed).
    public func set(_ entry: PrismCacheEntry, for key: String) {
        set(entry, for: PrismCacheKey(key))
    }

    /// Stores `entry` for `key`, like the `String`-keyed `set(_:for:)`, with a key hashed beforehand.
    public func set(_ entry: PrismCacheEntry, for key: PrismCacheKey) {
        let now = now()
        core.withLock { $0.set(entry, for: key, now: now) }
        if let disk {
            var stored = entry
            stored.timeInCache = .zero
            disk.store(stored, for: key.string, storedAtWall: now &+ wallOffset)
        }
    }

    /// The entry for `key` if it is still fresh, else nil (expired or missing).
    public func get(for key: String) -> PrismCacheEntry? {
        get(for: PrismCacheKey(key))
    }

    /// The entry for `key` if it is still fresh, like the `String`-keyed `get(for:)`, with a key hashed
    /// beforehand.
    public func get(for key: PrismCacheKey) -> PrismCacheEntry? {
        if case .fresh(let entry) = lookupNow(key) { return entry }
        return nil
    }

    /// What the cache holds for `key`: fresh, stale (past its time to live, kept for
    /// revalidation) or nothing. Marks the entry most recently used.
    public func lookup(_ key: String) -> PrismCacheLookup {
        lookup(PrismCacheKey(key))
    }

    /// What the cache holds for `key`, like the `String`-keyed `lookup(_:)`, with a key hashed beforehand.
    public func lookup(_ key: PrismCacheKey) -> PrismCacheLookup {
        lookupNow(key)
    }

    /// ``lookup(_:)`` without a hop onto the actor (Prism's clients use
    /// `lookupNow(_:decodedBy:)`).
    nonisolated func lookupNow(_ key: PrismCacheKey) -> PrismCacheLookup {
        let now = now()
        let found = core.withLock { $0.lookup(key, now: now) }
        if case .miss = found, disk != nil { return lookUpOnDisk(key, now: now) }
        return found
    }

    /// What the folder holds for `key`, taken into memory: the lookup of a key memory missed.
    nonisolated func lookUpOnDisk(_ key: PrismCacheKey, now: Int64) -> PrismCacheLookup {
        guard let disk, let decoded = disk.load(key.string) else { return .miss }
        // Stored at that wall time; a clock set back makes it as if stored now.
        let storedAt = min(decoded.storedAtWall &- wallOffset, now)
        return core.withLock { $0.adopt(decoded.entry, for: key, storedAt: storedAt, now: now) }
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
        let fields = headers.sorted { $0.key < $1.key }.map { PrismCacheEntry.Field(name: $0.key, value: $0.value) }
        return refresh(key: key, fields: fields, ttl: ttl, initialAge: nil)
    }

    /// Marks the entry for `key` fresh again after a `304 Not Modified` that carried `fields`:
    /// every stored line of a field the 304 names is replaced by its lines (the others keep
    /// their order), the time to live starts over at `ttl` (or the entry's own), and the entry is
    /// as old as `initialAge` (the 304's age, RFC 9111 §4.3.4), or as old as when first stored.
    /// Returns the refreshed entry, or nil when nothing is cached for `key`.
    ///
    /// The body is unchanged, so a value decoded from it stays beside it.
    @discardableResult
    public func refresh(
        key: PrismCacheKey, fields: [PrismCacheEntry.Field], ttl: Duration? = nil, initialAge: Duration? = nil
    ) -> PrismCacheEntry? {
        let now = now()
        if disk != nil, core.withLock({ $0.storage.peek(key) == nil }) {
            _ = lookUpOnDisk(key, now: now)
        }
        let refreshed = core.withLock {
            $0.refresh(key: key, fields: fields, ttl: ttl, initialAge: initialAge, now: now)
        }
        if let disk {
            if let refreshed {
                disk.store(refreshed, for: key.string, storedAtWall: now &+ wallOffset)
            } else {
                disk.remove(key.string)
            }
        }
        return refreshed
    }

    /// Removes the entry for `key`, and any value decoded from it.
    public func invalidate(key: String) {
        invalidate(key: PrismCacheKey(key))
    }

    /// Removes the entry for `key`, like the `String`-keyed `invalidate(key:)`, with a key hashed beforehand.
    public func invalidate(key: PrismCacheKey) {
        core.withLock { $0.invalidate(key: key) }
        disk?.remove(key.string)
    }

    /// Removes every entry, in memory and in the folder, and every value decoded from one: what
    /// an app does when its user signs out, so that no response of theirs stays behind.
    public func removeAll() {
        core.withLock { $0.removeAll() }
        disk?.removeAll()
    }

    /// Removes every entry whose key passes `isRemoved`, and every value decoded from one.
    ///
    /// ```swift
    /// await cache.removeAll { $0.hasPrefix("GET https://api.example.com/users/") }
    /// ```
    public func removeAll(where isRemoved: (String) -> Bool) {
        core.withLock { $0.removeAll(where: isRemoved) }
        disk?.removeAll(where: isRemoved)
    }

    /// Removes every entry (the same as ``removeAll()``).
    public func clear() {
        removeAll()
    }

    /// The keys in memory from most to least recently used.
    public var keysByRecency: [String] { core.withLock { $0.storage.keysByRecency.map(\.string) } }

    /// When an entry stored at `now` with `ttl` stops being fresh (saturating, so that a huge time to
    /// live never wraps around into the past).
    static func freshUntil(_ now: Int64, ttl: Duration) -> Int64 {
        let (sum, overflow) = now.addingReportingOverflow(DurationMath.nanoseconds(ttl))
        return overflow ? (ttl > .zero ? .max : .min) : sum
    }
}
