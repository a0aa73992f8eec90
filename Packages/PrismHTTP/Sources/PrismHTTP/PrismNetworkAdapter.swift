import Foundation
import Logging
import PrismCache

/// The client that ships with Prism: builds requests from endpoints, runs interceptors and the
/// authenticator, caches responses, sends through a transport, validates and decodes.
///
/// ```swift
/// let client = PrismNetworkAdapter()
/// let user = try await client.request(on: GetUserRequest(login: "octocat"))
/// ```
///
/// `PrismNetworkAdapter()` uses the platform's default transport (AsyncHTTPClient on Linux,
/// URLSession elsewhere), a response cache of 500 entries, and no interceptors or logging.
///
/// ## Caching
/// GET responses go through ``cache`` as HTTP says (`Cache-Control: max-age`, `no-cache`,
/// `no-store`; `ETag` and `Last-Modified` revalidated with `If-None-Match` and
/// `If-Modified-Since`, a `304` refreshing the entry and returning its body), with the
/// endpoint's `cacheInterval` as the time to live when it has one. A ``PrismRequestOptions``
/// cache policy changes that per request; ``responses(on:cachePolicy:options:)`` streams the
/// cached value, then the fresh one.
///
/// ## Errors
/// A status the request does not accept (non-2xx by default) throws a ``PrismHTTPError`` that
/// keeps the status, headers and body; so does a body that does not decode (with the key and
/// type), and every transport failure. Cancelling the task cancels the request and throws
/// `CancellationError`.
public final class PrismNetworkAdapter: PrismNetworkClient {
    /// Sends the requests.
    public let transport: any PrismHTTPTransport
    /// Caches GET responses; `nil` caches nothing.
    public let cache: PrismResponseCache?
    /// Adapt every request, in order, before it is sent.
    public let interceptors: [any PrismRequestInterceptor]
    /// Adds credentials and refreshes them after a 401.
    public let authenticator: (any PrismAuthenticator)?
    /// Logs each request and its outcome, with credentials redacted; `nil` logs nothing.
    public let logger: Logger?
    /// Waits between retry attempts (the continuous clock unless a test gave another).
    private let sleep: @Sendable (Duration) async throws -> Void

