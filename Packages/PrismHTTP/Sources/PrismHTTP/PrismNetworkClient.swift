import PrismCache

/// Sends typed requests and returns their decoded responses.
///
/// ```swift
/// let client: any PrismNetworkClient = PrismNetworkAdapter()
/// let user = try await client.request(on: GetUserRequest(login: "octocat"))
/// ```
///
/// ``PrismNetworkAdapter`` is the implementation that ships; a test double of your own can
/// conform to stand in for it in your app's tests.
public protocol PrismNetworkClient: Sendable {
    /// Sends `request` with `options` and returns its decoded response.
    ///
    /// - Throws: ``PrismHTTPError`` (a non-2xx status, a decoding failure, a transport
    ///   failure...), or `CancellationError` when the task is cancelled.
    func request<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions
    ) async throws -> Request.Response
}

extension PrismNetworkClient {
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
    /// for ``PrismExponentialBackoff``); `nil` sends once.
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
