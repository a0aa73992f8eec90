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
        // Byte by byte, ASCII case folded: this runs for every header of every request the cache
        // keys, and Foundation's `contains` is far slower. "authorization", "proxy-authorization"
        // hold "auth"; "cookie" and "set-cookie" are the only names matched whole.
        var lowered: [UInt8] = []
        lowered.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            lowered.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        if lowered.elementsEqual("cookie".utf8) || lowered.elementsEqual("set-cookie".utf8) { return true }
        return sensitiveParts.contains { part in contains(lowered, part) }
    }

    /// What a name holding any of these, in any case, is a secret.
    private static let sensitiveParts: [[UInt8]] = [
        "token", "secret", "password", "passwd", "key", "session", "signature", "credential", "auth",
    ].map { Array($0.utf8) }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        var start = 0
        while start + needle.count <= haystack.count {
            var index = 0
            while index < needle.count && haystack[start + index] == needle[index] { index += 1 }
            if index == needle.count { return true }
            start += 1
        }
        return false
    }
}
