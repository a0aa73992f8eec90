import Logging
import PrismCache

/// Sends requests through Prism's request pipeline: the seam between an app (or PrismGraphQL) and
/// the client that sends.
///
/// ```swift
/// let client: any PrismNetworkClient = PrismNetworkAdapter()
/// let user = try await client.request(on: GetUserRequest(login: "octocat"))
/// ```
///
/// A request crosses the pipeline in two steps: ``prepare(_:options:)`` (the interceptors, the
/// authenticator's credentials, the checks) and ``send(_:)`` (the cache, the retry loop over the
/// transport, the cache again). Typed requests, raw requests, uploads, GraphQL operations and
/// the WebSocket upgrade of GraphQL subscriptions all go through these two steps.
///
/// ``PrismNetworkAdapter`` is the implementation that ships. A test double of your own needs only
/// ``send(_:)``: typed requests, uploads and every PrismGraphQL operation (its cache keyed on the
/// request as prepared, uploads, subscriptions' authentication) then go through it.
///
/// ```swift
/// struct CannedClient: PrismNetworkClient {
///     func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
///         PrismHTTPResponse(statusCode: 200, body: Data(#"{"login":"octocat"}"#.utf8), url: prepared.request.url)
///     }
/// }
/// ```
public protocol PrismNetworkClient: Sendable {
    /// Sends `request` with `options` and returns its decoded response.
    ///
    /// The default builds the endpoint's request, prepares and sends it, then checks the status
    /// (``PrismNetworkRequest/accepts(statusCode:)``) and decodes the body.
    ///
    /// - Throws: ``PrismHTTPError`` (a status the request does not accept, a decoding failure,
    ///   a transport failure...), or `CancellationError` when the task is cancelled.
    func request<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions
    ) async throws -> Request.Response

    /// Sends `request` with `options` and returns its decoded response with where it came from
    /// (``PrismResponseSource``: the network, the cache fresh, revalidated, or stale and why),
    /// its age, status and headers.
    ///
    /// The default sends as ``request(on:options:)`` does.
    func response<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions
    ) async throws -> PrismNetworkResponse<Request.Response>

    /// The first stages of the pipeline: `options`' headers and timeout, then the interceptors,
    /// the authenticator's credentials and the checks (URL, header names and values, timeout).
    ///
    /// The default applies the options and checks the request; it has no interceptors and no
    /// credentials.
    func prepare(_ request: PrismHTTPRequest, options: PrismRequestOptions) async throws -> PrismPreparedRequest

    /// The rest of the pipeline: the cache lookup, the retry loop over the transport (redirects
    /// included), the cache store. Returns the response whatever its status.
    func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse

    /// Sends `prepared` with `body` streamed, reporting the bytes sent so far to `progress`;
    /// never cached or retried.
    ///
    /// The default collects the body and calls ``send(_:)`` with it.
    func upload(
        _ prepared: PrismPreparedRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse

    /// Renews the credentials identified by `credential` after they were refused outside an
    /// HTTP exchange (a WebSocket closed with 4401 or 4403); returns false when there is nothing
    /// to renew (no authenticator). The default returns false.
    func refreshCredentials(replacing credential: String?) async throws -> Bool

    /// Where the client logs, with secrets redacted; PrismGraphQL's subscriptions log there
    /// too. The default is nil.
    var logger: Logger? { get }

    /// The client's response cache, which PrismGraphQL's client shares by default; the default is
    /// nil (nothing cached).
    var cache: PrismResponseCache? { get }

    /// The TLS settings of the client's connections, which PrismGraphQL's subscription socket
    /// applies to its own; the default is nil (the system's trust, no pins, no client
    /// certificate).
    var tlsConfiguration: PrismTLSConfiguration? { get }

    /// What hears of the client's attempts and operations (metrics, tracing), which PrismGraphQL
    /// tells of each query and mutation; the default is none.
    var instruments: [any PrismNetworkInstrument] { get }

    /// Sends `prepared` and returns as soon as the status and headers arrive; the body is read
    /// from the response's ``PrismHTTPStreamedResponse/body`` as it arrives (never cached).
    /// `idleTimeout` bounds each wait for more of the body; nil means the request's timeout.
    ///
    /// The default sends `prepared` with ``send(_:)`` and streams the whole body in one chunk.
    func stream(_ prepared: PrismPreparedRequest, idleTimeout: Duration?) async throws -> PrismHTTPStreamedResponse
}

