/// What sends requests for a ``PrismNetworkAdapter``: AsyncHTTPClient, URLSession, or your own.
///
/// A transport sends one ``PrismHTTPRequest`` and returns the ``PrismHTTPResponse`` whatever its
/// status (deciding which statuses are errors is the client's job). It throws
/// `CancellationError` when the calling task is cancelled (and cancels the request), and a
/// ``PrismHTTPError`` (`timedOut`, `connectionFailed`, `responseTooLarge`, `transportFailed`) for
/// everything else.
///
/// Two ship with Prism: ``PrismAsyncHTTPClientTransport`` (Linux, the default there) and
/// ``PrismURLSessionTransport`` (the default on Apple platforms, available on Linux too).
/// Plug your own to route requests elsewhere, or to fake a server in your app's unit tests.
public protocol PrismHTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse

    /// Sends `request` with `body` streamed, reporting to `progress` the bytes sent so far.
    ///
    /// A default collects the body and calls ``send(_:)``; implement it to report real
    /// progress and to stream large bodies.
    func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse
}

/// Settings every transport honours.
public struct PrismTransportConfiguration: Sendable, Hashable {
    /// How long to wait for a connection to open.
    public var connectTimeout: Duration
    /// How long to wait for the whole response when the request sets no timeout.
    public var requestTimeout: Duration
    /// The most connections kept open to one host.
    public var maximumConnectionsPerHost: Int
    /// The largest response body accepted, in bytes; a larger one is a `responseTooLarge` error.
    public var maximumResponseBytes: Int

    /// Creates settings; the defaults suit most apps.
    public init(
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(60),
        maximumConnectionsPerHost: Int = 8,
        maximumResponseBytes: Int = 256 * 1_024 * 1_024
    ) {
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// The defaults.
    public static var `default`: Self { Self() }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
