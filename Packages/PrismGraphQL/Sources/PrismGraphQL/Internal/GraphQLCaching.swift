import Foundation
import PrismCache

/// How query responses are kept in a `PrismResponseCache`.
enum GraphQLCaching {
    /// `GraphQL POST <url> <SHA-256 of the body>`: the body's keys are sorted, so the same
    /// document, operation and variables always make the same key.
    static func key(url: URL, body: Data) -> String {
        "GraphQL POST \(url.absoluteString) \(SHA256Hex.digest(of: body))"
    }

    /// The entry to store for `response`, or nil when it must not be stored (it has errors or
    /// no data). Without a cache interval it is stored already stale: only the policies that
    /// accept stale responses (`.cacheFirst`, `.staleWhileRevalidate`) return it.
    static func entry<T>(
        for response: PrismGraphQLResponse<T>,
        reply: PrismGraphQLClient.Reply,
        cacheInterval: TimeInterval?
    ) -> PrismCacheEntry? {
        guard response.data != nil, !response.hasErrors else { return nil }
        let ttl: Duration = cacheInterval.map { .milliseconds(Int64(($0 * 1_000).rounded())) } ?? .zero
        return PrismCacheEntry(data: reply.body, statusCode: reply.statusCode ?? 200, ttl: ttl)
    }
}
