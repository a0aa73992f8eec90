/// Which redirects a transport follows: a setting of ``PrismTransportConfiguration``.
///
/// ```swift
/// let transport = PrismAsyncHTTPClientTransport(
///     configuration: PrismTransportConfiguration(redirects: .sameOrigin())
/// )
/// ```
///
/// Whatever the policy, a transport that ships with Prism follows a redirect (301, 302, 303, 307,
/// 308 with a `Location`) only as a careful browser would:
/// - never from `https` to `http`, and never to a scheme other than `http` or `https`;
/// - when the redirect leaves the origin (scheme, host and port: `127.0.0.1` and `localhost` are
///   two origins), `Authorization`, `Proxy-Authorization`, `Cookie` and every header that
///   ``PrismHTTPRedaction`` treats as secret (`X-API-Key`, `X-Auth-Token`, ...) are dropped, and a
///   request body is never sent there (a 307 or 308 of a request with a body is not followed);
/// - a 303 becomes a GET, as does a 301 or 302 of a POST, without the body.
///
/// A redirect the policy does not follow is returned as the response (a `302` with its
/// `Location`); more redirects in a row than ``maximum`` fail with
/// ``PrismHTTPError/Code-swift.struct/tooManyRedirects``.
public struct PrismRedirectPolicy: Sendable, Hashable, CustomStringConvertible {
    enum Scope: Hashable {
        case none
        case anyOrigin
        case sameOrigin
    }

    let scope: Scope
    /// The most redirects followed in a row for one request; 0 for ``none``.
    public let maximum: Int

    private init(scope: Scope, maximum: Int) {
        self.scope = scope
        self.maximum = scope == .none ? 0 : max(0, maximum)
    }

    /// Follows up to `maximum` redirects (5 by default), to any origin, with the rules above.
    public static func follow(maximum: Int = 5) -> PrismRedirectPolicy {
        PrismRedirectPolicy(scope: .anyOrigin, maximum: maximum)
    }

    /// Follows up to `maximum` redirects (5 by default) that stay on the request's origin (same
    /// scheme, host and port); a redirect elsewhere is returned as the response.
    public static func sameOrigin(maximum: Int = 5) -> PrismRedirectPolicy {
        PrismRedirectPolicy(scope: .sameOrigin, maximum: maximum)
    }

    /// Follows no redirect: every 3xx is returned as the response.
    public static let none = PrismRedirectPolicy(scope: .none, maximum: 0)

    /// ``follow(maximum:)`` with 5 redirects: what AsyncHTTPClient, OkHttp and browsers do, but
    /// stricter about credentials.
    public static var `default`: PrismRedirectPolicy { .follow() }

    /// The policy as it is written in code, such as `follow(maximum: 5)`.
    public var description: String {
        switch scope {
        case .none: "none"
        case .anyOrigin: "follow(maximum: \(maximum))"
        case .sameOrigin: "sameOrigin(maximum: \(maximum))"
        }
    }
}
