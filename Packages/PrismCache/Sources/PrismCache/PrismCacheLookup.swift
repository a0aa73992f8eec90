/// What a cache holds for a key: a fresh entry, a stale one (kept for revalidation), or nothing.
public enum PrismCacheLookup: Sendable, Equatable {
    /// The entry is within its time to live.
    case fresh(PrismCacheEntry)
    /// The entry's time to live has passed; revalidate it (`If-None-Match`, `If-Modified-Since`)
    /// or serve it while revalidating.
    case stale(PrismCacheEntry)
    /// Nothing is cached for the key.
    case miss

    /// The entry, fresh or stale.
    public var entry: PrismCacheEntry? {
        switch self {
        case .fresh(let entry), .stale(let entry): return entry
        case .miss: return nil
        }
    }
}
