/// Adds credentials to requests, and renews them when the server rejects them.
///
/// The client asks the authenticator to ``authorize(_:)`` every request. When a response says
/// the credentials failed (``isAuthenticationFailure(_:)``, by default a 401), the client asks it
/// to ``refresh(replacing:)`` them and sends the request once more. An authenticator must make
/// concurrent refreshes share one: when twenty requests get a 401 at once, the token is
/// refreshed once and the twenty are retried with it. ``PrismBearerTokenAuthenticator`` does.
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

/// Sends a bearer token in `Authorization`, and refreshes it once for any number of
/// concurrent 401s.
///
/// ```swift
/// let auth = PrismBearerTokenAuthenticator(accessToken: storedToken) { expiredToken in
///     let tokens = try await refreshClient.request(on: RefreshRequest(refreshToken: refreshToken))
///     return tokens.accessToken
/// }
/// let client = PrismNetworkAdapter(authenticator: auth)
/// ```
public actor PrismBearerTokenAuthenticator: PrismAuthenticator {
    /// The current access token, or nil before the first refresh.
    public private(set) var accessToken: String?
    /// How many times the token was refreshed.
    public private(set) var refreshCount = 0

    private let renew: @Sendable (_ expiredToken: String?) async throws -> String
    private var refreshing: Task<String, any Error>?

    /// Creates an authenticator that starts with `accessToken` and gets a new one from `refresh`,
    /// which receives the token that expired.
    public init(accessToken: String?, refresh: @escaping @Sendable (_ expiredToken: String?) async throws -> String) {
        self.accessToken = accessToken
        self.renew = refresh
    }

    /// Adds `Authorization: Bearer <token>`, waiting for a refresh in progress first.
    public func authorize(_ request: PrismHTTPRequest) async throws -> (request: PrismHTTPRequest, credential: String?)
    {
        if let refreshing { _ = try? await refreshing.value }
        var request = request
        if let accessToken { request.headers["Authorization"] = "Bearer \(accessToken)" }
        return (request, accessToken)
    }

    /// Refreshes the token unless it already changed since `credential` was sent; concurrent
    /// callers share one refresh.
    public func refresh(replacing credential: String?) async throws {
        if let refreshing {
            _ = try await refreshing.value
            return
        }
        guard credential == accessToken else { return }
        let renew = self.renew
        let expired = accessToken
        // The task stores the new token before it finishes, so that every caller waiting for it
        // (here or in authorize) resumes with the new token in place.
        let task = Task {
            let token = try await renew(expired)
            self.store(token)
            return token
        }
        refreshing = task
        defer { refreshing = nil }
        do {
            _ = try await task.value
        } catch {
            throw PrismHTTPError(
                code: .authenticationFailed,
                message: "Refreshing the access token failed: \(error)",
                underlying: error
            )
        }
    }

    private func store(_ token: String) {
        accessToken = token
        refreshCount += 1
    }
}
