import PrismCache

/// A request ready for the transport: built, adapted by the interceptors, with the
/// authenticator's credentials, and checked.
///
/// ``PrismNetworkClient/prepare(_:options:)`` makes one; ``PrismNetworkClient/send(_:)``
/// sends it. Preparing once and then sending lets a caller look at the request as it will go out
/// (PrismGraphQL keys its cache on it) without running the interceptors and the authenticator a
/// second time: the first attempt sends exactly this request, and each later attempt (a retry,
/// the resend after a refresh) is prepared again from ``original``.
///
/// ```swift
/// let prepared = try await client.prepare(PrismHTTPRequest(url: url), options: PrismRequestOptions())
/// print(prepared.request.headers["Authorization"] != nil)
/// let response = try await client.send(prepared)
/// ```
public struct PrismPreparedRequest: Sendable {
    /// The request as it was built, with the options' headers and timeout: what every later
    /// attempt is prepared from again.
    public let original: PrismHTTPRequest
    /// The request as it will be sent: after every interceptor, with credentials, checked.
    public let request: PrismHTTPRequest
    /// What identifies the credentials the request carries, for a refresh
    /// (``PrismAuthenticator/refresh(replacing:)``); nil without an authenticator.
    public let credential: String?
    /// How it is sent: cache policy, retry policy, timeout and headers.
    public let options: PrismRequestOptions
    /// The endpoint's time to live for a 2xx response (its `cacheInterval`), when it has one.
    var cacheInterval: Duration?
    /// Whether ``original`` was built from an endpoint, whose URL is checked as it is built.
    var isFromEndpoint = false

    /// Creates a prepared request; a client's ``PrismNetworkClient/prepare(_:options:)`` makes
    /// them, a test double may make its own.
    public init(
        original: PrismHTTPRequest,
        request: PrismHTTPRequest,
        credential: String? = nil,
        options: PrismRequestOptions = PrismRequestOptions()
    ) {
        self.original = original
        self.request = request
        self.credential = credential
        self.options = options
    }

    /// The key of ``request`` in an HTTP cache: its method, its URL and a SHA-256 of the
    /// credentials it carries (never the credentials themselves), so that a response to one
    /// credential is never served to another.
    public var cacheKey: PrismCacheKey { PrismCacheKey.http(for: request) }
}

extension PrismHTTPRequest {
    /// The request with `options`' headers (replacing fields of the same name) and timeout.
    func applying(_ options: PrismRequestOptions) -> PrismHTTPRequest {
        guard !options.headers.isEmpty || options.timeout != nil else { return self }
        var request = self
        for (name, value) in options.headers { request.headers[name] = value }
        if let timeout = options.timeout { request.timeout = timeout }
        return request
    }
}
