import Foundation
import Logging
@_spi(PrismInternals) import PrismCache

/// The cache's side of the pipeline (stages 5 and 7, see `PrismNetworkAdapter+Pipeline.swift`):
/// revalidation, in the foreground and in the background, and the store.
extension PrismNetworkAdapter {
    /// Where a response is cached, and for which prepared request.
    struct CacheContext: Sendable {
        var slot: CacheSlot
        /// The request the key was made of, as prepared for its first attempt.
        var prepared: PrismPreparedRequest
        /// A background revalidation: a 5xx keeps the stale entry, and a cancelled one stores
        /// nothing.
        var isBackground = false

        /// The key of `request` as it was finally sent: the context's own when it carries the
        /// credentials the key was made of, else made again (they were refreshed on the way).
        func key(of request: PrismHTTPRequest) -> PrismCacheKey {
            request.headers == prepared.request.headers ? slot.key : HTTPCaching.key(for: request)
        }
    }

    /// Revalidates `entry` in the background, unless a revalidation of its key is running.
    ///
    /// The revalidation runs on a client with this one's parts, so that it does not keep this
    /// client alive: when this client goes away, its ``backgroundRevalidations`` go too and cancel
    /// it. It is prepared again (the prepared request of the caller may be long used by then). A
    /// revalidation that gets no answer, or a 5xx, keeps the stale entry (and is logged at
    /// `.warning`); one that is cancelled writes nothing.
    func revalidateInBackground(entry: PrismCacheEntry, context: CacheContext) async {
        let worker = PrismNetworkAdapter(partsOf: self)
        var context = context
        context.isBackground = true
        await backgroundRevalidations.start(for: context.slot.key) { [context] in
            _ = try? await worker.revalidate(entry: entry, decoded: nil, context: context)
        }
    }

