import Foundation
import PrismCache

/// The parts of `Cache-Control` that decide whether and how long a response is cached.
struct CacheControl: Equatable {
    var maxAge: Int?
    var noStore = false
    var noCache = false
    var mustRevalidate = false

    init(_ header: String?) {
        guard let header else { return }
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let name = parts.first else { continue }
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            switch name {
            case "max-age": maxAge = value.flatMap(Int.init)
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            default: break
            }
        }
    }
}

/// HTTP caching rules (RFC 9111, the parts a private client cache needs).
enum HTTPCaching {
    /// Statuses cacheable by default.
    static let cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    static func key(for request: PrismHTTPRequest) -> String {
        "\(request.method.rawValue) \(request.url.absoluteString)"
    }

    static func isCacheable(_ request: PrismHTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && !CacheControl(request.headers["Cache-Control"]).noStore
    }

    /// The entry to store for `response`, or nil when it must not be stored.
    ///
    /// The time to live is the endpoint's `cacheInterval` if it has one, else `max-age`; a
    /// response with only validators (`ETag`, `Last-Modified`) is stored stale, to be
    /// revalidated; `no-cache` stores it stale; `no-store` stores nothing.
    static func entry(for response: PrismHTTPResponse, cacheInterval: TimeInterval?) -> PrismCacheEntry? {
        guard cacheableStatuses.contains(response.statusCode) else { return nil }
        let control = CacheControl(response.headers["Cache-Control"])
        if control.noStore { return nil }
        let hasValidators = response.headers.contains("ETag") || response.headers.contains("Last-Modified")
        let ttl: Duration
        if control.noCache {
            ttl = .zero
        } else if let cacheInterval {
            ttl = .milliseconds(Int64((cacheInterval * 1_000).rounded()))
        } else if let maxAge = control.maxAge {
            ttl = .seconds(maxAge)
        } else if hasValidators {
            ttl = .zero
        } else {
            return nil
        }
        guard ttl > .zero || hasValidators else { return nil }
        return PrismCacheEntry(
            data: response.body, statusCode: response.statusCode, headers: response.headers.dictionary, ttl: ttl)
    }

    /// `request` with the conditional headers that revalidate `entry`.
    static func conditional(_ request: PrismHTTPRequest, revalidating entry: PrismCacheEntry) -> PrismHTTPRequest {
        var request = request
        if let etag = entry.etag { request.headers["If-None-Match"] = etag }
        if let lastModified = entry.lastModified { request.headers["If-Modified-Since"] = lastModified }
        return request
    }

    static func canRevalidate(_ entry: PrismCacheEntry) -> Bool {
        entry.etag != nil || entry.lastModified != nil
    }

    static func response(from entry: PrismCacheEntry, url: URL) -> PrismHTTPResponse {
        PrismHTTPResponse(
            statusCode: entry.statusCode, headers: PrismHTTPHeaders(entry.headers), body: entry.data, url: url)
    }

    /// The headers of a 304 that update the stored entry.
    static func refreshedHeaders(from notModified: PrismHTTPResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for name in ["ETag", "Last-Modified", "Cache-Control", "Date", "Expires"] {
            if let value = notModified.headers[name] { headers[name] = value }
        }
        return headers
    }

    /// The time to live after a 304, from its (or the entry's) `Cache-Control`.
    static func ttlAfterRevalidation(
        _ notModified: PrismHTTPResponse, entry: PrismCacheEntry, cacheInterval: TimeInterval?
    ) -> Duration {
        let control = CacheControl(notModified.headers["Cache-Control"] ?? entry.header("Cache-Control"))
        if control.noCache { return .zero }
        if let cacheInterval { return .milliseconds(Int64((cacheInterval * 1_000).rounded())) }
        if let maxAge = control.maxAge { return .seconds(maxAge) }
        return .zero
    }
}
