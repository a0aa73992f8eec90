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
    /// How long after it is stored the entry is fresh. After that, ``PrismResponseCache/get(for:)``
    /// returns nil, but the entry stays available for revalidation until it is evicted.
    public var ttl: Duration

    /// Creates an entry that is fresh for `ttl` after it is stored.
    public init(data: Data, statusCode: Int, headers: [String: String] = [:], ttl: Duration) {
        self.data = data
        self.statusCode = statusCode
        self.headers = headers
        self.ttl = ttl
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

    /// The body's size in bytes: what the entry costs against a byte limit.
    public var cost: Int { data.count }
}
