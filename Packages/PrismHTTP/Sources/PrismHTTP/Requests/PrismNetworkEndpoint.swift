import Foundation
import PrismCache
import PrismSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP endpoint described as a Swift type: typically an enum with a case per route.
///
/// Every property but ``host`` and ``path`` has a default, so you override only what differs:
///
/// ```swift
/// enum GitHubEndpoint: PrismNetworkEndpoint {
///     case user(login: String)
///     case createIssue(repo: String, body: CreateIssueBody)
///
///     var host: String { "api.github.com" }
///     var path: String {
///         switch self {
///         case .user(let login): return PrismPath.segments("users", login)
///         case .createIssue(let repo, _): return "/repos/\(repo)/issues"
///         }
///     }
///     var method: PrismNetworkMethod {
///         switch self {
///         case .createIssue: return .post
///         default: return .get
///         }
///     }
///     var body: (any Encodable)? {
///         switch self {
///         case .createIssue(_, let payload): return payload
///         default: return nil
///         }
///     }
/// }
/// ```
///
/// | property | type | default |
/// |---|---|---|
/// | ``scheme`` | ``PrismNetworkScheme`` | `.https` |
/// | ``host`` | `String` | required |
/// | ``port`` | `Int?` | `nil` (the scheme's) |
/// | ``path`` | `String` | required |
/// | ``method`` | ``PrismNetworkMethod`` | `.get` |
/// | ``queryItems`` | `[URLQueryItem]?` | `nil` |
/// | ``headers`` | `[String: String]` | `[:]` |
/// | ``body`` | `(any Encodable)?` | `nil` |
/// | ``timeoutInterval`` | `TimeInterval?` | `nil` (the transport's default) |
/// | ``cacheInterval`` | `TimeInterval?` | `nil` |
///
/// ``url`` and ``request`` are built from these. Build a path from user input with
/// ``PrismPath`` (`PrismPath.segments("users", login)`), so that a value cannot add segments or
/// climb with `..`. Query items are omitted when the array is empty. A `String` body is sent as its UTF-8 bytes, `Data` as is, a
/// ``PrismFormBody`` as a form (`application/x-www-form-urlencoded`), and any other `Encodable`
/// as JSON with ``bodyEncoder`` (`Content-Type: application/json` unless ``headers`` set one).
public protocol PrismNetworkEndpoint: Sendable {
    /// The URL scheme.
    var scheme: PrismNetworkScheme { get }
    /// The host name, such as `api.github.com`; empty (the default) for an endpoint relative to
    /// its client's ``PrismNetworkAdapter/baseURL``.
    var host: String { get }
    /// The port, when it is not the scheme's default.
    var port: Int? { get }
    /// The path, starting with `/`.
    var path: String { get }
    /// The HTTP method.
    var method: PrismNetworkMethod { get }
    /// The query items; `nil` or empty adds no query.
    var queryItems: [URLQueryItem]? { get }
    /// Header fields to send.
    var headers: [String: String] { get }
    /// The body to send: `Encodable` values are sent as JSON, strings as UTF-8 text.
    var body: (any Encodable)? { get }
    /// How long to wait for the response, in seconds.
    var timeoutInterval: TimeInterval? { get }
    /// How long a response to this endpoint stays fresh in the cache, in seconds (GET only).
    var cacheInterval: TimeInterval? { get }
    /// How an `Encodable` body is encoded; by default keys as spelled, ISO 8601 dates.
    var bodyEncoder: JSONEncoder { get }
}

extension PrismNetworkEndpoint {
    /// `.https`.
    public var scheme: PrismNetworkScheme { .https }
    /// Empty: the endpoint is relative to its client's ``PrismNetworkAdapter/baseURL``, which
    /// gives its scheme, host, port and the start of its path.
    public var host: String { "" }
    /// `nil`: the scheme's default port.
    public var port: Int? { nil }
    /// `.get`.
    public var method: PrismNetworkMethod { .get }
    /// `nil`.
    public var queryItems: [URLQueryItem]? { nil }
    /// No headers.
    public var headers: [String: String] { [:] }
    /// No body.
    public var body: (any Encodable)? { nil }
    /// `nil`: the transport's default timeout.
    public var timeoutInterval: TimeInterval? { nil }
    /// `nil`: responses are cached only as their HTTP headers allow.
    public var cacheInterval: TimeInterval? { nil }
    /// ``PrismJSON/makeEncoder()``'s encoder: keys as spelled, ISO 8601 dates.
    public var bodyEncoder: JSONEncoder { PrismJSON.makeEncoder() }

    /// The endpoint's URL, built from its scheme, host, port, path and query items.
    ///
    /// When the parts do not make a valid URL (see ``makeURL()``), this is `about:blank`, which
    /// no transport sends: use ``makeURL()`` to learn what is wrong. It never traps.
    public var url: URL {
        (try? makeURL()) ?? URLBuilding.invalidURL
    }

