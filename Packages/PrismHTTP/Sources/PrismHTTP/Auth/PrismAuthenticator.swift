/// Adds credentials to requests, and renews them when the server rejects them.
///
/// The client asks the authenticator to ``authorize(_:)`` every request. When a response says
/// the credentials failed (``isAuthenticationFailure(_:)``, by default a 401), the client asks it
/// to ``refresh(replacing:)`` them and sends the request once more. An authenticator must make
/// concurrent refreshes share one: when twenty requests get a 401 at once, the token is
/// refreshed once and the twenty are retried with it. ``PrismBearerTokenAuthenticator`` does,
/// and more: a failed refresh fails every waiting request with `authenticationFailed`, a
/// cancelled request stops waiting at once, refreshes are bounded per window, and the refresh
/// closure may send its request through the same client.
public protocol PrismAuthenticator: Sendable {
    /// Returns `request` with credentials added, and a value that identifies those credentials
    /// (so that a refresh can tell whether they were already replaced).
    func authorize(_ request: PrismHTTPRequest) async throws -> (request: PrismHTTPRequest, credential: String?)

    /// Whether `response` means the credentials were rejected.
    func isAuthenticationFailure(_ response: PrismHTTPResponse) -> Bool

    /// Renews the credentials identified by `credential`; does nothing when they were already
    /// replaced. Throws when renewing fails (the client then fails the request).
    func refresh(replacing credential: String?) async throws
}

extension PrismAuthenticator {
    /// A 401 Unauthorized.
    public func isAuthenticationFailure(_ response: PrismHTTPResponse) -> Bool {
        response.statusCode == 401
    }
}
