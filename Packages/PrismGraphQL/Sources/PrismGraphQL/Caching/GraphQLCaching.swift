import Foundation
import PrismCache
@_spi(PrismInternals) import PrismHTTP

/// How query responses are kept in a `PrismResponseCache`.
enum GraphQLCaching {
    /// Headers left out of a cached answer's identity: they name one request, not what it asks
    /// (a tracing interceptor that adds a fresh request id would otherwise make every query a
    /// miss). `Content-Length` follows from the body, which the key already covers.
    static let perRequestHeaders: Set<String> = [
        "content-length", "x-request-id", "x-correlation-id", "traceparent", "tracestate", "baggage",
        "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-amzn-trace-id",
    ]

    /// `GraphQL <url> <SHA-256 of the document> <SHA-256 of the headers>`: the document's keys
    /// are sorted, so the same document, operation and variables always make the same key; the
    /// headers are those of `request` as the network client prepared it (after its interceptors
    /// and authenticator), every one of them but ``perRequestHeaders``: an answer is served only
    /// to a request with the same credentials, tenant, language and every other header. Secret
    /// values only ever enter the key through the digest.
    static func key(url: URL, document: Data, request: PrismHTTPRequest) -> PrismCacheKey {
        var fields: [(name: String, value: String)] = []
        for field in request.headers {
            let name = field.name.lowercased()
            if !perRequestHeaders.contains(name) { fields.append((name, field.value)) }
        }
        fields.sort { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        var bytes = Data()
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(0)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(0)
        }
        return PrismCacheKey(
            "GraphQL \(url.absoluteString) \(SHA256Hex.digest(of: document)) \(SHA256Hex.digest(of: bytes))")
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
}