    /// Sends the request conditionally (when `entry` has validators); a `304` refreshes the entry
    /// and answers with it (and with `decoded`, the value kept beside it, when the entry
    /// refreshed is the one it was decoded from).
    func revalidate(entry: PrismCacheEntry, decoded: (any Sendable)?, context: CacheContext) async throws -> Delivery {
        let url = context.prepared.request.url
        let exchange: Exchange
        do {
            exchange = try await fetch(context.prepared, revalidating: entry)
        } catch let error as PrismHTTPError {
            // The server could not be asked: the stored response, stale, when that is allowed.
            let disconnected = error.code == .connectionFailed || error.code == .timedOut
            if !context.isBackground, disconnected || error.code == .retriesExhausted,
                mayServeOnError(entry, context: context, disconnected: disconnected)
            {
                logger?.notice(
                    "\(context.prepared.request.method.rawValue) \(PrismHTTPRedaction.redact(url)) failed: the stored response is served stale",
                    metadata: ["error": "\(error.code)"])
                return .cached(
                    entry, request: context.prepared.request, decoded: decoded, slot: context.slot,
                    source: entry.remainingFreshness > .zero ? .cache : .stale(.networkFailed(error.code)))
            }
            throw error
        }
        let response = exchange.response
        // A server error, and stale-if-error lets the stored response answer instead (RFC 5861
        // §4): it is served, and kept.
        if !context.isBackground, HTTPCaching.staleIfErrorStatuses.contains(response.statusCode),
            mayServeOnError(entry, context: context, disconnected: false)
        {
            logger?.notice(
                "\(context.prepared.request.method.rawValue) \(PrismHTTPRedaction.redact(url)) answered \(response.statusCode): the stored response is served stale"
            )
            return .cached(
                entry, request: context.prepared.request, decoded: decoded, slot: context.slot,
                source: entry.remainingFreshness > .zero ? .cache : .stale(.serverError(status: response.statusCode)))
        }
        if context.isBackground {
            if Task.isCancelled { return .network(response, slot: nil) }
            if (500...599).contains(response.statusCode) {
                logger?.warning(
                    "\(context.prepared.request.method.rawValue) \(PrismHTTPRedaction.redact(url)) revalidation failed: the stale entry is kept",
                    metadata: ["status": "\(response.statusCode)"])
                return .network(response, slot: nil)
            }
        }
        guard response.statusCode == 304 else {
            return .network(response, slot: await store(exchange, context: context))
        }
        let ttl = HTTPCaching.ttlAfterRevalidation(
            response, entry: entry, cacheInterval: context.prepared.cacheInterval,
            requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        // Only the entry of the credentials the 304 was sent with is refreshed: the variant the
        // entry was found as, and the most recent response when it is that variant.
        let primary = HTTPCaching.key(for: exchange.sent)
        let key = HTTPCaching.isVariant(context.slot.key, of: primary) ? context.slot.key : primary
        let cache = context.slot.cache
        let fields = HTTPCaching.refreshedFields(from: response)
        let age = HTTPFreshness.ageOnArrival(
            of: response.headers, requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        var refreshed = await cache.refresh(
            key: key, fields: fields, ttl: ttl, initialAge: HTTPFreshness.duration(age))
        logger?.debug("revalidated: not modified", metadata: ["url": "\(PrismHTTPRedaction.redact(url))"])
        if refreshed == nil, key != context.slot.key {
            // Sent with other credentials (refreshed on the way): the server confirmed the
            // stored body for them, and the entry is kept under their key, never the old one's.
            var confirmed = HTTPCaching.response(from: entry, request: exchange.sent, source: .revalidated)
            confirmed.headers = HTTPCaching.updatedHeaders(of: entry, by: fields)
            if var copy = HTTPCaching.entry(
                for: confirmed, request: exchange.sent, cacheInterval: nil, requestTime: exchange.requestTime,
                responseTime: exchange.responseTime)
            {
                copy.ttl = ttl
                await cache.set(copy, for: key)
                refreshed = copy
            }
        }
        guard let refreshed else {
            return .network(HTTPCaching.response(from: entry, request: exchange.sent, source: .revalidated), slot: nil)
        }
        let sameEntry = key == context.slot.key && refreshed.data == entry.data
        return .cached(
            refreshed, request: exchange.sent, decoded: sameEntry ? decoded : nil,
            slot: CacheSlot(cache: cache, key: key), source: .revalidated)
    }

    /// Stores the response under the key of the request as it was finally sent: when the
    /// credentials were refreshed on the way, under the new ones (and the entry of the old ones
    /// goes). Returns where it is stored, or nil when it was not.
    /// A `200` to a `HEAD` updates the stored `GET` of its URL (and credentials) as a `304`
    /// would: its fields and freshness; or drops it when the validators say the body changed
    /// (RFC 9111 §4.3.5).
    private func updateStoredGET(from exchange: Exchange, in cache: PrismResponseCache) async {
        let response = exchange.response
        let key = HTTPCaching.key(
            method: .get, url: exchange.sent.url, digest: HTTPCaching.credentialDigest(exchange.sent.headers))
        guard let entry = cache.lookupNow(key).entry else { return }
        let etag = response.headers["ETag"]
        let lastModified = response.headers["Last-Modified"]
        if (etag != nil && etag != entry.etag) || (lastModified != nil && lastModified != entry.lastModified) {
            await cache.invalidate(key: key)
            return
        }
        let ttl = HTTPCaching.ttlAfterRevalidation(
            response, entry: entry, cacheInterval: nil, requestTime: exchange.requestTime,
            responseTime: exchange.responseTime)
        let age = HTTPFreshness.ageOnArrival(
            of: response.headers, requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        await cache.refresh(
            key: key, fields: HTTPCaching.refreshedFields(from: response), ttl: ttl,
            initialAge: HTTPFreshness.duration(age))
    }

    /// Whether `entry` answers when asking the server about it failed: within the staleness a
    /// `networkFirst` policy accepts; never for `alwaysRevalidate`, which wants the server's
    /// word; else as HTTP allows (``HTTPCaching/mayServeOnError(_:asked:disconnected:)``). Never
    /// a response that must be revalidated.
    private func mayServeOnError(_ entry: PrismCacheEntry, context: CacheContext, disconnected: Bool) -> Bool {
        switch context.prepared.options.cachePolicy {
        case .networkFirst(let maxStale)?:
            return HTTPCaching.staleness(of: entry) <= maxStale && !HTTPCaching.requiresRevalidation(entry)
        case .alwaysRevalidate?:
            return false
        default:
            return HTTPCaching.mayServeOnError(
                entry, asked: RequestCacheControl(context.prepared.request.headers), disconnected: disconnected)
        }
    }

    @discardableResult
    func store(_ exchange: Exchange, context: CacheContext) async -> CacheSlot? {
        let key = context.key(of: exchange.sent)
        let cache = context.slot.cache
        if exchange.sent.method == .head, exchange.response.statusCode == 200 {
            await updateStoredGET(from: exchange, in: cache)
        }
        if key != context.slot.key, !HTTPCaching.isVariant(context.slot.key, of: key) {
            await cache.invalidate(key: context.slot.key)
        }
        let response = exchange.response
        // A redirect followed in the transport: the answer is the target's, not the response to
        // this URL, and must not be stored as if it were.
        guard response.url == exchange.sent.url else {
            await cache.invalidate(key: key)
            return nil
        }
        let cacheInterval = context.prepared.cacheInterval
        if let entry = HTTPCaching.entry(
            for: response, request: exchange.sent, cacheInterval: cacheInterval, requestTime: exchange.requestTime,
            responseTime: exchange.responseTime)
        {
            // Stored as the most recent response, and, when it varies, as its own variant too.
            let sentKey = key == context.slot.key ? HTTPCaching.key(for: exchange.sent) : key
            let primary = HTTPCaching.isVariant(key, of: sentKey) ? sentKey : key
            await cache.set(entry, for: primary)
            if let names = HTTPCaching.varyNames(response.headers), !names.isEmpty {
                await cache.set(entry, for: HTTPCaching.variantKey(of: primary, values: entry.varyingRequestHeaders))
            }
            return CacheSlot(cache: cache, key: primary)
        } else if (!response.isSuccess && !HTTPCaching.staleIfErrorStatuses.contains(response.statusCode))
            || CacheControl(response.headers).forbidsStoring(status: response.statusCode)
            || HTTPCaching.varyNames(response.headers) == nil
        {
            // What the server says now replaces what was stored; a passing server error (500,
            // 502, 503, 504) does not: the stored response may still answer under stale-if-error.
            await cache.invalidate(key: key)
        }
        return nil
    }
}

extension PrismNetworkAdapter {
    /// Drops the stored `GET` and `HEAD` responses of `url`, for every credential: what to call
    /// after a change the server made that the client did not send itself (a push, another
    /// device). A `POST`, `PUT`, `PATCH` or `DELETE` the client sends does it for its own URL on
    /// its own (RFC 9111 §4.4).
    ///
    /// ```swift
    /// await client.removeCachedResponses(for: URL(string: "https://api.example.com/tasks")!)
    /// ```
    public func removeCachedResponses(for url: URL) async {
        let urls = [url.absoluteString]
        await cache?.removeAll { HTTPCaching.isKey($0, ofAny: urls) }
    }

    /// Drops every stored `GET` and `HEAD` response whose URL starts with `prefix`
    /// (`"https://api.example.com/users/"`), for every credential.
    public func removeCachedResponses(withURLPrefix prefix: String) async {
        await cache?.removeAll { $0.hasPrefix("GET " + prefix) || $0.hasPrefix("HEAD " + prefix) }
    }
}
