import Foundation
import PrismCache

/// An HTTP request as a transport sends it: what an endpoint becomes once its URL, headers and
/// body are built, and what interceptors adapt.
public struct PrismHTTPRequest: Sendable, Hashable {
    /// The fields, behind one reference: the pipeline hands a request from stage to stage, and
    /// a copy is one retain, not one per field. Changed in place when this value holds the only
    /// reference, copied first otherwise (copy on write), so values never share a change.
    private final class Storage: @unchecked Sendable {
        var url: URL
        var method: PrismNetworkMethod
        var headers: PrismHTTPHeaders
        var body: Data?
        var timeout: Duration?
        /// The cache key of this request when an endpoint built it as a `GET` without
        /// credentials, made with its URL (``PrismCacheKey/http(for:)``); nil once the URL, the
        /// method or the headers change.
        var builtGetKey: PrismCacheKey?

        init(url: URL, method: PrismNetworkMethod, headers: PrismHTTPHeaders, body: Data?, timeout: Duration?) {
            self.url = url
            self.method = method
            self.headers = headers
            self.body = body
            self.timeout = timeout
        }

        func copy() -> Storage {
            Storage(url: url, method: method, headers: headers, body: body, timeout: timeout)
        }
    }

    private var storage: Storage

    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The full URL, query included.
    public var url: URL {
        get { storage.url }
        _modify {
            let storage = unique
            storage.builtGetKey = nil
            yield &storage.url
        }
    }

    /// The method.
    public var method: PrismNetworkMethod {
        get { storage.method }
        _modify {
            let storage = unique
            storage.builtGetKey = nil
            yield &storage.method
        }
    }

    /// The header fields.
    public var headers: PrismHTTPHeaders {
        get { storage.headers }
        _modify {
            let storage = unique
            storage.builtGetKey = nil
            yield &storage.headers
        }
    }

    /// The body, if any.
    public var body: Data? {
        get { storage.body }
        _modify { yield &unique.body }
    }

    /// How long the transport waits for the whole response, body and redirects included; `nil`
    /// uses the transport's default. For an upload it bounds each pause while the body is sent,
    /// then the whole response once the body is out. It must be above zero and at most a year
    /// (else the request fails with `invalidTimeout`).
    public var timeout: Duration? {
        get { storage.timeout }
        _modify { yield &unique.timeout }
    }

    /// The cache key made with the URL when an endpoint built this `GET` (see
    /// ``PrismCacheKey/http(for:)``).
    var builtGetKey: PrismCacheKey? { storage.builtGetKey }

    /// Creates a request.
    public init(
        url: URL,
        method: PrismNetworkMethod = .get,
        headers: PrismHTTPHeaders = [:],
        body: Data? = nil,
        timeout: Duration? = nil
    ) {
        storage = Storage(url: url, method: method, headers: headers, body: body, timeout: timeout)
    }

    /// A request an endpoint built, with the cache key of a `GET` of its URL, kept when it is a
    /// `GET` whose headers carry no credentials.
    init(
        built url: URL, getKey: PrismCacheKey, method: PrismNetworkMethod, headers: PrismHTTPHeaders, timeout: Duration?
    ) {
        storage = Storage(url: url, method: method, headers: headers, body: nil, timeout: timeout)
        if method == .get, PrismCacheKey.credentialDigest(headers) == nil { storage.builtGetKey = getKey }
    }

    /// Whether the requests have the same URL, method, headers, body and timeout.
    public static func == (lhs: PrismHTTPRequest, rhs: PrismHTTPRequest) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.url == rhs.url && lhs.method == rhs.method && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.timeout == rhs.timeout
    }

    /// Hashes the URL, method, headers, body and timeout.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(method)
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(timeout)
    }
}

/// An HTTP response as a transport received it.
public struct PrismHTTPResponse: Sendable, Hashable {
    /// The status code.
    public var statusCode: Int
    /// The header fields.
    public var headers: PrismHTTPHeaders
    /// The body (empty when there was none).
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: URL
    /// The request this answers, as the client's pipeline last sent it: after the interceptors,
    /// with the credentials it carried (the refreshed ones after a 401); for a cache hit, the
    /// request the entry was looked up for. `nil` for a response a transport returned on its own
    /// or that was made by hand.
    public var request: PrismHTTPRequest?
    /// Where the response came from: the server (``PrismResponseSource/network``, what a
    /// transport returns) or the client's cache.
    public var source: PrismResponseSource = .network
    /// For a response from the cache, its age: how long ago the server made it (RFC 9111 §4.2.3),
    /// what its `Age` field says in whole seconds; nil for one from the network.
    public var age: Duration?

    /// Creates a response.
    public init(
        statusCode: Int, headers: PrismHTTPHeaders = [:], body: Data = Data(), url: URL,
        request: PrismHTTPRequest? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.request = request
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
}
