import Foundation
@_spi(PrismInternals) import PrismCache
import PrismSupport

/// Decides whether a failed attempt is tried again, and after how long.
///
/// ``PrismExponentialBackoff`` is the policy that ships. Write your own to retry other failures
/// or to space attempts differently.
public protocol PrismRetryPolicy: Sendable {
    /// The most attempts in all, the first included.
    var maxAttempts: Int { get }

    /// How long to wait before the next attempt, after `attempt` attempts (1 for the first)
    /// ended in `failure`; `nil` not to retry.
    func delay(afterAttempt attempt: Int, failure: PrismRetryFailure) -> Duration?
}

/// Why an attempt failed, as a retry policy sees it.
public struct PrismRetryFailure: Sendable {
    /// The error the attempt threw (a ``PrismHTTPError`` for requests, or any error of a closure).
    public let error: any Error

    /// Creates a failure for `error`.
    public init(error: any Error) {
        self.error = error
    }

    /// The error as a ``PrismHTTPError``, when it is one.
    public var httpError: PrismHTTPError? { error as? PrismHTTPError }

    /// The response status, when a response arrived.
    public var statusCode: Int? { httpError?.statusCode }

    /// The method of the request, when known.
    public var method: PrismNetworkMethod? { httpError?.method }

    /// Whether the failure is transient: a timeout, a lost connection, or a 408, 429 or 5xx.
    /// Other statuses (400, 401, 404, ...) and decoding failures are not: trying again would
    /// fail again.
    public var isTransient: Bool {
        guard let error = httpError else { return false }
        switch error.code {
        case .timedOut, .connectionFailed:
            return true
        case .unacceptableStatus:
            guard let status = error.statusCode else { return false }
            return status == 408 || status == 429 || (500...599).contains(status)
        default:
            return false
        }
    }

    /// How long the server asked to wait (`Retry-After` on a 429 or 503), in seconds or as an
    /// HTTP date; nil when it did not say.
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard let error = httpError, let status = error.statusCode, status == 429 || status == 503,
            let value = error.headers?["Retry-After"]?.trimmingCharacters(in: .whitespaces)
        else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let seconds = HTTPDate.parse(value) else { return nil }
        let interval = Date(timeIntervalSince1970: TimeInterval(seconds)).timeIntervalSince(now)
        return .milliseconds(Int64(max(0, interval) * 1_000))
    }
}

/// Never retries: one attempt. What a request passes (`PrismRequestOptions(retryPolicy:
/// PrismNoRetry())`) to opt out of its client's default retry policy.
public struct PrismNoRetry: PrismRetryPolicy {
    /// One attempt.
    public var maxAttempts: Int { 1 }

    /// Creates the policy.
    public init() {}

    /// Always nil: no attempt after the first.
    public func delay(afterAttempt attempt: Int, failure: PrismRetryFailure) -> Duration? { nil }
}

/// Retries transient failures with exponentially growing delays, plus random jitter.
///
/// ```swift
/// let retryable = PrismRetryableRequest(
///     policy: PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: 3),
///     operation: { try await client.request(on: GetUserRequest(login: "octocat")) }
/// )
/// let user = try await retryable.execute()
/// ```
///
/// The n-th retry waits `baseDelay × 2ⁿ⁻¹` plus up to `jitter` (0.5 s by default) of random
/// delay, so that clients do not retry in step, and never more than `maxDelay`. A `Retry-After`
/// on a 429 or 503 replaces the computed delay (capped by `maxDelay` too). Only transient
/// failures are retried (see ``PrismRetryFailure/isTransient``), and only for idempotent methods
/// (GET, HEAD, PUT, DELETE, OPTIONS) unless `retryingNonIdempotentMethods` is set: a POST that
/// timed out may have been applied.
public struct PrismExponentialBackoff: PrismRetryPolicy {
    /// The delay before the first retry.
    public let baseDelay: Duration
    /// The longest delay, jitter and `Retry-After` included.
    public let maxDelay: Duration
    /// The most attempts in all, the first included.
    public let maxAttempts: Int
    /// The most random delay added to each computed delay.
    public let jitter: Duration
    /// Whether POST and PATCH are retried too.
    public let retryingNonIdempotentMethods: Bool

    /// Creates a policy.
    ///
    /// - Precondition: `maxAttempts` is at least 1 and the delays are not negative.
    public init(
        baseDelay: Duration = .seconds(1),
        maxDelay: Duration = .seconds(30),
        maxAttempts: Int = 3,
        jitter: Duration = .milliseconds(500),
        retryingNonIdempotentMethods: Bool = false
    ) {
        precondition(maxAttempts >= 1, "PrismExponentialBackoff needs at least one attempt (maxAttempts >= 1).")
        precondition(baseDelay >= .zero && maxDelay >= .zero && jitter >= .zero, "Retry delays cannot be negative.")
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxAttempts = maxAttempts
        self.jitter = jitter
        self.retryingNonIdempotentMethods = retryingNonIdempotentMethods
    }

    /// The delay before the next attempt, or nil when the failure is not worth retrying or
    /// the attempts are spent.
    public func delay(afterAttempt attempt: Int, failure: PrismRetryFailure) -> Duration? {
        guard attempt < maxAttempts, failure.isTransient else { return nil }
        if let method = failure.method, !method.isIdempotent, !retryingNonIdempotentMethods { return nil }
        if let retryAfter = failure.retryAfter() { return min(retryAfter, maxDelay) }
        let exponent = min(attempt - 1, 30)
        let computed = baseDelay * (1 << exponent)
        let random = jitter > .zero ? jitter * Double.random(in: 0...1) : .zero
        return min(computed + random, maxDelay)
    }
}
