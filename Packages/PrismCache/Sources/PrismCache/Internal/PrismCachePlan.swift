/// What a request that may use the cache does, decided from what the cache holds for it and its
/// ``PrismCachePolicy``: the one decision PrismHTTP's client and PrismGraphQL's client share.
/// The caller carries the plan out (how it revalidates, stores and logs is its own).
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`): not a stable API.
///
/// | found \ policy | none | `cacheThenNetwork` | `cacheFirst` | `staleWhileRevalidate` | `alwaysRevalidate`, `networkFirst` | `cacheOnly` | `networkOnly` |
/// |---|---|---|---|---|---|---|---|
/// | fresh | serve | serve | serve | serve | revalidate | serve | fetch |
/// | stale, within its background-revalidation window | serve and revalidate | revalidate | serve | serve and revalidate | revalidate | serve | fetch |
/// | stale, may be served stale | revalidate | revalidate | serve | serve and revalidate | revalidate | serve | fetch |
/// | stale, must be revalidated | revalidate | revalidate | revalidate | revalidate | revalidate | unavailable | fetch |
/// | nothing | fetch | fetch | fetch | fetch | fetch | unavailable | fetch |
///
/// `networkFirst`'s fallback to the cached response when the server cannot answer is the
/// caller's, after the revalidation fails.
///
/// "May be served stale" and "within its window" are the caller's rules (PrismHTTP: the
/// response's `no-cache` and `must-revalidate`, its `stale-while-revalidate`, the request's own
/// directives).
@_spi(PrismInternals)
public enum PrismCachePlan: Sendable, Equatable {
    /// Answer with the entry; nothing goes to the network.
    case serve(PrismCacheEntry)
    /// Answer with the stale entry at once, and revalidate it in the background
    /// (``PrismBackgroundRevalidations``).
    case serveAndRevalidate(PrismCacheEntry)
    /// Ask the server before answering: conditionally when the entry has validators, and answer
    /// with the entry after a `304 Not Modified`.
    case revalidate(PrismCacheEntry)
    /// Nothing usable is cached (or the policy does not read the cache): fetch.
    case fetch
    /// Nothing usable is cached, and the policy forbids the network (`cacheOnly`).
    case unavailable

    /// Whether a request with `policy` is answered by a fresh cached response without asking
    /// the server (`alwaysRevalidate` and `networkFirst` ask first).
    public static func servesFresh(_ policy: PrismCachePolicy?) -> Bool {
        switch policy {
        case .alwaysRevalidate?, .networkFirst?, .networkOnly?: false
        default: true
        }
    }

    /// Whether a request with `policy` reads the cache at all (`networkOnly` does not).
    public static func readsCache(_ policy: PrismCachePolicy?) -> Bool {
        policy != .networkOnly
    }

    /// The plan for a request with `policy` that found `lookup`.
    ///
    /// - Parameters:
    ///   - lookup: What the cache holds for the request (a caller that cannot use the entry, say
    ///     one that does not match the request's `Vary` headers, passes `.miss`).
    ///   - policy: The request's cache policy; `nil` for HTTP's own rules.
    ///   - mayServeStale: Whether a stale entry may be answered without asking the server first
    ///     (not when its response said `no-cache` or `must-revalidate`).
    ///   - revalidatesInBackground: Whether HTTP's own rules (no policy) answer with a stale entry
    ///     and revalidate it in the background (its `stale-while-revalidate` window, RFC 5861).
    public init(
        lookup: PrismCacheLookup,
        policy: PrismCachePolicy?,
        mayServeStale: (PrismCacheEntry) -> Bool = { _ in true },
        revalidatesInBackground: (PrismCacheEntry) -> Bool = { _ in false }
    ) {
        guard Self.readsCache(policy) else {
            self = .fetch
            return
        }
        switch (lookup, policy) {
        case (.fresh(let entry), .alwaysRevalidate?), (.fresh(let entry), .networkFirst?):
            self = .revalidate(entry)
        case (.fresh(let entry), _):
            self = .serve(entry)
        case (.stale(let entry), .cacheOnly?):
            self = mayServeStale(entry) ? .serve(entry) : .unavailable
        case (.miss, .cacheOnly?):
            self = .unavailable
        case (.stale(let entry), .cacheFirst?) where mayServeStale(entry):
            self = .serve(entry)
        case (.stale(let entry), .staleWhileRevalidate?) where mayServeStale(entry):
            self = .serveAndRevalidate(entry)
        case (.stale(let entry), nil) where revalidatesInBackground(entry):
            self = .serveAndRevalidate(entry)
        case (.stale(let entry), _):
            self = .revalidate(entry)
        case (.miss, _):
            self = .fetch
        }
    }
}
