import Foundation

/// The WebSocket URL of an endpoint, and the `http(s)` URL its upgrade request is prepared as:
/// PrismWebSocket's and PrismGraphQL's subscriptions share the rule.
@_spi(PrismInternals) public enum WebSocketURL {
    /// `url` with `http` as `ws` and `https` as `wss` (host, port, path, query kept); a `ws` or
    /// `wss` URL as it is; nil for any other URL or one without a host.
    public static func derived(from url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { return nil }
        switch scheme {
        case "http", "ws": components.scheme = "ws"
        case "https", "wss": components.scheme = "wss"
        default: return nil
        }
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        return components.url
    }

    /// `url` as the `http(s)` URL of the upgrade request (what interceptors see).
    public static func upgradeRequestURL(for url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.scheme = components.scheme?.lowercased() == "wss" ? "https" : "http"
        return components.url ?? url
    }
}
