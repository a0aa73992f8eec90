import Foundation
import PrismSupport

/// Everything that can go wrong with a request, with the context a caller needs: the status
/// code, the headers and the body of an unacceptable response (which validation keeps), the
/// URL, and the underlying error.
///
/// ```swift
/// do {
///     let user = try await client.request(on: GetUserRequest(login: "octocat"))
/// } catch let error as PrismHTTPError where error.code == .unacceptableStatus {
///     print(error.statusCode ?? 0, String(decoding: error.body ?? Data(), as: UTF8.self))
/// }
/// ```
///
/// Task cancellation is not a `PrismHTTPError`: a cancelled request throws `CancellationError`.
public struct PrismHTTPError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added: switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// The endpoint's parts do not make a valid URL.
        public static let invalidURL = Code("invalidURL")
        /// The endpoint's body could not be encoded.
        public static let encodingFailed = Code("encodingFailed")
        /// The server answered with a status the request does not accept (non-2xx by default).
        public static let unacceptableStatus = Code("unacceptableStatus")
        /// The response body could not be decoded into the response type.
        public static let decodingFailed = Code("decodingFailed")
        /// No response arrived in time.
        public static let timedOut = Code("timedOut")
        /// The connection failed or was closed before a complete response arrived.
        public static let connectionFailed = Code("connectionFailed")
        /// The response body was larger than the transport accepts.
        public static let responseTooLarge = Code("responseTooLarge")
        /// Refreshing credentials failed.
        public static let authenticationFailed = Code("authenticationFailed")
        /// The request was retried and every attempt failed (see ``PrismHTTPError/attempts``).
        public static let retriesExhausted = Code("retriesExhausted")
        /// Something else went wrong in the transport (see ``PrismHTTPError/underlying``).
        public static let transportFailed = Code("transportFailed")
        /// A header name or value would corrupt the request: a CR, LF, NUL or other control
        /// character, or a name that is not an HTTP token. Nothing was sent.
        public static let invalidHeader = Code("invalidHeader")
        /// A timeout is not a finite number of seconds above zero (NaN, infinite, zero or
        /// negative), or is longer than a year. Nothing was sent.
        public static let invalidTimeout = Code("invalidTimeout")
        /// An endpoint's `cacheInterval` is not a finite number of seconds of at least zero.
        /// Nothing was sent.
        public static let invalidCacheInterval = Code("invalidCacheInterval")
        /// The server redirected more times than the transport's ``PrismRedirectPolicy`` allows.
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// The server's certificate carries a public key that matches none of the pins of its
        /// host (``PrismTLSConfiguration/pins``), or a pinned host was asked over plain HTTP. The
        /// message names the host and the key presented. Nothing was sent; not retried.
        public static let pinMismatch = Code("pinMismatch")
        /// A certificate, key, pin or other TLS setting of the transport cannot be used, or the
        /// transport cannot apply it on this platform. Nothing was sent.
        public static let invalidTLSConfiguration = Code("invalidTLSConfiguration")
        /// The cache policy (`.cacheOnly`) never asks the server, and nothing usable is cached.
        public static let notCached = Code("notCached")
        /// A download's file could not be created, written, read or moved into place (a missing
        /// or read-only folder, a full disk); ``PrismHTTPError/underlying`` is the file system's
        /// error. The destination is left as it was.
        public static let fileFailed = Code("fileFailed")
        /// A downloaded body is not what was expected: its SHA-256 differs from the one asked for.
        /// The file was not moved into place.
        public static let integrityCheckFailed = Code("integrityCheckFailed")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence that says what went wrong.
    public var message: String
    /// The URL of the request, as it was sent (credentials in its query included: the
    /// ``description`` redacts them, this property does not).
    public var url: URL?
    /// The method of the request, when known.
    public var method: PrismNetworkMethod?
    /// The status code of the response, when one arrived.
    public var statusCode: Int?
    /// The headers of the response, when one arrived.
    public var headers: PrismHTTPHeaders?
    /// The body of the response, when one arrived: what the server said about the failure.
    public var body: Data?
    /// The error underneath (a transport error, a `DecodingError`, ...).
    public var underlying: (any Error)?
    /// For ``Code-swift.struct/retriesExhausted``: why each attempt failed, in order.
    public var attempts: [PrismHTTPError]

    /// Creates an error.
    public init(
        code: Code,
        message: String,
        url: URL? = nil,
        method: PrismNetworkMethod? = nil,
        statusCode: Int? = nil,
        headers: PrismHTTPHeaders? = nil,
        body: Data? = nil,
        underlying: (any Error)? = nil,
        attempts: [PrismHTTPError] = []
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.method = method
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.underlying = underlying
        self.attempts = attempts
    }

    /// The body as UTF-8 text, when there is one.
    public var bodyText: String? {
        body.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The message, the URL with its credentials redacted (``PrismHTTPRedaction``), and the
    /// start of the body.
    public var description: String {
        var text = "PrismHTTPError.\(code): \(message)"
        if let url { text += " [\(PrismHTTPRedaction.redact(url))]" }
        if let bodyText, !bodyText.isEmpty {
            let preview = bodyText.prefix(500)
            text += " body: \(preview)\(bodyText.count > 500 ? "…" : "")"
        }
        return text
    }

    /// The error for `response`, whose status the request does not accept (code
    /// ``Code/unacceptableStatus``): it keeps the status, the headers and the body. What
    /// ``PrismNetworkClient/request(on:options:)`` throws; for a response from
    /// ``PrismNetworkClient/send(_:)`` that the caller does not accept either.
    ///
    /// ```swift
    /// let response = try await client.send(prepared)
    /// guard response.isSuccess else { throw PrismHTTPError.unacceptable(response, method: .get) }
    /// ```
    public static func unacceptable(_ response: PrismHTTPResponse, method: PrismNetworkMethod? = nil) -> PrismHTTPError
    {
        PrismHTTPError(
            code: .unacceptableStatus,
            message: "The server answered \(response.statusCode).",
            url: response.url,
            method: method,
            statusCode: response.statusCode,
            headers: response.headers,
            body: response.body
        )
    }

    static func decoding(_ error: any Error, response: PrismHTTPResponse, type: Any.Type) -> PrismHTTPError {
        PrismHTTPError(
            code: .decodingFailed,
            message: "Could not decode \(type) from the response: \(DecodingErrorText.describe(error))",
            url: response.url,
            statusCode: response.statusCode,
            headers: response.headers,
            body: response.body,
            underlying: error
        )
    }
}
