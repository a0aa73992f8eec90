import Foundation
import Logging
@_spi(PrismInternals) import PrismCache

extension PrismNetworkAdapter {
    /// Interceptors, then credentials, then the cache, then the network; a cache hit comes
    /// back as the entry, with the value `decodedBy` kept beside it if there is one.
    ///
    /// The key is made (and hashed) once, and the cache's clock read once, by the lookup.
    func deliver(
        _ request: PrismHTTPRequest,
        cachePolicy: PrismCachePolicy?,
        cacheInterval: Duration?,
        retryPolicy: (any PrismRetryPolicy)?,
        store: Bool,
        decodedBy decoding: ObjectIdentifier?
    ) async throws -> Delivery {
        let request = try await adapt(request)
        guard let cache, HTTPCaching.isCacheable(request), cachePolicy != .networkOnly || store else {
            return .network(
                try await network(request, authorization: nil, retryPolicy: retryPolicy).response, slot: nil)
        }
        // The key is that of the request as it will be sent, credentials included.
        let authorization = try await authorize(request)
        let key = HTTPCaching.key(for: authorization.request)
        var (lookup, decoded): (PrismCacheLookup, (any Sendable)?) = (.miss, nil)
        if PrismCachePlan.readsCache(cachePolicy) {
            if let decoding {
                (lookup, decoded) = await cache.lookup(key, decodedBy: decoding)
            } else {
                lookup = await cache.lookup(key)
            }
        }
        if let entry = lookup.entry, !HTTPCaching.varyMatches(entry, authorization.request) { lookup = .miss }
        let slot = CacheSlot(cache: cache, key: key)
        let context = CacheContext(
            slot: slot, sent: authorization.request, cacheInterval: cacheInterval, retryPolicy: retryPolicy)
        let plan = PrismCachePlan(lookup: lookup, policy: cachePolicy) { !HTTPCaching.requiresRevalidation($0) }
        switch plan {
        case .serve(let entry):
            if case .fresh = lookup {
                logger?.debug("cache hit", metadata: ["url": "\(PrismHTTPRedaction.redact(request.url))"])
            }
            return .cached(entry, url: request.url, decoded: decoded, slot: slot)
        case .serveAndRevalidate(let entry):
            await revalidateInBackground(request, entry: entry, context: context)
            return .cached(entry, url: request.url, decoded: decoded, slot: slot)
        case .revalidate(let entry):
            return try await revalidate(
                request, authorization: authorization, entry: entry, decoded: decoded, context: context)
        case .fetch:
            let exchange = try await network(request, authorization: authorization, retryPolicy: retryPolicy)
            let stored = store ? await storeIfAllowed(exchange, context: context) : nil
            return .network(exchange.response, slot: stored)
        }
    }

    /// Revalidates `entry` in the background, unless a revalidation of its key is running.
    ///
    /// The revalidation runs on a client with this one's parts, so that it does not keep this
    /// client alive: when this client goes away, its ``backgroundRevalidations`` go too and cancel
    /// it. A revalidation that gets no answer, or a 5xx, keeps the stale entry (and is logged at
    /// `.warning`); one that is cancelled writes nothing.
    private func revalidateInBackground(_ request: PrismHTTPRequest, entry: PrismCacheEntry, context: CacheContext)
        async
    {
        let worker = PrismNetworkAdapter(partsOf: self)
        var context = context
        context.isBackground = true
        await backgroundRevalidations.start(for: context.slot.key) { [context] in
            _ = try? await worker.revalidate(request, authorization: nil, entry: entry, decoded: nil, context: context)
        }
    }

    /// Where a response is cached, and how.
    struct CacheContext: Sendable {
        var slot: CacheSlot
        /// The request the key was made of.
        var sent: PrismHTTPRequest
        var cacheInterval: Duration?
        var retryPolicy: (any PrismRetryPolicy)?
        /// A background revalidation: a 5xx keeps the stale entry, and a cancelled one stores
        /// nothing.
        var isBackground = false

