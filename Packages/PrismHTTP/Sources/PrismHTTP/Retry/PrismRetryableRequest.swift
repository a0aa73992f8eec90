/// An async operation run again, as a retry policy says, when it fails.
///
/// ```swift
/// let retryable = PrismRetryableRequest(
///     policy: PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: 3),
///     operation: { try await client.request(on: GetUserRequest(login: "octocat")) }
/// )
/// let user = try await retryable.execute()
/// ```
///
/// When every attempt fails, ``execute()`` throws a ``PrismHTTPError`` with code
/// `retriesExhausted` whose ``PrismHTTPError/attempts`` say why each attempt failed (a failure
/// the policy does not retry is thrown as it is). Cancelling the task stops the wait at once
/// and throws `CancellationError`. The waits are measured on `clock`, which tests can replace.
///
/// To retry requests sent through a client, pass the policy in ``PrismRequestOptions`` instead:
/// the client then knows each request's method and retries only idempotent ones.
public struct PrismRetryableRequest<Value: Sendable>: Sendable {
    private let policy: any PrismRetryPolicy
    private let operation: @Sendable () async throws -> Value
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a retryable operation that waits on the continuous clock.
    public init(policy: some PrismRetryPolicy, operation: @escaping @Sendable () async throws -> Value) {
        self.init(policy: policy, clock: ContinuousClock(), operation: operation)
    }

    /// Creates a retryable operation that waits on `clock`.
    public init<C: Clock>(
        policy: some PrismRetryPolicy,
        clock: C,
        operation: @escaping @Sendable () async throws -> Value
    ) where C.Duration == Duration {
        self.policy = policy
        self.operation = operation
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// Runs the operation until it succeeds, the policy gives up, or the task is cancelled.
    public func execute() async throws -> Value {
        try await Retrying.run(policy: policy, sleep: sleep, operation)
    }
}

/// The retry loop shared by ``PrismRetryableRequest`` and the client.
enum Retrying {
    nonisolated(nonsending) static func run<Value>(
        policy: any PrismRetryPolicy,
        sleep: @Sendable (Duration) async throws -> Void,
        _ operation: nonisolated(nonsending) () async throws -> Value
    ) async throws -> Value {
        var failures: [any Error] = []
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            do {
                return try await operation()
            } catch {
                if error is CancellationError { throw error }
                failures.append(error)
                guard let delay = policy.delay(afterAttempt: attempt, failure: PrismRetryFailure(error: error)) else {
                    if failures.count == 1 { throw error }
                    throw exhausted(failures)
                }
                try await sleep(delay)
            }
        }
    }

    static func exhausted(_ failures: [any Error]) -> PrismHTTPError {
        let attempts = failures.map { error in
            error as? PrismHTTPError
                ?? PrismHTTPError(code: .transportFailed, message: "\(error)", underlying: error)
        }
        let reasons = attempts.enumerated().map { "attempt \($0.offset + 1): \($0.element.message)" }
        let last = attempts.last
        return PrismHTTPError(
            code: .retriesExhausted,
            message: "\(attempts.count) attempts failed (\(reasons.joined(separator: "; ")))",
            url: last?.url,
            method: last?.method,
            statusCode: last?.statusCode,
            headers: last?.headers,
            body: last?.body,
            underlying: failures.last,
            attempts: attempts
        )
    }
}
