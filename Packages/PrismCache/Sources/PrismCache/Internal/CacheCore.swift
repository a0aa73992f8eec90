#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a ``PrismResponseCache`` holds, and every rule of holding it: the LRU order, the time to
/// live, the byte budget, the decoded values. A plain value; a `PrismLocked` guards it.
struct CacheCore {
    typealias Stored = PrismResponseCache.Stored

    var storage = LRUStorage<PrismCacheKey, Stored>()
    var bytes = 0
    let maxSize: Int
    let maxBytes: Int?

    init(maxSize: Int, maxBytes: Int?) {
        self.maxSize = maxSize
        self.maxBytes = maxBytes
    }

    mutating func set(_ entry: PrismCacheEntry, for key: PrismCacheKey, now: Int64) {
        let cost = entry.cost + key.string.utf8.count
        if let maxBytes, cost > maxBytes {
            invalidate(key: key)
            return
        }
        var entry = entry
        entry.timeInCache = .zero
        let stored = Stored(
            entry: entry, storedAt: now, freshUntil: PrismResponseCache.freshUntil(now, ttl: entry.ttl), cost: cost)
        if let old = storage.set(stored, for: key) {
            bytes -= old.cost
        }
        bytes += cost
        evictPastLimits()
    }

    /// Fresh, stale or missing; marks the entry most recently used.
    mutating func lookup(_ key: PrismCacheKey, now: Int64) -> PrismCacheLookup {
        storage.withValue(for: key) { stored in
            let entry = stored.read(at: now)
            return now < stored.freshUntil ? .fresh(entry) : .stale(entry)
        } ?? .miss
    }

    /// Takes in `entry`, read from the disk tier, stored at `storedAt` on the cache's clock,
    /// unless an entry for `key` arrived meanwhile (then that one is looked up); the lookup of
    /// whichever it is. An entry past the budget is returned without being kept.
    mutating func adopt(_ entry: PrismCacheEntry, for key: PrismCacheKey, storedAt: Int64, now: Int64)
        -> PrismCacheLookup
    {
        if storage.peek(key) != nil { return lookup(key, now: now) }
        let stored = Stored(
            entry: entry, storedAt: storedAt, freshUntil: PrismResponseCache.freshUntil(storedAt, ttl: entry.ttl),
            cost: entry.cost + key.string.utf8.count)
        if maxBytes.map({ stored.cost <= $0 }) ?? true {
            storage.set(stored, for: key)
            bytes += stored.cost
            evictPastLimits()
        }
        let read = stored.read(at: now)
        return now < stored.freshUntil ? .fresh(read) : .stale(read)
    }

    /// ``lookup(_:now:)``, with the value `decoding` decoded from the body when one is kept.
    mutating func lookup(_ key: PrismCacheKey, decodedBy decoding: ObjectIdentifier, now: Int64) -> (
        lookup: PrismCacheLookup, decoded: (any Sendable)?
    ) {
        storage.withValue(for: key) { stored in
            let decoded = stored.decoded.flatMap { $0.decoding == decoding ? $0.value : nil }
            let entry = stored.read(at: now)
            return (now < stored.freshUntil ? .fresh(entry) : .stale(entry), decoded)
        } ?? (.miss, nil)
    }

    /// Replaces every stored line of each field `fields` names by `fields`' lines of that name,
    /// and starts the entry's life again: fresh for `ttl` (or its own), as old as `initialAge`
    /// (or as old as it was when first stored).
    mutating func refresh(
        key: PrismCacheKey, fields: [PrismCacheEntry.Field], ttl: Duration?, initialAge: Duration?, now: Int64
    ) -> PrismCacheEntry? {
        guard var stored = storage.peek(key) else { return nil }
        if !fields.isEmpty {
            let replaced = Set(fields.map { $0.name.lowercased() })
            stored.entry.fields = stored.entry.fields.filter { !replaced.contains($0.name.lowercased()) } + fields
        }
        if let ttl { stored.entry.ttl = ttl }
        if let initialAge { stored.entry.initialAge = initialAge }
        stored.storedAt = now
        stored.freshUntil = PrismResponseCache.freshUntil(now, ttl: stored.entry.ttl)
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
        return storage.peek(key)?.read(at: now)
    }

    mutating func invalidate(key: PrismCacheKey) {
        if let removed = storage.remove(key) { bytes -= removed.cost }
    }

    mutating func removeAll() {
        storage.removeAll()
        bytes = 0
    }

    mutating func removeAll(where isRemoved: (String) -> Bool) {
        for key in storage.keys(where: { isRemoved($0.string) }) {
            invalidate(key: key)
        }
    }

    mutating func keepDecoded(
        _ value: any Sendable, decodedBy decoding: ObjectIdentifier, from body: Data, cost: Int, for key: PrismCacheKey
    ) {
        guard var stored = storage.peek(key), stored.entry.data == body else { return }
        let cost = max(cost, 0)
        let oldCost = stored.cost
        let withoutDecoded = oldCost - (stored.decoded?.cost ?? 0)
        if let maxBytes, withoutDecoded + cost > maxBytes { return }
        stored.decoded = DecodedValue(value: value, decoding: decoding, cost: cost)
        stored.cost = withoutDecoded + cost
        storage.set(stored, for: key)  // and most recently used: it was just read
        bytes += stored.cost - oldCost
        evictPastLimits()
    }

    /// Evicts the least recently used entries while the cache holds more than `maxSize` entries
    /// or `maxBytes` bytes.
    mutating func evictPastLimits() {
        while storage.count > maxSize || (maxBytes.map { bytes > $0 } ?? false) {
            guard let evicted = storage.removeLeastRecentlyUsed() else { break }
            bytes -= evicted.value.cost
        }
    }
}