extension PrismNetworkClient {
    /// Sends `prepared` with ``send(_:)`` and streams the whole body in one chunk.
    public func stream(_ prepared: PrismPreparedRequest, idleTimeout: Duration?) async throws
        -> PrismHTTPStreamedResponse
    {
        let response = try await send(prepared)
        return PrismHTTPStreamedResponse(
            statusCode: response.statusCode, headers: response.headers, url: response.url,
            request: response.request ?? prepared.request, body: PrismHTTPBodyStream(data: response.body))
    }

    /// Builds the endpoint's request, prepares and sends it, checks the status and decodes the body.
    public func request<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions
    ) async throws -> Request.Response {
        let built = try request.endpoint.makeHTTPRequest()
        let response = try await send(try await prepare(built, options: options))
        return try PrismNetworkAdapter.validateAndDecode(response, for: request)
    }

    /// Sends `request` with `options` through ``send(_:)``; returns the decoded value with the
    /// response's source, age, status and headers.
    public func response<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismNetworkResponse<Request.Response> {
        let built = try request.endpoint.makeHTTPRequest()
        let response = try await send(try await prepare(built, options: options))
        return PrismNetworkResponse(
            value: try PrismNetworkAdapter.validateAndDecode(response, for: request), response: response)
    }

    /// `request` with `options`' headers and timeout, checked: no interceptors, no credentials.
    public func prepare(_ request: PrismHTTPRequest, options: PrismRequestOptions) async throws
        -> PrismPreparedRequest
    {
        let built = request.applying(options)
        try RequestValidation.validate(built)
        return PrismPreparedRequest(original: built, request: built, options: options)
    }

    /// Collects `body` and sends it with `prepared` through ``send(_:)``, uncached and once,
    /// reporting all of it to `progress` when sent.
    public func upload(
        _ prepared: PrismPreparedRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        try body.validate()
        var request = prepared.request
        request.body = try await body.collect()
        var options = prepared.options
        options.cachePolicy = .networkOnly
        // A body collected from a stream is sent once: the upload's own rules (none) apply.
        options.retryPolicy = PrismNoRetry()
        let response = try await send(
            PrismPreparedRequest(
                original: prepared.original, request: request, credential: prepared.credential, options: options))
        progress(body.length)
        return response
    }

    /// Nothing to renew: false.
    public func refreshCredentials(replacing credential: String?) async throws -> Bool { false }

    /// No logger.
    public var logger: Logger? { nil }

    /// No cache.
    public var cache: PrismResponseCache? { nil }

    /// No instruments.
    public var instruments: [any PrismNetworkInstrument] { [] }

    /// No TLS settings of its own.
    public var tlsConfiguration: PrismTLSConfiguration? { nil }

    /// Prepares and sends `request` with `options`; the response whatever its status.
    public func send(_ request: PrismHTTPRequest, options: PrismRequestOptions = PrismRequestOptions())
        async throws -> PrismHTTPResponse
    {
        try await send(try await prepare(request, options: options))
    }

    /// Uploads `body` with `request` through the whole pipeline (interceptors, authenticator,
    /// logging), reporting the bytes sent so far to `progress`.
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
        options: PrismRequestOptions = PrismRequestOptions(),
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void = { _ in }
    ) async throws -> PrismHTTPResponse {
        try body.validate()
        return try await upload(try await prepare(request, options: options), body: body, progress: progress)
    }

    /// Sends `request` and returns its decoded response.
    public func request<Request: PrismNetworkRequest>(on request: Request) async throws -> Request.Response {
        try await self.request(on: request, options: PrismRequestOptions())
    }

    /// Sends `request`, retrying failed attempts as `retryPolicy` says, and returns its decoded
    /// response.
    ///
    /// ```swift
    /// let user = try await client.request(
    ///     on: GetUserRequest(login: "octocat"),
    ///     retryPolicy: PrismExponentialBackoff(maxAttempts: 4)
    /// )
    /// ```
    public func request<Request: PrismNetworkRequest>(
        on request: Request,
        retryPolicy: some PrismRetryPolicy
    ) async throws -> Request.Response {
        try await self.request(on: request, options: PrismRequestOptions(retryPolicy: retryPolicy))
    }

    /// Sends `request` using the cache as `cachePolicy` says, and returns its decoded response.
    public func request<Request: PrismNetworkRequest>(
        on request: Request,
        cachePolicy: PrismCachePolicy
    ) async throws -> Request.Response {
        try await self.request(on: request, options: PrismRequestOptions(cachePolicy: cachePolicy))
    }
}

