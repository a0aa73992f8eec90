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

    /// The settings the transport applies; PrismGraphQL's subscription socket applies their TLS
    /// settings too. The default is ``PrismTransportConfiguration/default``.
    var configuration: PrismTransportConfiguration { get }

    /// Sends `request`, following redirects as the configuration says, and returns as soon as
    /// the status and headers arrive; the body is read from the response's
    /// ``PrismHTTPStreamedResponse/body`` as it arrives.
    ///
    /// The request's timeout (or the configuration's) bounds the wait for the head; after it,
    /// `idleTimeout` bounds each wait for more of the body, however long the whole takes.
    /// Leaving the body's loop or cancelling the reading task closes the connection.
    ///
    /// The default, for transports that cannot stream, sends the request with ``send(_:)`` and
    /// streams the whole body in one chunk (so `maximumResponseBytes` bounds it). A transport
    /// that wraps another (to log, to count) should forward this to the one it wraps, or its
    /// streams, events and downloads are collected whole before the first byte is read.
    func stream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse
}

extension PrismHTTPTransport {
    /// The defaults.
    public var configuration: PrismTransportConfiguration { .default }

    /// Sends `request` with ``send(_:)`` and streams its whole body in one chunk.
    public func stream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse {
        let response = try await send(request)
        return PrismHTTPStreamedResponse(
            statusCode: response.statusCode, headers: response.headers, url: response.url, request: response.request,
            body: PrismHTTPBodyStream(data: response.body))
    }
}
