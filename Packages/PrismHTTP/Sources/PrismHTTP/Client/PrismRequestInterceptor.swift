/// Adapts every request before it is sent: adds headers, rewrites URLs, signs bodies.
///
/// ```swift
/// struct UserAgent: PrismRequestInterceptor {
///     func adapt(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest {
///         var request = request
///         request.headers["User-Agent"] = "MyApp/1.0"
///         return request
///     }
/// }
/// let client = PrismNetworkAdapter(interceptors: [UserAgent()])
/// ```
///
/// Interceptors run in order, after the endpoint is built and before credentials are added
/// and the request is sent; a thrown error fails the request.
public protocol PrismRequestInterceptor: Sendable {
    /// Returns `request`, adapted.
    func adapt(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest
}

/// An interceptor written as a closure.
///
/// ```swift
/// let staging = PrismInterceptor { request in
///     var request = request
///     request.url = request.url.replacingHost(with: "staging.example.com")
///     return request
/// }
/// ```
public struct PrismInterceptor: PrismRequestInterceptor {
    private let body: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPRequest

    /// Creates an interceptor that runs `adapt` on every request.
    public init(_ adapt: @escaping @Sendable (PrismHTTPRequest) async throws -> PrismHTTPRequest) {
        self.body = adapt
    }

    /// Runs the closure.
    public func adapt(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest {
        try await body(request)
    }

    /// An interceptor that sets `headers` on every request (replacing fields of the same name).
    public static func headers(_ headers: [String: String]) -> PrismInterceptor {
        PrismInterceptor { request in
            var request = request
            for (name, value) in headers { request.headers[name] = value }
            return request
        }
    }
}
