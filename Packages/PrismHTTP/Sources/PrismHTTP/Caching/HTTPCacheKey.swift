import Foundation
import PrismCache
import PrismSupport

/// HTTP's cache keys: what keeps one request's stored response apart from another's, one user's
/// from another's (an entry is keyed on the request's credentials too), and one variant from
/// another (RFC 9111 §4.1).
extension PrismCacheKey {
    /// The cache key of `request` as it is sent (after the interceptors and the authenticator):
    /// its method, its URL and, when it carries credentials, a SHA-256 of them, so that a
    /// response to one credential is never served to another (another user after a sign-out,
    /// another token per endpoint). The credentials themselves never appear in the key.
    ///
    /// Made once per request and hashed once (``PrismCacheKey``), then used for the lookup, the
    /// store and the invalidation.
    static func http(for request: PrismHTTPRequest) -> PrismCacheKey {
        // A GET an endpoint built, unchanged since: its key was made with its URL.
        if let key = request.builtGetKey { return key }
        return http(method: request.method, url: request.url, digest: credentialDigest(request.headers))
    }

    /// The key of a request with `method` to `url` whose credentials hash to `digest`.
    static func http(method: PrismNetworkMethod, url: URL, digest: String?) -> PrismCacheKey {
        let url = url.absoluteString
        let method = method.rawValue
        // One allocation, sized beforehand.
        var text = ""
        text.reserveCapacity(method.utf8.count + 1 + url.utf8.count + (digest.map { 13 + $0.utf8.count } ?? 0))
        text += method
        text += " "
        text += url
        if let digest {
            text += " credentials:"
            text += digest
        }
        return PrismCacheKey(text)
    }

    /// A SHA-256 of the credential-bearing headers (`Authorization`, `Proxy-Authorization`,
    /// `Cookie`, and every header ``PrismHTTPRedaction`` treats as secret), or nil when there
    /// are none.
    static func credentialDigest(_ headers: PrismHTTPHeaders) -> String? {
        var credentials: [(name: String, value: String)] = []
        for field in headers where PrismHTTPRedaction.isSensitive(field.name) {
            credentials.append((field.name.lowercased(), field.value))
        }
        guard !credentials.isEmpty else { return nil }
        credentials.sort { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        var hasher = SHA256()
        for (name, value) in credentials {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: Data([0]))
            hasher.update(data: Data(value.utf8))
            hasher.update(data: Data([0]))
        }
        return Hexadecimal.lowercase(hasher.finalize())
    }

    /// The key one variant of a response that varies is stored under, beside the most recent one
    /// under this key itself: this key, then `vary:` and a SHA-256 of what the request sent for the
    /// headers it varies on (RFC 9111 §4.1: a cache may keep several).
    func variant(values: [String: String]) -> PrismCacheKey {
        var hasher = SHA256()
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: Data([0]))
            hasher.update(data: Data(value.utf8))
            hasher.update(data: Data([0]))
        }
        return PrismCacheKey(string + " vary:" + Hexadecimal.lowercase(hasher.finalize()))
    }

    /// Whether this key is one of the variants kept beside `primary` (``variant(values:)``).
    func isVariant(of primary: PrismCacheKey) -> Bool {
        string.hasPrefix(primary.string + " vary:")
    }

    /// Whether `key` is the key of a stored `GET` or `HEAD` response of one of `urls`, with any
    /// credentials (``http(for:)``).
    static func isStoredResponse(_ key: String, ofAny urls: [String]) -> Bool {
        for url in urls {
            for method in ["GET ", "HEAD "] {
                let base = method + url
                if key == base || key.hasPrefix(base + " credentials:") || key.hasPrefix(base + " vary:") {
                    return true
                }
            }
        }
        return false
    }
}
