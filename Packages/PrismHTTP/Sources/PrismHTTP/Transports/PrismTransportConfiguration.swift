/// Settings every transport that ships with Prism honours.
///
/// ```swift
/// let transport = PrismURLSessionTransport(
///     configuration: PrismTransportConfiguration(requestTimeout: .seconds(15), redirects: .sameOrigin())
/// )
/// ```
public struct PrismTransportConfiguration: Sendable, Hashable {
    /// How long to wait for a connection to open.
    public var connectTimeout: Duration
    /// How long to wait for the whole response, body included, when the request sets no timeout:
    /// a server that sends its headers and then stalls or sends its body a byte at a time fails
    /// the request with `timedOut` when it passes. For an upload it bounds each pause while the
    /// body is sent, then the whole response once the body is out.
    public var requestTimeout: Duration
    /// The most connections kept open to one host. A request that finds them all in use waits
    /// for one, within its timeout.
    public var maximumConnectionsPerHost: Int
    /// The largest response body accepted, in bytes; a larger one is a `responseTooLarge` error,
    /// raised as soon as the body passes the limit (or the `Content-Length` announces more).
    public var maximumResponseBytes: Int
    /// Which redirects are followed, and how far.
    public var redirects: PrismRedirectPolicy
    /// Trust roots, pinned keys, the client certificate and the oldest TLS version
    /// (``PrismTLSConfiguration``); the system's trust and TLS 1.2 by default.
    public var tls: PrismTLSConfiguration

    /// Creates settings; the defaults suit most apps.
    public init(
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(60),
        maximumConnectionsPerHost: Int = 8,
        maximumResponseBytes: Int = 256 * 1_024 * 1_024,
        redirects: PrismRedirectPolicy = .default,
        tls: PrismTLSConfiguration = .default
    ) {
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.maximumResponseBytes = maximumResponseBytes
        self.redirects = redirects
        self.tls = tls
    }

    /// The defaults.
    public static var `default`: Self { Self() }
}