/// A decoded response and what its HTTP response said: where it came from, how old it is, its
/// status and headers.
///
/// ```swift
/// let result = try await client.response(on: GetUserRequest(login: "octocat"))
/// if case .stale = result.source { print("Showing saved data, \(result.age ?? .zero) old") }
/// let user = result.value
/// ```
public struct PrismNetworkResponse<Value: Sendable>: Sendable {
    /// The decoded body.
    public let value: Value
    /// Where the response came from.
    public let source: PrismResponseSource
    /// For a response from the cache, its age; nil for one from the network.
    public let age: Duration?
    /// The status code (a 206 for a range served from the cache, say).
    public let statusCode: Int
    /// The header fields (with `Age` for a response from the cache).
    public let headers: PrismHTTPHeaders

    /// `value`, decoded from `response`.
    public init(value: Value, response: PrismHTTPResponse) {
        self.value = value
        self.source = response.source
        self.age = response.age
        self.statusCode = response.statusCode
        self.headers = response.headers
    }
}

/// How one request is sent: its cache policy, timeout and extra headers.
public struct PrismRequestOptions: Sendable {
    /// How the request uses the cache; `nil` follows HTTP: fresh responses are served from the
    /// cache, stale ones are revalidated, and responses are stored as their headers (and the
    /// endpoint's `cacheInterval`) allow.
    public var cachePolicy: PrismCachePolicy?
    /// A timeout that replaces the endpoint's.
    public var timeout: Duration?
    /// Header fields added to (and replacing those of) the endpoint's.
    public var headers: [String: String]
    /// Retries failed attempts as the policy says (transient failures of idempotent methods,
    /// for ``PrismExponentialBackoff``); `nil` uses the client's own policy
    /// (``PrismNetworkAdapter/retryPolicy``), or sends once when it has none; ``PrismNoRetry``
    /// sends once whatever the client's.
    public var retryPolicy: (any PrismRetryPolicy)?

    /// Creates options; the defaults follow HTTP and send once.
    public init(
        cachePolicy: PrismCachePolicy? = nil,
        timeout: Duration? = nil,
        headers: [String: String] = [:],
        retryPolicy: (any PrismRetryPolicy)? = nil
    ) {
        self.cachePolicy = cachePolicy
        self.timeout = timeout
        self.headers = headers
        self.retryPolicy = retryPolicy
    }
}

/// One response from ``PrismNetworkAdapter/responses(on:cachePolicy:options:)``: the value,
/// and whether it came from the cache or the network.
public struct PrismNetworkUpdate<Response: Sendable>: Sendable {
    /// Where a value came from.
    public enum Source: Sendable, Hashable {
        /// The response cache (possibly stale).
        case cache
        /// The network (or a `304` that confirmed the cached value).
        case network
    }

    /// The decoded response.
    public let value: Response
    /// Where it came from.
    public let source: Source
    /// Whether a cached value was past its time to live.
    public let isStale: Bool
}