    /// The transport `PrismNetworkAdapter()` uses: AsyncHTTPClient on Linux, URLSession on
    /// Apple platforms.
    public static var defaultTransport: any PrismHTTPTransport {
        #if canImport(AsyncHTTPClient)
        PrismAsyncHTTPClientTransport()
        #else
        PrismURLSessionTransport()
        #endif
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: What sends requests; the platform default if omitted.
    ///   - cache: The response cache; pass `nil` to cache nothing.
    ///   - interceptors: Adapt every request before it is sent, in order.
    ///   - authenticator: Adds credentials and refreshes them after a 401.
    ///   - logger: Logs requests (at `.debug`) and failures (at `.warning`), secrets redacted.
    public convenience init(
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport,
        cache: PrismResponseCache? = PrismResponseCache(maxSize: 500),
        interceptors: [any PrismRequestInterceptor] = [],
        authenticator: (any PrismAuthenticator)? = nil,
        logger: Logger? = nil
    ) {
        self.init(
            transport: transport,
            cache: cache,
            interceptors: interceptors,
            authenticator: authenticator,
            logger: logger,
            retryClock: ContinuousClock()
        )
    }

    /// Creates a client whose retries wait on `retryClock` (a test can pass a clock it controls).
    public init<C: Clock>(
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport,
        cache: PrismResponseCache? = PrismResponseCache(maxSize: 500),
        interceptors: [any PrismRequestInterceptor] = [],
        authenticator: (any PrismAuthenticator)? = nil,
        logger: Logger? = nil,
        retryClock: C
    ) where C.Duration == Duration {
        self.transport = transport
        self.cache = cache
        self.interceptors = interceptors
        self.authenticator = authenticator
        self.logger = logger
        self.sleep = { try await retryClock.sleep(for: $0) }
    }

    // MARK: Typed requests

    /// Sends `request` with `options`, validates the status and decodes the body.
    public func request<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions
    ) async throws -> Request.Response {
        let http = try prepare(request.endpoint, options: options)
        let response = try await send(
            http,
            cachePolicy: options.cachePolicy,
            cacheInterval: request.endpoint.cacheInterval,
            retryPolicy: options.retryPolicy,
            store: options.cachePolicy != .networkOnly
        )
        return try validateAndDecode(response, for: request)
    }

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
    /// marked ``PrismNetworkUpdate/Source/network``.
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
                    let http = try prepare(request.endpoint, options: options)
                    if cachePolicy == .cacheThenNetwork, let cache, HTTPCaching.isCacheable(http) {
                        let lookup = await cache.lookup(HTTPCaching.key(for: http))
                        if let entry = lookup.entry {
                            let cached = HTTPCaching.response(from: entry, url: http.url)
                            if request.accepts(statusCode: cached.statusCode) {
                                let value = try validateAndDecode(cached, for: request)
                                let isStale = if case .stale = lookup { true } else { false }
                                continuation.yield(.init(value: value, source: .cache, isStale: isStale))
                            }
                        }
                        let response = try await send(
                            http,
                            cachePolicy: .networkOnly,
                            cacheInterval: request.endpoint.cacheInterval,
                            retryPolicy: options.retryPolicy,
                            store: true
                        )
                        continuation.yield(
                            .init(
                                value: try validateAndDecode(response, for: request), source: .network, isStale: false))
                    } else {
                        let response = try await send(
                            http,
                            cachePolicy: cachePolicy,
                            cacheInterval: request.endpoint.cacheInterval,
                            retryPolicy: options.retryPolicy,
                            store: cachePolicy != .networkOnly
                        )
                        continuation.yield(
                            .init(
                                value: try validateAndDecode(response, for: request), source: .network, isStale: false))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: Raw requests

    /// Sends `request` through the interceptors, the authenticator and the cache, and returns
    /// the response whatever its status.
    public func send(_ request: PrismHTTPRequest, options: PrismRequestOptions = PrismRequestOptions()) async throws
        -> PrismHTTPResponse
    {
        var request = request
        for (name, value) in options.headers { request.headers[name] = value }
        if let timeout = options.timeout { request.timeout = timeout }
        return try await send(
            request,
            cachePolicy: options.cachePolicy,
            cacheInterval: nil,
            retryPolicy: options.retryPolicy,
            store: options.cachePolicy != .networkOnly
        )
    }

    // MARK: Pipeline

    private func prepare(_ endpoint: some PrismNetworkEndpoint, options: PrismRequestOptions) throws -> PrismHTTPRequest
    {
        var request = try endpoint.makeHTTPRequest()
        for (name, value) in options.headers { request.headers[name] = value }
        if let timeout = options.timeout { request.timeout = timeout }
        return request
    }

    /// Interceptors, then the cache, then the network (with credentials).
    private func send(
        _ request: PrismHTTPRequest,
        cachePolicy: PrismCachePolicy?,
        cacheInterval: TimeInterval?,
        retryPolicy: (any PrismRetryPolicy)?,
        store: Bool
    ) async throws -> PrismHTTPResponse {
        var request = request
        for interceptor in interceptors { request = try await interceptor.adapt(request) }
        let network = { @Sendable [self] (request: PrismHTTPRequest) async throws -> PrismHTTPResponse in
            try await sendRetrying(request, policy: retryPolicy)
        }

        guard let cache, HTTPCaching.isCacheable(request), cachePolicy != .networkOnly || store else {
            return try await network(request)
        }
        let key = HTTPCaching.key(for: request)
        let lookup: PrismCacheLookup = cachePolicy == .networkOnly ? .miss : await cache.lookup(key)
        switch (lookup, cachePolicy) {
        case (.fresh(let entry), _):
            logger?.debug("cache hit", metadata: ["url": "\(PrismHTTPRedaction.redact(request.url))"])
            return HTTPCaching.response(from: entry, url: request.url)
        case (.stale(let entry), .cacheFirst):
            return HTTPCaching.response(from: entry, url: request.url)
        case (.stale(let entry), .staleWhileRevalidate):
            let stale = request
            Task { [self] in
                _ = try? await revalidate(
                    stale, entry: entry, key: key, cache: cache, cacheInterval: cacheInterval, network: network)
            }
            return HTTPCaching.response(from: entry, url: request.url)
        case (.stale(let entry), _):
            return try await revalidate(
                request, entry: entry, key: key, cache: cache, cacheInterval: cacheInterval, network: network)
        case (.miss, _):
            let response = try await network(request)
            if store { await storeIfAllowed(response, key: key, cache: cache, cacheInterval: cacheInterval) }
            return response
        }
    }

    private func revalidate(
        _ request: PrismHTTPRequest,
        entry: PrismCacheEntry,
        key: String,
        cache: PrismResponseCache,
        cacheInterval: TimeInterval?,
        network: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> PrismHTTPResponse {
        let conditional =
            HTTPCaching.canRevalidate(entry) ? HTTPCaching.conditional(request, revalidating: entry) : request
        let response = try await network(conditional)
        if response.statusCode == 304 {
            let ttl = HTTPCaching.ttlAfterRevalidation(response, entry: entry, cacheInterval: cacheInterval)
            let refreshed = await cache.refresh(
                key: key, headers: HTTPCaching.refreshedHeaders(from: response), ttl: ttl)
            logger?.debug("revalidated: not modified", metadata: ["url": "\(PrismHTTPRedaction.redact(request.url))"])
            return HTTPCaching.response(from: refreshed ?? entry, url: request.url)
        }
        await storeIfAllowed(response, key: key, cache: cache, cacheInterval: cacheInterval)
        return response
    }

    private func storeIfAllowed(
        _ response: PrismHTTPResponse,
        key: String,
        cache: PrismResponseCache,
        cacheInterval: TimeInterval?
    ) async {
        if let entry = HTTPCaching.entry(for: response, cacheInterval: cacheInterval) {
            await cache.set(entry, for: key)
        } else if !response.isSuccess || CacheControl(response.headers["Cache-Control"]).noStore {
            await cache.invalidate(key: key)
        }
    }

    /// The network, retried as `policy` says: a transient status (408, 429, 5xx) counts as a
    /// failed attempt; when the attempts are spent the last response is an error that lists them.
    private func sendRetrying(_ request: PrismHTTPRequest, policy: (any PrismRetryPolicy)?) async throws
        -> PrismHTTPResponse
    {
        guard let policy else { return try await sendOverNetwork(request) }
        return try await Retrying.run(policy: policy, sleep: sleep) {
            let response = try await sendOverNetwork(request)
            let failure = PrismHTTPError.unacceptable(response, method: request.method)
            if !response.isSuccess, PrismRetryFailure(error: failure).isTransient { throw failure }
            return response
        }
    }

    /// Credentials, the transport, and one retry after a refresh when credentials were rejected.
    private func sendOverNetwork(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        guard let authenticator else { return try await transmit(request) }
        let (authorized, credential) = try await authenticator.authorize(request)
        let response = try await transmit(authorized)
        guard authenticator.isAuthenticationFailure(response) else { return response }
        try await authenticator.refresh(replacing: credential)
        let (retried, _) = try await authenticator.authorize(request)
        return try await transmit(retried)
    }

    private func transmit(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        do {
            return try await transmitLogged(request)
        } catch var error as PrismHTTPError {
            if error.method == nil { error.method = request.method }
            throw error
        }
    }

    private func transmitLogged(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        guard let logger else { return try await transport.send(request) }
        let start = ContinuousClock.now
        let url = PrismHTTPRedaction.redact(request.url)
        logger.debug(
            "\(request.method.rawValue) \(url)",
            metadata: ["headers": "\(PrismHTTPRedaction.redact(request.headers).dictionary)"]
        )
        do {
            let response = try await transport.send(request)
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
        } catch {
            if !(error is CancellationError) {
                logger.warning("\(request.method.rawValue) \(url) failed", metadata: ["error": "\(error)"])
            }
            throw error
        }
    }

    private func validateAndDecode<Request: PrismNetworkRequest>(
        _ response: PrismHTTPResponse,
        for request: Request
    ) throws -> Request.Response {
        guard request.accepts(statusCode: response.statusCode) else {
            throw PrismHTTPError.unacceptable(response, method: request.endpoint.method)
        }
        do {
            return try request.decode(data: response.body, with: Self.decoder(for: Request.Response.self))
        } catch let error as PrismHTTPError {
            throw error
        } catch {
            throw PrismHTTPError.decoding(error, response: response, type: Request.Response.self)
        }
    }

    private static func decoder<Response>(for type: Response.Type) -> JSONDecoder {
        (type as? any PrismEntity.Type)?.decoder ?? PrismJSON.sharedDecoder
    }
}
