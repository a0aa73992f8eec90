import Foundation
import PrismCache

extension PrismNetworkAdapter {
    /// Sends `request` and yields its response from the cache first (when there is one), then
    /// from the network: the natural shape of `.cacheThenNetwork`.
    ///
    /// ```swift
    /// for try await update in client.responses(on: GetUserRequest(login: "octocat")) {
    ///     show(update.value)   // cached at once, then fresh
    /// }
    /// ```
    ///
    /// With another policy the stream yields what ``request(on:options:)`` would return, once.
    /// When the cached and fresh bodies are identical (a `304`), the second value still arrives,
    /// marked ``PrismNetworkUpdate/Source/network``. A stale entry whose response said
    /// `no-cache` or `must-revalidate` is not yielded: only the network's answer is.
    public func responses<Request: PrismNetworkRequest>(
        on request: Request,
        cachePolicy: PrismCachePolicy = .cacheThenNetwork,
        options: PrismRequestOptions = PrismRequestOptions()
    ) -> AsyncThrowingStream<PrismNetworkUpdate<Request.Response>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var options = options
                    options.cachePolicy = cachePolicy
                    let (http, cacheInterval) = try prepare(request.endpoint, options: options)
                    let identity = DecodedReuse.identity(of: Request.self)
                    if cachePolicy == .cacheThenNetwork, let cache {
                        let adapted = try await adapt(http)
                        if HTTPCaching.isCacheable(adapted) {
                            let authorized = try await authorize(adapted)
                            let key = HTTPCaching.key(for: authorized.request)
                            let (lookup, decoded) = await lookup(key, in: cache, decodedBy: identity)
                            if let entry = lookup.entry, HTTPCaching.varyMatches(entry, authorized.request) {
                                let isStale = if case .stale = lookup { true } else { false }
                                if request.accepts(statusCode: entry.statusCode),
                                    !isStale || !HTTPCaching.requiresRevalidation(entry)
                                {
                                    let cached = Delivery.cached(
                                        entry, url: http.url, decoded: decoded, slot: CacheSlot(cache: cache, key: key))
                                    let value = try await value(of: cached, for: request)
                                    continuation.yield(.init(value: value, source: .cache, isStale: isStale))
                                }
                            }
                        }
                    }
                    let delivery = try await deliver(
                        http,
                        cachePolicy: cachePolicy == .cacheThenNetwork ? .networkOnly : cachePolicy,
                        cacheInterval: cacheInterval,
                        retryPolicy: options.retryPolicy,
                        store: cachePolicy != .networkOnly,
                        decodedBy: identity
                    )
                    continuation.yield(
                        .init(value: try await value(of: delivery, for: request), source: .network, isStale: false))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
