import Foundation

/// A response whose status and headers have arrived and whose body is read as it arrives.
///
/// ```swift
/// let response = try await client.stream(on: LogEndpoint())
/// guard response.isSuccess else { throw LogError.status(response.statusCode) }
/// for try await line in response.body.lines() {
///     print(line)
/// }
/// ```
///
/// Unlike ``PrismHTTPResponse``, a streamed response is not bounded by the transport's
/// `maximumResponseBytes` and never goes through the response cache: it is for bodies read in
/// pieces (events, lines, exports, files). Its status is not checked: look at ``statusCode``.
public struct PrismHTTPStreamedResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields.
    public var headers: PrismHTTPHeaders
    /// The URL that answered (after redirects).
    public var url: URL
    /// The request as it was sent, when the client or transport recorded it.
    public var request: PrismHTTPRequest?
    /// The body, read once.
    public let body: PrismHTTPBodyStream

    /// A streamed response; `body` is read as the caller reads it.
    public init(
        statusCode: Int, headers: PrismHTTPHeaders = [:], url: URL, request: PrismHTTPRequest? = nil,
        body: PrismHTTPBodyStream
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.request = request
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }

    /// The status and headers as a ``PrismHTTPResponse`` with an empty body: what an
    /// authenticator, a retry policy or a log looks at.
    public var head: PrismHTTPResponse {
        PrismHTTPResponse(statusCode: statusCode, headers: headers, url: url, request: request)
    }

    /// The whole response, its body read into memory up to `maximumBytes`.
    public func collect(upTo maximumBytes: Int) async throws -> PrismHTTPResponse {
        var response = head
        do {
            response.body = try await body.collect(upTo: maximumBytes)
        } catch var error as PrismHTTPError {
            if error.url == nil { error.url = url }
            if error.statusCode == nil { error.statusCode = statusCode }
            throw error
        }
        return response
    }
}
