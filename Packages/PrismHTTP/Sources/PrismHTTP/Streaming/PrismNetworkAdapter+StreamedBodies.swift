import Foundation
import Logging
import PrismSupport

/// Streamed bodies enter the pipeline as every request does: build (1), intercept, authorize
/// and validate (2-4), then the retry loop (6) with a streaming transmit; never the cache (5, 7),
/// never the decode (8): the caller reads the body.
extension PrismNetworkAdapter {
    /// Sends the endpoint's request and returns as soon as the status and headers arrive; read the
    /// body from ``PrismHTTPStreamedResponse/body`` as it arrives.
    ///
    /// ```swift
    /// let response = try await client.stream(on: EventsEndpoint())
    /// for try await line in response.body.lines() { print(line) }
    /// ```
    ///
    /// Interceptors, the authenticator (a 401 before the body refreshes the credentials and
    /// sends again, once), redirects, the retry policy (for the head: a transient status or a
    /// failure before it) and logging apply as to any request. The request's timeout bounds the
    /// head; `idleTimeout` (the request's timeout when nil) bounds each wait for more of the
    /// body, however long the whole stream lasts. The status is not checked: look at
    /// ``PrismHTTPStreamedResponse/statusCode``.
    public func stream(
        on endpoint: some PrismNetworkEndpoint,
        options: PrismRequestOptions = PrismRequestOptions(),
        idleTimeout: Duration? = nil
    ) async throws -> PrismHTTPStreamedResponse {
        let built = try build(endpoint, options: options)
        let prepared = try await prepare(built: built.request, options: options, fromEndpoint: true)
        return try await stream(prepared, idleTimeout: idleTimeout)
    }

    /// Sends `request` with `options` and returns as soon as the status and headers arrive: the
    /// raw form of ``stream(on:options:idleTimeout:)``.
    public func stream(
        _ request: PrismHTTPRequest,
        options: PrismRequestOptions = PrismRequestOptions(),
        idleTimeout: Duration? = nil
    ) async throws -> PrismHTTPStreamedResponse {
        try await stream(try await prepare(request, options: options), idleTimeout: idleTimeout)
    }

    /// Sends `prepared` (stage 6, streaming) and returns as soon as the status and headers arrive.
    public func stream(_ prepared: PrismPreparedRequest, idleTimeout: Duration?) async throws
        -> PrismHTTPStreamedResponse
    {
        let idle = idleTimeout ?? prepared.request.timeout ?? transport.configuration.requestTimeout
        try RequestValidation.validateTimeout(idle, what: "The idle timeout", url: prepared.request.url)
        return try await retrying(
            prepared, first: prepared, revalidating: nil,
            attempt: { try await self.streamAttempt($0, idleTimeout: idle) },
            response: \.head, discard: { $0.body.cancel() })
    }

    /// One attempt: the head of `prepared`, and when the authenticator says the credentials were
    /// refused, a refresh, a new preparation and one more request (the refused body unread).
    private func streamAttempt(_ prepared: PrismPreparedRequest, idleTimeout: Duration) async throws
        -> PrismHTTPStreamedResponse
    {
        let response = try await transmitStream(prepared.request, idleTimeout: idleTimeout)
        guard let authenticator, authenticator.isAuthenticationFailure(response.head) else { return response }
        response.body.cancel()
        let again = try await refreshed(prepared, by: authenticator, revalidating: nil)
        return try await transmitStream(again.request, idleTimeout: idleTimeout)
    }

    /// Opens one stream through the transport (which follows redirects), its head logged when the
    /// client has a logger.
    private func transmitStream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws
        -> PrismHTTPStreamedResponse
    {
        let start = ContinuousClock.now
        let url = PrismHTTPRedaction.redact(request.url)
        logger?.debug(
            "\(request.method.rawValue) \(url) (streamed)",
            metadata: ["headers": "\(PrismHTTPRedaction.redact(request.headers).dictionary)"])
        do {
            var response = try await openTransportStream(request, idleTimeout: idleTimeout)
            response.request = request
            logger?.debug(
                "\(response.statusCode) \(request.method.rawValue) \(url) (head of a stream)",
                metadata: [
                    "milliseconds": "\(Int(DurationMath.seconds(ContinuousClock.now - start) * 1_000))",
                    "headers": "\(PrismHTTPRedaction.redact(response.headers).dictionary)",
                ])
            return response
        } catch var error as PrismHTTPError {
            if error.method == nil { error.method = request.method }
            logFailure(error, of: request)
            throw error
        }
    }

    private func openTransportStream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws
        -> PrismHTTPStreamedResponse
    {
        #if AsyncHTTPClient && os(Linux)
        if let transport = transport as? PrismAsyncHTTPClientTransport {
            return try await transport.stream(checked: request, idleTimeout: idleTimeout)
        }
        #endif
        return try await transport.stream(request, idleTimeout: idleTimeout)
    }
}
