import Foundation
import PrismCache

/// How query responses are kept in a `PrismResponseCache`.
enum GraphQLCaching {
    /// `GraphQL POST <url> <SHA-256 of the body> <identity>`: the body's keys are sorted, so the
    /// same document, operation and variables always make the same key; `identity` covers the
    /// headers and credentials (see `cacheIdentity`).
    static func key(url: URL, body: Data, identity: String) -> String {
        "GraphQL POST \(url.absoluteString) \(SHA256Hex.digest(of: body)) \(identity)"
    }

    /// The query's cache interval as a time to live (zero when it has none).
    static func ttl(_ query: PrismGraphQLQuery) throws(PrismGraphQLError) -> Duration {
        guard let seconds = query.cacheInterval else { return .zero }
        guard seconds.isFinite, seconds >= 0 else {
            throw PrismGraphQLError(
                code: .invalidCacheInterval,
                message: "The query's cacheInterval must be a finite number of seconds of at least zero (it is "
                    + "\(seconds)); nothing was sent.",
                operationName: query.operationName
            )
        }
        return .nanoseconds(Int64((min(seconds, 365 * 24 * 3_600) * 1e9).rounded()))
    }

    /// The entry to store for `response`, or nil when it must not be stored (it has errors or
    /// no data). Without a cache interval (`ttl` zero) it is stored already stale: only the
    /// policies that accept stale responses (`.cacheFirst`, `.staleWhileRevalidate`) return it.
    static func entry<T>(
        for response: PrismGraphQLResponse<T>,
        reply: PrismGraphQLClient.Reply,
        ttl: Duration
    ) -> PrismCacheEntry? {
        guard response.data != nil, !response.hasErrors else { return nil }
        return PrismCacheEntry(data: reply.body, statusCode: reply.statusCode ?? 200, ttl: ttl)
    }
}
