/// Sends a bearer token in `Authorization`, and refreshes it once for any number of
/// concurrent 401s.
///
/// ```swift
/// let auth = PrismBearerTokenAuthenticator(accessToken: storedToken) { expiredToken in
///     let tokens = try await client.request(on: RefreshRequest(refreshToken: refreshToken))
///     return tokens.accessToken
/// }
/// let client = PrismNetworkAdapter(authenticator: auth)
/// ```
///
/// - Every request that waits for a refresh (to be authorized, or after its own 401) shares it.
///   When the refresh fails, each of them fails with ``PrismHTTPError/Code-swift.struct/authenticationFailed``,
///   whose ``PrismHTTPError/underlying`` is the refresh closure's error.
/// - A waiting request whose task is cancelled returns `CancellationError` at once; the refresh
///   goes on for the others.
/// - Refreshes are bounded: at most `maximumRefreshes` within `refreshWindow` (3 a minute by
///   default), measured on the clock you give. A server that answers 401 to every new token
///   gets no more; the requests fail with `authenticationFailed` until the window moves on.
/// - The refresh closure may send its request through the same client: requests sent from
///   within it (in its task or tasks it creates, not detached ones) do not wait for the refresh
///   they are part of, and a 401 to them fails the refresh instead of starting another.
public actor PrismBearerTokenAuthenticator: PrismAuthenticator {
    /// The current access token, or nil before the first refresh (which the first request
    /// waits for).
    public private(set) var accessToken: String?
    /// How many times the token was refreshed.
    public private(set) var refreshCount = 0
    /// The most refreshes started within ``refreshWindow``.
    public nonisolated let maximumRefreshes: Int
    /// The window ``maximumRefreshes`` is counted in.
    public nonisolated let refreshWindow: Duration

    private let renew: @Sendable (_ expiredToken: String?) async throws -> String
    private let now: @Sendable () -> Duration
    /// When the refreshes of the current window started.
    private var refreshStarts: [Duration] = []
    /// The refresh under way, if any.
    private var refreshing: Task<Void, Never>?
    /// The requests waiting for it.
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextWaiter = 0

    /// The authenticators whose refresh closure the current task is running.
    @TaskLocal private static var refreshingAuthenticators: Set<ObjectIdentifier> = []

    /// Creates an authenticator that starts with `accessToken` and gets a new one from `refresh`,
    /// which receives the token that expired.
    ///
    /// - Parameters:
    ///   - accessToken: The token to send until the first refresh; nil to get one from
    ///     `refresh` before the first request.
    ///   - maximumRefreshes: The most refreshes within `window` (at least 1).
    ///   - window: The window refreshes are counted in.
    ///   - refresh: Returns a new access token; may send its request through the same client.
    public init(
        accessToken: String?,
        maximumRefreshes: Int = 3,
        per window: Duration = .seconds(60),
        refresh: @escaping @Sendable (_ expiredToken: String?) async throws -> String
    ) {
        self.init(
            accessToken: accessToken, maximumRefreshes: maximumRefreshes, per: window, clock: ContinuousClock(),
            refresh: refresh)
    }

    /// Creates an authenticator whose refresh window is measured on `clock` (a test can pass a
    /// clock it controls).
    public init<C: Clock>(
        accessToken: String?,
        maximumRefreshes: Int = 3,
        per window: Duration = .seconds(60),
        clock: C,
        refresh: @escaping @Sendable (_ expiredToken: String?) async throws -> String
    ) where C.Duration == Duration {
        self.accessToken = accessToken
        self.maximumRefreshes = max(1, maximumRefreshes)
        self.refreshWindow = window
        self.renew = refresh
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
    }

    /// Adds `Authorization: Bearer <token>`, waiting for a refresh in progress first. Without a
    /// token yet (made with `accessToken: nil`), it refreshes first, so that no request goes out
    /// without credentials only to be told 401; concurrent requests share that refresh.
    ///
    /// - Throws: `authenticationFailed` when the refresh it waited for failed;
    ///   `CancellationError` as soon as the task is cancelled while waiting.
    public func authorize(_ request: PrismHTTPRequest) async throws -> (request: PrismHTTPRequest, credential: String?)
    {
        if !isInsideOwnRefresh {
            if accessToken == nil {
                try await refresh(replacing: nil)
            } else if refreshing != nil {
                try await waitForRefresh()
            }
        }
        var request = request
        if let accessToken { request.headers["Authorization"] = "Bearer \(accessToken)" }
        return (request, accessToken)
    }

    /// Refreshes the token unless it already changed since `credential` was sent; concurrent
    /// callers share one refresh.
    ///
    /// - Throws: `authenticationFailed` when the refresh fails, when the refresh limit of the
    ///   window is reached, or when the refresh's own request was rejected; `CancellationError`
    ///   as soon as the task is cancelled while waiting.
    public func refresh(replacing credential: String?) async throws {
        if isInsideOwnRefresh {
            throw Self.failure("The refresh request itself was rejected: the refresh cannot authorize it.")
        }
        if refreshing != nil {
            try await waitForRefresh()
            return
        }
        guard credential == accessToken else { return }
        let time = now()
        refreshStarts.removeAll { time - $0 >= refreshWindow }
        guard refreshStarts.count < maximumRefreshes else {
            throw Self.failure(
                "The token was refreshed \(maximumRefreshes) times within \(refreshWindow) and the server still "
                    + "rejects it: no more refreshes until the window moves on.")
        }
        refreshStarts.append(time)
        startRefresh()
        try await waitForRefresh()
    }

    private var isInsideOwnRefresh: Bool {
        Self.refreshingAuthenticators.contains(ObjectIdentifier(self))
    }

    private func startRefresh() {
        let renew = self.renew
        let expired = accessToken
        var marked = Self.refreshingAuthenticators
        marked.insert(ObjectIdentifier(self))
        let inside = marked
        refreshing = Task {
            let result: Result<String, any Error>
            do {
                let token = try await Self.$refreshingAuthenticators.withValue(inside) { try await renew(expired) }
                result = .success(token)
            } catch {
                result = .failure(error)
            }
            self.finishRefresh(result)
        }
    }

    private func finishRefresh(_ result: Result<String, any Error>) {
        refreshing = nil
        let waiting = waiters
        waiters = [:]
        switch result {
        case .success(let token):
            accessToken = token
            refreshCount += 1
            for continuation in waiting.values { continuation.resume() }
        case .failure(let error):
            let failure = PrismHTTPError(
                code: .authenticationFailed,
                message: "Refreshing the access token failed (\(type(of: error))).",
                underlying: error
            )
            for continuation in waiting.values { continuation.resume(throwing: failure) }
        }
    }

    /// Waits until the refresh under way ends; returns `CancellationError` at once when the
    /// task is cancelled.
    private func waitForRefresh() async throws {
        let id = nextWaiter
        nextWaiter += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if refreshing == nil {
                    continuation.resume()
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    private static func failure(_ message: String) -> PrismHTTPError {
        PrismHTTPError(code: .authenticationFailed, message: message)
    }
}
