import Foundation

/// What the client's logging hides: credentials in headers and in query strings.
///
/// Header values of `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and of any
/// header whose name mentions a token, secret, password, key or session are replaced by
/// `<redacted>`; so are query items with such names (`access_token`, `api_key`, ...).
public enum PrismHTTPRedaction {
    /// Replaces sensitive header values with `<redacted>`.
    public static func redact(_ headers: PrismHTTPHeaders) -> PrismHTTPHeaders {
        PrismHTTPHeaders(
            headers.map { field in
                isSensitive(field.name) ? .init(name: field.name, value: "<redacted>") : field
            }
        )
    }

    /// The URL as text, with sensitive query item values replaced by `<redacted>` and any
    /// user/password removed.
    public static func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<invalid URL>" }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                isSensitive(item.name) ? URLQueryItem(name: item.name, value: "<redacted>") : item
            }
        }
        return components.string ?? "<invalid URL>"
    }

    /// Whether a header or query item called `name` carries a secret.
    public static func isSensitive(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lowered) { return true }
        return ["token", "secret", "password", "passwd", "key", "session", "signature", "credential", "auth"]
            .contains { lowered.contains($0) }
    }
}
