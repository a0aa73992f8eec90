/// How a request uses the response cache.
///
/// | policy | behaviour |
/// |---|---|
/// | ``networkOnly`` | Always fetch from the network; never read the cache. |
/// | ``cacheFirst`` | Return the cached response if there is one, fresh or stale, without asking the server; otherwise fetch. |
/// | ``cacheThenNetwork`` | Return the cached response at once (if any), then the fresh one from the network. |
/// | ``staleWhileRevalidate`` | Return the cached response even if stale, and revalidate it in the background. |
///
/// Whatever the policy, a response is stored only when HTTP allows it (not `no-store`), and a
/// stale entry with validators is revalidated with `If-None-Match` / `If-Modified-Since`, a
/// `304 Not Modified` refreshing it.
public enum PrismCachePolicy: Sendable, Hashable {
    /// Always fetch from the network; never read the cache.
    case networkOnly
    /// Return the cached response if there is one, fresh or stale, without asking the server;
    /// otherwise fetch. A stale entry whose response said `no-cache` or `must-revalidate` is
    /// revalidated instead.
    case cacheFirst
    /// Return the cached response at once, if there is one, then the response from the network.
    case cacheThenNetwork
    /// Return the cached response even if stale, and revalidate it in the background.
    case staleWhileRevalidate
}
