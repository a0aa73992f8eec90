import Foundation
import PrismCache
import PrismSupport

/// What HTTP caching reads of a request: whether it may be cached, what it sends for the headers
/// a response varies on (RFC 9111 §4.1), and its conditional form (§4.3.1).
extension PrismHTTPRequest {
    var isCacheable: Bool {
        (method == .get || method == .head) && !CacheControl(headers).noStore
    }

    /// The values this request sends for `names`, joined as one field would be, trimmed; a secret
    /// header's value (`Vary: Authorization`) as a SHA-256 only, so that the entry never holds
    /// the credential itself.
    func values(ofVaried names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let sent = headers.values(for: name)
            guard !sent.isEmpty else { continue }
            let value = Self.normalized(sent, of: name)
            if PrismHTTPRedaction.isSensitive(name) {
                values[name] = "sha256:" + (PrismCacheKey.credentialDigest(PrismHTTPHeaders([name: value])) ?? "")
            } else {
                values[name] = value
            }
        }
        return values
    }

    /// Headers whose members are case-insensitive tokens in no particular order: the same
    /// preferences written differently select the same variant.
    private static let unorderedTokenLists: Set<String> = ["accept-language", "accept-encoding"]

    /// The lines of a header as one value that compares equal for equivalent requests (RFC 9111
    /// §4.1 lets a cache normalise): members split at commas outside quotes, trimmed, empty ones
    /// dropped, joined with ", "; for `Accept-Language` and `Accept-Encoding`, lowercased and
    /// sorted too.
    static func normalized(_ lines: [String], of name: String) -> String {
        var members: [String] = []
        for line in lines {
            for member in CacheControl.members(line) {
                let trimmed = member.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { members.append(trimmed) }
            }
        }
        if unorderedTokenLists.contains(name.lowercased()) {
            members = members.map { $0.lowercased().replacingOccurrences(of: " ", with: "") }.sorted()
        }
        return members.joined(separator: ", ")
    }

    /// This request with the conditional headers that revalidate `entry`.
    func conditional(revalidating entry: PrismCacheEntry) -> PrismHTTPRequest {
        var request = self
        if let etag = entry.etag { request.headers["If-None-Match"] = Self.entityTag(etag) }
        if let lastModified = entry.lastModified { request.headers["If-Modified-Since"] = lastModified }
        return request
    }

    /// A stored `ETag` as an entity tag (RFC 9110 §8.8.3): as it is when quoted (`"v1"`,
    /// `W/"v1"`); quoted when a server sent it bare (`v1`, which many servers do), so that an
    /// origin comparing the `If-None-Match` it receives with its quoted tag finds them equal.
    static func entityTag(_ etag: String) -> String {
        let trimmed = etag.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("\"") || trimmed.hasPrefix("W/\"") || trimmed.isEmpty || trimmed.contains("\"") {
            return trimmed
        }
        return "\"" + trimmed + "\""
    }
}

extension PrismHTTPHeaders {
    /// The header names `response` varies on, lowercased; nil for `Vary: *` (never reusable).
    var varyNames: [String]? {
        var names: [String] = []
        for value in values(for: "Vary") {
            for name in value.split(separator: ",") {
                let name = name.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" { return nil }
                if !name.isEmpty { names.append(name) }
            }
        }
        return names
    }
}
