/// Where a response came from: the server, or the cache (fresh, confirmed by the server, or
/// stale and why), so that an app can say "offline: showing what was saved 2 hours ago".
///
/// ```swift
/// let response = try await client.send(try await client.prepare(request, options: PrismRequestOptions()))
/// if case .stale(.networkFailed) = response.source, let age = response.age {
///     print("Offline: showing what was saved \(age.components.seconds / 60) minutes ago")
/// }
/// ```
public enum PrismResponseSource: Sendable, Hashable {
    /// From the server, for this request.
    case network
    /// From the cache, fresh: the server was not asked.
    case cache
    /// From the cache, after the server confirmed it with `304 Not Modified`.
    case revalidated
    /// From the cache, stale: the server was not asked, or could not answer; `reason` says what
    /// allowed it.
    case stale(PrismStaleReason)

    /// Whether the response came from the cache (fresh, revalidated or stale).
    public var isFromCache: Bool { self != .network }
}

/// Why a stale response was served.
public enum PrismStaleReason: Sendable, Hashable {
    /// The request's cache policy serves stale responses (`.cacheFirst`,
    /// `.staleWhileRevalidate`).
    case policy
    /// The response's `stale-while-revalidate` window (RFC 5861): it is being revalidated in the
    /// background.
    case staleWhileRevalidate
    /// The request asked for it: `Cache-Control: max-stale` or `only-if-cached`.
    case requested
    /// The server could not be reached; the failure's code (`connectionFailed`, `timedOut`, ...).
    case networkFailed(PrismHTTPError.Code)
    /// The server answered with an error status, and `stale-if-error` (RFC 5861) allowed the
    /// stored response instead.
    case serverError(status: Int)
}
