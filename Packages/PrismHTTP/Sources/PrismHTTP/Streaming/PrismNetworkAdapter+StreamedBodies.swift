import Foundation

/// Streamed bodies enter the pipeline as every request does: build (1), intercept, authorize
/// and validate (2-4), then the retry loop (6) around the same attempt as a whole response's,
/// opening a stream through the channel. Never the cache's lookup or store (5, 7), though an
/// unsafe method answered without an error invalidates stored responses as any request does;
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
            attempt: { [channel] prepared, resendCount in
                try await self.attempt(prepared, resendCount: resendCount, revalidating: nil) {
                    try await channel.stream($0, resendCount: $1, idleTimeout: idle)
                }.answer
            },
            response: \.head, discard: { $0.discard() })
    }
}
