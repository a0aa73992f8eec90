#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cached HTTP response: its body, status, headers, how long it stays fresh, and the
/// validators that let a client revalidate it when it is stale.
///
/// ```swift
/// let entry = PrismCacheEntry(data: responseData, statusCode: 200, ttl: .seconds(300))
/// await cache.set(entry, for: "github/users/octocat")
/// ```
public struct PrismCacheEntry: Sendable, Equatable {
    /// The response body.
    public var data: Data
    /// The response's HTTP status code.
    public var statusCode: Int
    /// The response headers, by name as received.
    public var headers: [String: String]
    /// How long after it is stored the entry is fresh. After that, ``PrismResponseCache/get(for:)-(String)``
    /// returns nil, but the entry stays available for revalidation until it is evicted.
    public var ttl: Duration
    /// The values the request that stored the entry sent for the headers its response varies on
    /// (`Vary`), by lowercased name; a header the request did not send is absent. An HTTP client
    /// serves the entry only to a request that sends the same values.
    public var varyingRequestHeaders: [String: String]

    /// Creates an entry that is fresh for `ttl` after it is stored.
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - statusCode: The response's status code.
    ///   - headers: The response headers.
    ///   - ttl: How long after it is stored the entry is fresh.
    ///   - varyingRequestHeaders: The request's values of the headers named in the response's
    ///     `Vary`, by lowercased name.
    public init(
        data: Data,
        statusCode: Int,
        headers: [String: String] = [:],
        ttl: Duration,
        varyingRequestHeaders: [String: String] = [:]
    ) {
        self.data = data
        self.statusCode = statusCode
        self.headers = headers
        self.ttl = ttl
        self.varyingRequestHeaders = varyingRequestHeaders
    }

    /// The `ETag` header, for `If-None-Match`.
    public var etag: String? { header("ETag") }

    /// The `Last-Modified` header, for `If-Modified-Since`.
    public var lastModified: String? { header("Last-Modified") }

    /// The value of the header called `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// What the entry costs against a byte limit: its body, plus the bytes of its headers and
    /// of its varying request headers (so that a response with huge headers cannot slip past
    /// the limit).
    public var cost: Int {
        var total = data.count
        for (name, value) in headers { total += name.utf8.count + value.utf8.count }
        for (name, value) in varyingRequestHeaders { total += name.utf8.count + value.utf8.count }
        return total
    }
}
