/// How a request uses the response cache.
///
/// | policy | behaviour |
/// |---|---|
/// | ``networkOnly`` | Always fetch from the network; never read the cache. |
/// | ``cacheFirst`` | Return the cached response if there is one, fresh or stale, without asking the server; otherwise fetch. |
/// | ``cacheThenNetwork`` | Return the cached response at once (if any), then the fresh one from the network. |
/// | ``staleWhileRevalidate`` | Return the cached response even if stale, and revalidate it in the background. |
/// | ``alwaysRevalidate`` | Always ask the server; a `304 Not Modified` answers with the cached response. |
/// | ``networkFirst(maxStale:)`` | The network; when it cannot answer, the cached response at most `maxStale` stale. |
/// | ``cacheOnly`` | Never the network: the cached response, fresh or stale, or an error when there is none. |
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
    /// Always ask the server, conditionally when the cached response has validators, and answer
    /// with the cached response after a `304 Not Modified`: what a sync right after the app's own
    /// change needs, whatever the cached response's freshness.
    case alwaysRevalidate
    /// Ask the server first (as ``alwaysRevalidate``); when it cannot answer (no connection, a
    /// timeout, a 500, 502, 503 or 504), answer with the cached response if it is at most
    /// `maxStale` past its freshness. What an app that must show something offline uses.
    case networkFirst(maxStale: Duration)
    /// Never ask the server: the cached response, fresh or stale, or, when there is none, the
    /// `notCached` error.
    case cacheOnly
}
