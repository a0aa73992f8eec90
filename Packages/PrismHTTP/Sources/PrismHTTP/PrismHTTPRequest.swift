import Foundation

/// An HTTP request as a transport sends it: what an endpoint becomes once its URL, headers and
/// body are built, and what interceptors adapt.
public struct PrismHTTPRequest: Sendable, Hashable {
    /// The full URL, query included.
    public var url: URL
    /// The method.
    public var method: PrismNetworkMethod
    /// The header fields.
    public var headers: PrismHTTPHeaders
    /// The body, if any.
    public var body: Data?
    /// How long the transport waits for the whole response, body and redirects included; `nil`
    /// uses the transport's default. For an upload it bounds each pause while the body is sent,
    /// then the whole response once the body is out. It must be above zero and at most a year
    /// (else the request fails with `invalidTimeout`).
    public var timeout: Duration?

    /// Creates a request.
    public init(
        url: URL,
        method: PrismNetworkMethod = .get,
        headers: PrismHTTPHeaders = [:],
        body: Data? = nil,
        timeout: Duration? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An HTTP response as a transport received it.
public struct PrismHTTPResponse: Sendable, Hashable {
    /// The status code.
    public var statusCode: Int
    /// The header fields.
    public var headers: PrismHTTPHeaders
    /// The body (empty when there was none).
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: URL
    /// The request this answers, as the client's pipeline last sent it: after the interceptors,
    /// with the credentials it carried (the refreshed ones after a 401); for a cache hit, the
    /// request the entry was looked up for. `nil` for a response a transport returned on its own
    /// or that was made by hand.
    public var request: PrismHTTPRequest?

    /// Creates a response.
    public init(
        statusCode: Int, headers: PrismHTTPHeaders = [:], body: Data = Data(), url: URL,
        request: PrismHTTPRequest? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.request = request
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
}