        /// The key of `request` as it was finally sent: the context's own when it is the request
        /// the key was made of, else made again (the credentials were refreshed on the way).
        func key(of request: PrismHTTPRequest) -> PrismCacheKey {
            request == sent ? slot.key : HTTPCaching.key(for: request)
        }
    }

    /// Sends `request` conditionally (when `entry` has validators); a `304` refreshes the entry
    /// and answers with it (and with `decoded`, the value kept beside it, when the entry
    /// refreshed is the one it was decoded from).
    private func revalidate(
        _ request: PrismHTTPRequest,
        authorization: Authorization?,
        entry: PrismCacheEntry,
        decoded: (any Sendable)?,
        context: CacheContext
    ) async throws -> Delivery {
        let canRevalidate = HTTPCaching.canRevalidate(entry)
        let conditional = canRevalidate ? HTTPCaching.conditional(request, revalidating: entry) : request
        let conditionalAuthorization = authorization.map { authorization in
            Authorization(
                request: canRevalidate
                    ? HTTPCaching.conditional(authorization.request, revalidating: entry) : authorization.request,
                credential: authorization.credential
            )
        }
        let exchange = try await network(
            conditional, authorization: conditionalAuthorization, retryPolicy: context.retryPolicy)
        let response = exchange.response
        if context.isBackground {
            if Task.isCancelled { return .network(response, slot: nil) }
            if (500...599).contains(response.statusCode) {
                let url = PrismHTTPRedaction.redact(request.url)
                logger?.warning(
                    "\(request.method.rawValue) \(url) revalidation failed: the stale entry is kept",
                    metadata: ["status": "\(response.statusCode)"])
                return .network(response, slot: nil)
            }
        }
        if response.statusCode == 304 {
            let ttl = HTTPCaching.ttlAfterRevalidation(response, entry: entry, cacheInterval: context.cacheInterval)
            // Only the entry of the credentials the 304 was sent with is refreshed.
            let key = HTTPCaching.key(for: exchange.sent)
            let refreshed = await context.slot.cache.refresh(
                key: key, headers: HTTPCaching.refreshedHeaders(from: response), ttl: ttl)
            logger?.debug("revalidated: not modified", metadata: ["url": "\(PrismHTTPRedaction.redact(request.url))"])
            let slot = CacheSlot(cache: context.slot.cache, key: key)
            guard let refreshed else { return .network(HTTPCaching.response(from: entry, url: request.url), slot: nil) }
            let sameEntry = key == context.slot.key && refreshed.data == entry.data
            return .cached(refreshed, url: request.url, decoded: sameEntry ? decoded : nil, slot: slot)
        }
        let stored = await storeIfAllowed(exchange, context: context)
        return .network(response, slot: stored)
    }

    /// Stores the response under the key of the request as it was finally sent: when the
    /// credentials were refreshed on the way, under the new ones. Returns where it is stored,
    /// or nil when it was not.
    @discardableResult
    private func storeIfAllowed(_ exchange: Exchange, context: CacheContext) async -> CacheSlot? {
        let key = context.key(of: exchange.sent)
        let cache = context.slot.cache
        if key != context.slot.key { await cache.invalidate(key: context.slot.key) }
        let response = exchange.response
        if let entry = HTTPCaching.entry(for: response, request: exchange.sent, cacheInterval: context.cacheInterval) {
            await cache.set(entry, for: key)
            return CacheSlot(cache: cache, key: key)
        } else if !response.isSuccess || CacheControl(response.headers["Cache-Control"]).noStore
            || HTTPCaching.varyNames(response.headers) == nil
        {
            await cache.invalidate(key: key)
        }
        return nil
    }

    /// What the cache holds for `key`, with the value `identity` decoded from it when there is one.
    func lookup(_ key: PrismCacheKey, in cache: PrismResponseCache, decodedBy identity: ObjectIdentifier?) async
        -> (lookup: PrismCacheLookup, decoded: (any Sendable)?)
    {
        guard let identity else { return (await cache.lookup(key), nil) }
        return await cache.lookup(key, decodedBy: identity)
    }
}
