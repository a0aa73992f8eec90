import Foundation

/// The checks every request passes before any transport sees it: nothing a user or a server
/// supplies reaches the wire as a header that could split the request, a URL a transport should
/// not open, or a timeout that would trap.
enum RequestValidation {
    /// The longest timeout accepted: a year.
    static let maximumTimeout = Duration.seconds(365 * 24 * 3_600)
    /// ``maximumTimeout`` in seconds, as the checks of every request compare it.
    static let maximumSeconds: TimeInterval = 365 * 24 * 3_600

    /// Checks the URL (unless `urlChecked`: an endpoint built it), the headers and the timeout of
    /// `request`.
    static func validate(_ request: PrismHTTPRequest, urlChecked: Bool = false) throws(PrismHTTPError) {
        if !urlChecked { try validateURL(request.url) }
        try validateHeaders(request.headers, url: request.url)
        if let timeout = request.timeout {
            try validateTimeout(timeout, what: "The request's timeout", url: request.url)
        }
    }

    /// An absolute `http` or `https` URL with a host: a transport never opens a file, FTP or
    /// other URL that an interceptor or a redirect put there.
    static func validateURL(_ url: URL) throws(PrismHTTPError) {
        var scheme = url.scheme
        if scheme != "http" && scheme != "https" { scheme = scheme?.lowercased() }
        guard scheme == "http" || scheme == "https" else {
            throw PrismHTTPError(
                code: .invalidURL,
                message:
                    "Only http and https URLs can be sent (this one's scheme is \(scheme.map { "\"\($0)\"" } ?? "missing")).",
                url: url
            )
        }
        guard let host = url.host, !host.isEmpty else {
            throw PrismHTTPError(code: .invalidURL, message: "The URL has no host.", url: url)
        }
    }

    /// Every name is an HTTP token and no value holds a control character but HTAB (RFC 9110
    /// §5.5: CR, LF and NUL could split the request or smuggle another).
    static func validateHeaders(_ headers: PrismHTTPHeaders, url: URL?) throws(PrismHTTPError) {
        for field in headers {
            guard isToken(field.name) else {
                throw PrismHTTPError(
                    code: .invalidHeader,
                    message: "The header name \(escaped(field.name)) is not an HTTP token "
                        + "(letters, digits and !#$%&'*+-.^_`|~ only); nothing was sent.",
                    url: url
                )
            }
            // The value itself is never quoted: it may be a credential.
            guard isValidValue(field.value) else {
                throw PrismHTTPError(
                    code: .invalidHeader,
                    message: "The value of the header \(field.name) contains a control character (CR, LF, NUL, ...); "
                        + "nothing was sent.",
                    url: url
                )
            }
        }
    }

    /// Whether `name` is a non-empty RFC 9110 token.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// Whether `value` has no control character but HTAB.
    static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }

    /// `text` quoted, its control and non-ASCII characters escaped, so that an error message
    /// shows exactly what was wrong and cannot itself carry a line break.
    static func escaped(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars.prefix(100) {
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\" {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return result + (text.unicodeScalars.count > 100 ? "…\"" : "\"")
    }

    /// Checks that `timeout` is above zero and at most ``maximumTimeout``.
    static func validateTimeout(_ timeout: Duration, what: String, url: URL?) throws(PrismHTTPError) {
        guard timeout > .zero, timeout <= maximumTimeout else {
            throw PrismHTTPError(
                code: .invalidTimeout,
                message: "\(what) must be above zero and at most a year (it is \(timeout)); nothing was sent.",
                url: url
            )
        }
    }

    /// `seconds` as a timeout: a finite number above zero, at most a year.
    static func timeout(seconds: TimeInterval, what: String, url: URL?) throws(PrismHTTPError) -> Duration {
        guard seconds.isFinite, seconds > 0, seconds <= maximumSeconds else {
            throw PrismHTTPError(
                code: .invalidTimeout,
                message: "\(what) must be a finite number of seconds above zero and at most a year "
                    + "(it is \(seconds)); nothing was sent.",
                url: url
            )
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `seconds` as a time to live: a finite number of at least zero (capped at a year).
    static func cacheInterval(seconds: TimeInterval, url: URL?) throws(PrismHTTPError) -> Duration {
        guard seconds.isFinite, seconds >= 0 else {
            throw PrismHTTPError(
                code: .invalidCacheInterval,
                message: "The endpoint's cacheInterval must be a finite number of seconds of at least zero "
                    + "(it is \(seconds)); nothing was sent.",
                url: url
            )
        }
        return .nanoseconds(Int64((min(seconds, maximumSeconds) * 1e9).rounded()))
    }
}
