import Foundation

/// A URL taken apart for matching: its decoded path segments and query items, after the
/// scheme and host were checked.
struct DeepLinkRequest: Sendable {
    /// The decoded, non-empty path segments; a custom scheme's host comes first.
    let path: [String]
    /// The decoded query items, first occurrence of each name.
    let query: [String: String]

    static let webSchemes: Set<String> = ["http", "https"]

    /// Takes `url` apart, or throws when its scheme or host is not accepted or its escapes are
    /// broken.
    init(_ url: URL, schemes: Set<String>, hosts: Set<String>) throws(PrismRoutingError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw PrismRoutingError(.invalidURL, "the URL cannot be taken apart", url: url)
        }
        let scheme = components.scheme?.lowercased()
        let host = try components.percentEncodedHost.map { encoded throws(PrismRoutingError) in
            try Self.decode(encoded, what: "host", url: url)
        }
        var path: [String] = []

        if let scheme, !Self.webSchemes.contains(scheme) {
            guard schemes.contains(scheme) else {
                throw PrismRoutingError(
                    .unsupportedURL,
                    "the scheme \"\(scheme)\" is not one of the accepted schemes \(schemes.sorted())",
                    url: url
                )
            }
            // myapp://users/42: the host is the first path segment, unless it is a listed host
            // (myapp://example.com/users/42).
            if let host, !host.isEmpty, !hosts.contains(host.lowercased()) {
                path.append(host)
            }
        } else if let host, !host.isEmpty {
            guard hosts.contains(host.lowercased()) else {
                throw PrismRoutingError(
                    .unsupportedURL,
                    "the host \"\(host)\" is not one of the accepted hosts \(hosts.sorted())",
                    url: url
                )
            }
        } else if scheme != nil {
            throw PrismRoutingError(.unsupportedURL, "a web URL needs a host", url: url)
        }

        for segment in components.percentEncodedPath.split(separator: "/") {
            path.append(try Self.decode(segment, what: "path", url: url))
        }
        var query: [String: String] = [:]
        for item in (components.percentEncodedQuery ?? "").split(separator: "&") {
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(pieces[0], what: "query", url: url)
            let value = pieces.count > 1 ? try Self.decode(pieces[1], what: "query", url: url) : ""
            if query[name] == nil { query[name] = value }
        }
        self.path = path
        self.query = query
    }

    private static func decode(
        _ text: some StringProtocol,
        what: String,
        url: URL
    ) throws(PrismRoutingError) -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw PrismRoutingError(
                .invalidURL,
                "the \(what) has a broken percent escape in \"\(text)\"",
                url: url,
                value: String(text)
            )
        }
        return decoded
    }
}
