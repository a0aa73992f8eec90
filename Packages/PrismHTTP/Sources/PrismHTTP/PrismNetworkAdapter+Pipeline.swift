import Foundation
import Logging
import PrismCache

/// What went over the network: the response, and the request as it was finally sent (with the
/// credentials it carried, refreshed or not).
struct Exchange: Sendable {
    var response: PrismHTTPResponse
    var sent: PrismHTTPRequest
}

extension PrismNetworkAdapter {
    /// Interceptors, then credentials, then the cache, then the network.
    func send(
        _ request: PrismHTTPRequest,
        cachePolicy: PrismCachePolicy?,
        cacheInterval: Duration?,
        retryPolicy: (any PrismRetryPolicy)?,
        store: Bool
    ) async throws -> PrismHTTPResponse {
        try await deliver(
            request, cachePolicy: cachePolicy, cacheInterval: cacheInterval, retryPolicy: retryPolicy, store: store,
            decodedBy: nil
        ).response
    }

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
        if cachePolicy != .networkOnly {
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
        switch (lookup, cachePolicy) {
        case (.fresh(let entry), _):
            logger?.debug("cache hit", metadata: ["url": "\(PrismHTTPRedaction.redact(request.url))"])
            return .cached(entry, url: request.url, decoded: decoded, slot: slot)
        case (.stale(let entry), .cacheFirst) where !HTTPCaching.requiresRevalidation(entry):
            return .cached(entry, url: request.url, decoded: decoded, slot: slot)
        case (.stale(let entry), .staleWhileRevalidate) where !HTTPCaching.requiresRevalidation(entry):
            Task { [self] in
                _ = try? await revalidate(request, authorization: nil, entry: entry, decoded: nil, context: context)
            }
            return .cached(entry, url: request.url, decoded: decoded, slot: slot)
        case (.stale(let entry), _):
            return try await revalidate(
                request, authorization: authorization, entry: entry, decoded: decoded, context: context)
        case (.miss, _):
            let exchange = try await network(request, authorization: authorization, retryPolicy: retryPolicy)
            let stored = store ? await storeIfAllowed(exchange, context: context) : nil
            return .network(exchange.response, slot: stored)
        }
    }

    /// Where a response is cached, and how.
    struct CacheContext: Sendable {
        var slot: CacheSlot
        /// The request the key was made of.
        var sent: PrismHTTPRequest
        var cacheInterval: Duration?
        var retryPolicy: (any PrismRetryPolicy)?

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

    /// The network, retried as `retryPolicy` says: a transient status (408, 429, 5xx) counts as
    /// a failed attempt; when the attempts are spent the last response is an error that lists
    /// them. The first attempt uses `authorization` when given.
    func network(
        _ request: PrismHTTPRequest,
        authorization: Authorization?,
        retryPolicy: (any PrismRetryPolicy)?
    ) async throws -> Exchange {
        let transport = self.transport
        let send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse = { try await transport.send($0) }
        guard let retryPolicy else { return try await attempt(request, authorization: authorization, send: send) }
        var first = authorization
        return try await Retrying.run(policy: retryPolicy, sleep: sleep) {
            let exchange = try await attempt(request, authorization: first, send: send)
            first = nil
            let failure = PrismHTTPError.unacceptable(exchange.response, method: request.method)
            if !exchange.response.isSuccess, PrismRetryFailure(error: failure).isTransient { throw failure }
            return exchange
        }
    }

    /// Credentials, the transport, and one more try after a refresh when credentials were
    /// rejected.
    func attempt(
        _ request: PrismHTTPRequest,
        authorization: Authorization?,
        send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> Exchange {
        guard let authenticator else {
            return Exchange(response: try await transmit(request, send: send), sent: request)
        }
        let authorized: Authorization
        if let authorization {
            authorized = authorization
        } else {
            authorized = try await authorize(request)
        }
        let response = try await transmit(authorized.request, send: send)
        guard authenticator.isAuthenticationFailure(response) else {
            return Exchange(response: response, sent: authorized.request)
        }
        do {
            try await authenticator.refresh(replacing: authorized.credential)
        } catch let error as PrismHTTPError {
            logFailure(error, of: request)
            throw error
        }
        let retried = try await authorize(request)
        return Exchange(response: try await transmit(retried.request, send: send), sent: retried.request)
    }

    /// Sends one request through `send` (the transport), checked and logged.
    private func transmit(
        _ request: PrismHTTPRequest,
        send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> PrismHTTPResponse {
        do {
            // The authenticator may have added headers: they are checked before any transport.
            try RequestValidation.validateHeaders(request.headers, url: request.url)
            guard let logger else { return try await send(request) }
            return try await transmitLogged(request, logger: logger, send: send)
        } catch var error as PrismHTTPError {
            if error.method == nil { error.method = request.method }
            if logger != nil, error.code == .invalidHeader { logFailure(error, of: request) }
            throw error
        }
    }

    private func transmitLogged(
        _ request: PrismHTTPRequest,
        logger: Logger,
        send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> PrismHTTPResponse {
        let start = ContinuousClock.now
        let url = PrismHTTPRedaction.redact(request.url)
        logger.debug(
            "\(request.method.rawValue) \(url)",
            metadata: ["headers": "\(PrismHTTPRedaction.redact(request.headers).dictionary)"]
        )
        do {
            let response = try await send(request)
            let elapsed = ContinuousClock.now - start
            logger.debug(
                "\(response.statusCode) \(request.method.rawValue) \(url)",
                metadata: [
                    "milliseconds": "\(Int(elapsed.seconds * 1_000))",
                    "bytes": "\(response.body.count)",
                    "headers": "\(PrismHTTPRedaction.redact(response.headers).dictionary)",
                ]
            )
            return response
        } catch let error as PrismHTTPError {
            logFailure(error, of: request)
            throw error
        } catch {
            if !(error is CancellationError) {
                logger.warning(
                    "\(request.method.rawValue) \(url) failed", metadata: ["error": "\(type(of: error))"])
            }
            throw error
        }
    }

    /// Logs a failure at `.warning` with what cannot carry a secret: the method, the redacted
    /// URL, the error's code and the status. Never the message, the body or an underlying
    /// error's text, which may quote a URL, a header or a server's words.
    func logFailure(_ error: PrismHTTPError, of request: PrismHTTPRequest) {
        guard let logger else { return }
        var metadata: Logger.Metadata = ["error": "\(error.code)"]
        if let status = error.statusCode { metadata["status"] = "\(status)" }
        logger.warning(
            "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url)) failed: \(error.code)",
            metadata: metadata)
    }
}
