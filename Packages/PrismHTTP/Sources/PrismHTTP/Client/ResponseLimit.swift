import Foundation

/// The error of a response body past `maximumResponseBytes`, the same on every transport, and
/// which responses a `Content-Length` past it refuses before their body.
enum ResponseLimit {
    /// Whether a response with `status` to a request with `method` has a body, so that its
    /// `Content-Length` announces bytes to come (RFC 9110 §6.4.1): every response but these ends
    /// at its blank line, whatever its headers say.
    ///
    /// | response | its `Content-Length` is |
    /// |---|---|
    /// | to a HEAD | the length of the GET's body (§9.3.2) |
    /// | 1xx | not sent (§8.6) |
    /// | 204 No Content | not sent (§15.3.5); a server that sends one anyway sends no body |
    /// | 304 Not Modified | the length of the representation it confirms, when sent (§15.4.5) |
    static func hasBody(method: String?, status: Int) -> Bool {
        method != "HEAD" && !(100..<200).contains(status) && status != 204 && status != 304
    }

    static func tooLarge(announced: Int?, limit: Int, url: URL, status: Int?) -> PrismHTTPError {
        PrismHTTPError(
            code: .responseTooLarge,
            message: "The response body "
                + (announced.map { "(\($0) bytes announced) " } ?? "")
                + "is larger than the transport accepts (\(limit) bytes).",
            url: url,
            statusCode: status
        )
    }
}
