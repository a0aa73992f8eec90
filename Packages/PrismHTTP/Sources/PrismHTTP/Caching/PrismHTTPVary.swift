/// HTTP's `Vary` rule (RFC 9111 §4.1) for Prism's other caches: PrismGraphQL keeps answers to
/// POSTs, which HTTP caching does not cover, and applies the same rule to them.
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`): not a stable API.
@_spi(PrismInternals)
public enum PrismHTTPVary {
    /// The header names `headers`' `Vary` fields list, lowercased; nil for `Vary: *` (a response
    /// that is never reused).
    public static func names(in headers: PrismHTTPHeaders) -> [String]? {
        HTTPCaching.varyNames(headers)
    }

    /// What `request` sends for `names`, as an entry stores it (a secret header's value only as
    /// a SHA-256).
    public static func values(of names: [String], in request: PrismHTTPRequest) -> [String: String] {
        HTTPCaching.values(of: names, in: request)
    }

    /// Whether an entry stored with `stored` for a response that said `vary` may answer
    /// `request`: it sends the same values for every header the response varies on.
    public static func matches(_ stored: [String: String], vary: String?, _ request: PrismHTTPRequest) -> Bool {
        guard let vary else { return true }
        guard let names = HTTPCaching.varyNames(PrismHTTPHeaders(["Vary": vary])) else { return false }
        return HTTPCaching.values(of: names, in: request) == stored
    }
}