    /// The endpoint's URL, or a ``PrismHTTPError`` with code `invalidURL` saying which part is
    /// wrong.
    ///
    /// The host must be a host name or a bracketed IPv6 address, the port from 1 to 65535. The
    /// path is percent-encoded where it holds characters a path cannot (`%XX` escapes, such as
    /// those of ``PrismPath/segment(_:)``, are kept), and a path with a `.` or `..` segment,
    /// plain or encoded, is refused: it would climb out of the endpoint. Query names and values
    /// are percent-encoded but for letters, digits and `-._~`, so `+`, `&`, `=` and `#` in a value
    /// stay in the value.
    public func makeURL() throws(PrismHTTPError) -> URL {
        try URLBuilding.url(scheme: scheme, host: host, port: port, path: path, queryItems: queryItems)
    }

    /// The endpoint as a ``PrismHTTPRequest``: URL, method, headers, encoded body, timeout.
    ///
    /// - Throws: ``PrismHTTPError``: `invalidURL` (see ``makeURL()``), `invalidTimeout` for a
    ///   `timeoutInterval` that is NaN, infinite, zero, negative or over a year, `invalidHeader`
    ///   for a header with a control character, `encodingFailed` for a body that does not encode.
    public func makeHTTPRequest() throws(PrismHTTPError) -> PrismHTTPRequest {
        try makeHTTPRequest(checkingHeaders: true)
    }

    /// The request; its headers checked when `checkingHeaders` (the client's pipeline checks
    /// them once, later, with whatever the interceptors and the authenticator add).
    func makeHTTPRequest(checkingHeaders: Bool, base: BaseURL? = nil) throws(PrismHTTPError) -> PrismHTTPRequest {
        let (url, getKey): (URL, PrismCacheKey)
        if host.isEmpty {
            guard let base else { throw BaseURL.missing(path: path) }
            (url, getKey) = try URLBuilding.built(
                scheme: base.scheme, host: base.host, port: base.port, path: base.path + path, queryItems: queryItems)
        } else {
            (url, getKey) = try URLBuilding.built(
                scheme: scheme, host: host, port: port, path: path, queryItems: queryItems)
        }
        var timeout: Duration?
        if let seconds = timeoutInterval {
            timeout = try RequestValidation.timeout(seconds: seconds, what: "The endpoint's timeoutInterval", url: url)
        }
        let headers = PrismHTTPHeaders(headers)
        if checkingHeaders { try RequestValidation.validateHeaders(headers, url: url) }
        var request = PrismHTTPRequest(built: url, getKey: getKey, method: method, headers: headers, timeout: timeout)
        if let body {
            // The encoder is made only for a body that needs one: a GET, or a body given as
            // bytes or text, never pays for one.
            let (data, contentType) = try encodeBody(body, encoder: bodyEncoder, url: request.url)
            request.body = data
            if let contentType, !request.headers.contains("Content-Type") {
                request.headers["Content-Type"] = contentType
            }
        }
        return request
    }

    /// The endpoint as a Foundation `URLRequest`.
    ///
    /// When ``makeHTTPRequest()`` throws (an invalid URL, timeout or header, a body that does
    /// not encode), this is a request for `about:blank`, which no transport sends: use
    /// ``makeHTTPRequest()`` to learn what is wrong. It never traps.
    public var request: URLRequest {
        guard let http = try? makeHTTPRequest() else { return URLRequest(url: URLBuilding.invalidURL) }
        var request = URLRequest(url: http.url)
        request.httpMethod = http.method.rawValue
        for field in http.headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        request.httpBody = http.body
        if let timeout = http.timeout { request.timeoutInterval = DurationMath.seconds(timeout) }
        if method == .get, cacheInterval != nil { request.cachePolicy = .returnCacheDataElseLoad }
        return request
    }
}

private func encodeBody(
    _ body: any Encodable,
    encoder: @autoclosure () -> JSONEncoder,
    url: URL
) throws(PrismHTTPError) -> (Data, String?) {
    switch body {
    case let data as Data:
        return (data, nil)
    case let text as String:
        return (Data(text.utf8), "text/plain; charset=utf-8")
    case let body as any SelfEncodingBody:
        do {
            return (try body.encoded(), body.contentType)
        } catch {
            throw PrismHTTPError(
                code: .encodingFailed,
                message: "Could not encode the body (\(type(of: body))) as \(body.contentType): \(error)",
                url: url,
                underlying: error
            )
        }
    default:
        do {
            return (try encoder().encode(body), "application/json")
        } catch {
            throw PrismHTTPError(
                code: .encodingFailed,
                message: "Could not encode the body (\(type(of: body))) as JSON: \(error)",
                url: url,
                underlying: error
            )
        }
    }
}
