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
/// URLSession elsewhere), a response cache of 500 entries and 32 MiB, and no interceptors or
/// logging.
///
/// ## Caching
/// GET responses go through ``cache`` as HTTP says (`Cache-Control: max-age`, `no-cache`,
/// `must-revalidate`, `no-store`, `Vary`; `ETag` and `Last-Modified` revalidated with
/// `If-None-Match` and `If-Modified-Since`, a `304` refreshing the entry and returning its body),
/// with the endpoint's `cacheInterval` as the time to live of a 2xx when it has one. A
/// ``PrismRequestOptions`` cache policy changes that per request; ``responses(on:cachePolicy:options:)``
/// streams the cached value, then the fresh one.
///
/// Entries are keyed on the request as it is sent, after the interceptors and the
/// authenticator, credentials included (a digest of `Authorization`, `Cookie` and every header
/// ``PrismHTTPRedaction`` treats as secret): a response to one user or token is never served to
/// another. A response that says `no-cache` or `must-revalidate` is never served stale without
/// asking the server, whatever the policy. Call `cache?.removeAll()` when the user signs out.
///
/// Beside a cached body the client keeps the value decoded from it, so that a hit of the same
/// request type returns it without decoding, when the decode depends on nothing but the body
/// and the type: the default ``PrismEntity`` decode, or a request type that says so with
/// ``PrismNetworkRequest/decodedResponseReuse``. A request type that decodes differently is
/// never handed another's value.
///
/// ## Errors
/// A status the request does not accept (non-2xx by default) throws a ``PrismHTTPError`` that
/// keeps the status, headers and body; so does a body that does not decode (with the key and
/// type), and every transport failure. Headers with control characters, a URL that is not
/// `http` or `https`, and a timeout or cache interval that is not a sensible number of seconds
/// are errors before anything is sent. Cancelling the task cancels the request and throws
/// `CancellationError`.
///
/// ## Logging
/// With a `logger`, every exchange is logged at `.debug` and every failure at `.warning`: the
/// URL with its credentials redacted, redacted headers, the status, and for a failure only its
/// code. No credential, query secret, header value of a secret header or error text reaches a
/// log line.
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
    let sleep: @Sendable (Duration) async throws -> Void

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
        let (http, cacheInterval) = try prepare(request.endpoint, options: options)
        let delivery = try await deliver(
            http,
            cachePolicy: options.cachePolicy,
            cacheInterval: cacheInterval,
            retryPolicy: options.retryPolicy,
            store: options.cachePolicy != .networkOnly,
            decodedBy: DecodedReuse.identity(of: Request.self)
        )
        return try await value(of: delivery, for: request)
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

    /// Uploads `body` with `request` through the interceptors, the authenticator and the
    /// logging, like every other request, reporting the bytes sent so far to `progress`.
    ///
    /// ```swift
    /// let response = try await client.upload(request, body: .multipart(form)) { sent in
    ///     print("\(sent) bytes sent")
    /// }
    /// ```
    ///
    /// The body is checked first (``PrismUploadBody/validate()``): a file part that cannot be
    /// read fails before anything is sent. After a 401 the authenticator refreshes and the body
    /// is sent again, once. Uploads are never cached or retried.
    public func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void = { _ in }
    ) async throws -> PrismHTTPResponse {
        try body.validate()
        let adapted = try await adapt(request)
        return try await attempt(adapted, authorization: nil) { [transport] request in
            try await transport.upload(request, body: body, progress: progress)
        }.response
    }

    // MARK: Preparing

    /// The endpoint as a request with `options` applied, and its cache interval, checked.
    private func prepare(_ endpoint: some PrismNetworkEndpoint, options: PrismRequestOptions) throws
        -> (PrismHTTPRequest, Duration?)
    {
        var request = try endpoint.makeHTTPRequest()
        for (name, value) in options.headers { request.headers[name] = value }
        if let timeout = options.timeout { request.timeout = timeout }
        let cacheInterval = try endpoint.cacheInterval.map { seconds throws(PrismHTTPError) in
            try RequestValidation.cacheInterval(seconds: seconds, url: request.url)
        }
        return (request, cacheInterval)
    }

    /// `request` as every interceptor adapted it, checked (URL, headers, timeout).
    func adapt(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest {
        var request = request
        for interceptor in interceptors { request = try await interceptor.adapt(request) }
        do {
            try RequestValidation.validate(request)
        } catch {
            logFailure(error, of: request)
            throw error
        }
        return request
    }

    /// `request` with the authenticator's credentials (as is without an authenticator).
    func authorize(_ request: PrismHTTPRequest) async throws -> Authorization {
        guard let authenticator else { return Authorization(request: request, credential: nil) }
        do {
            let (authorized, credential) = try await authenticator.authorize(request)
            return Authorization(request: authorized, credential: credential)
        } catch let error as PrismHTTPError {
            logFailure(error, of: request)
            throw error
        }
    }

    /// The request as it would be sent now: after the interceptors and with the
    /// authenticator's credentials. PrismGraphQL keys its cache on it.
    @_spi(PrismInternals)
    public func preparedForSending(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest {
        try await authorize(try await adapt(request)).request
    }
}

/// A request with credentials, and what identifies them for a refresh.
struct Authorization: Sendable {
    var request: PrismHTTPRequest
    var credential: String?
}
