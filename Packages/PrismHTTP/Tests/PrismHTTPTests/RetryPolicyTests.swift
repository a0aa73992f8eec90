import Foundation
import PrismHTTP
import PrismTestSupport
import Testing

@Suite("Retry policies")
struct RetryPolicyTests {
    func failure(
        status: Int? = nil, code: PrismHTTPError.Code = .unacceptableStatus, method: PrismNetworkMethod = .get,
        headers: PrismHTTPHeaders = [:]
    )
        -> PrismRetryFailure
    {
        PrismRetryFailure(
            error: PrismHTTPError(code: code, message: "x", method: method, statusCode: status, headers: headers))
    }

    @Test("delays grow exponentially, with at most 0.5 s of jitter, capped at maxDelay")
    func exponentialWithJitter() {
        let policy = PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: 10)
        for attempt in 1...5 {
            let base = Duration.seconds(1 << (attempt - 1))
            for _ in 0..<50 {
                let delay = policy.delay(afterAttempt: attempt, failure: failure(status: 503))!
                #expect(delay >= base && delay <= base + .milliseconds(500))
            }
        }
        #expect(policy.delay(afterAttempt: 9, failure: failure(status: 503)) == .seconds(30))
    }

    @Test("at most maxAttempts attempts in all")
    func maxAttempts() {
        let policy = PrismExponentialBackoff(maxAttempts: 3)
        #expect(policy.delay(afterAttempt: 2, failure: failure(status: 500)) != nil)
        #expect(policy.delay(afterAttempt: 3, failure: failure(status: 500)) == nil)
    }

    @Test("only transient failures are retried: timeouts, lost connections, 408, 429, 5xx")
    func transientOnly() {
        let policy = PrismExponentialBackoff(maxAttempts: 5)
        for status in [408, 429, 500, 502, 503, 504] {
            #expect(policy.delay(afterAttempt: 1, failure: failure(status: status)) != nil)
        }
        for status in [400, 401, 403, 404, 409, 422] {
            #expect(policy.delay(afterAttempt: 1, failure: failure(status: status)) == nil)
        }
        #expect(policy.delay(afterAttempt: 1, failure: failure(code: .timedOut)) != nil)
        #expect(policy.delay(afterAttempt: 1, failure: failure(code: .connectionFailed)) != nil)
        #expect(policy.delay(afterAttempt: 1, failure: failure(code: .decodingFailed)) == nil)
        struct Other: Error {}
        #expect(policy.delay(afterAttempt: 1, failure: PrismRetryFailure(error: Other())) == nil)
    }

    @Test("only idempotent methods are retried by default")
    func idempotentOnly() {
        let policy = PrismExponentialBackoff(maxAttempts: 5)
        for method in [PrismNetworkMethod.get, .head, .put, .delete, .options] {
            #expect(policy.delay(afterAttempt: 1, failure: failure(status: 503, method: method)) != nil)
        }
        for method in [PrismNetworkMethod.post, .patch] {
            #expect(policy.delay(afterAttempt: 1, failure: failure(status: 503, method: method)) == nil)
        }
        let lenient = PrismExponentialBackoff(maxAttempts: 5, retryingNonIdempotentMethods: true)
        #expect(lenient.delay(afterAttempt: 1, failure: failure(status: 503, method: .post)) != nil)
    }

    @Test("Retry-After in seconds and as an HTTP date is honoured on 429 and 503, capped by maxDelay")
    func retryAfter() {
        let policy = PrismExponentialBackoff(baseDelay: .milliseconds(10), maxDelay: .seconds(20), maxAttempts: 5)
        #expect(
            policy.delay(afterAttempt: 1, failure: failure(status: 429, headers: ["Retry-After": "7"])) == .seconds(7))
        #expect(
            policy.delay(afterAttempt: 1, failure: failure(status: 503, headers: ["Retry-After": "120"]))
                == .seconds(20))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        // The policy measures the date from its own "now", somewhere between `before` and
        // `after`: the delay is bounded by both, however long a busy machine takes in between.
        let before = Date()
        let inTenSeconds = Date(timeIntervalSince1970: (before.timeIntervalSince1970 + 10).rounded(.down))
        let fromDate = policy.delay(
            afterAttempt: 1,
            failure: failure(status: 503, headers: ["Retry-After": formatter.string(from: inTenSeconds)]))!
        let after = Date()
        func milliseconds(_ interval: TimeInterval) -> Duration { .milliseconds(Int64(max(0, interval) * 1_000)) }
        #expect(fromDate <= milliseconds(inTenSeconds.timeIntervalSince(before)) + .milliseconds(1))
        #expect(fromDate >= milliseconds(inTenSeconds.timeIntervalSince(after)) - .milliseconds(1))
        // Retry-After on a 500 is not the server asking to wait: the computed delay applies.
        let other = policy.delay(afterAttempt: 1, failure: failure(status: 500, headers: ["Retry-After": "7"]))!
        #expect(other < .seconds(1))
    }
}

@Suite("Retrying an operation")
struct RetryableRequestTests {
    struct Flaky: Error {}

    @Test("the seed's retryable request retries until the operation succeeds")
    func seedShape() async throws {
        let calls = LockedBox(0)
        let retryable = PrismRetryableRequest(
            policy: PrismExponentialBackoff(
                baseDelay: .milliseconds(1),
                maxDelay: .milliseconds(5),
                maxAttempts: 3,
                jitter: .zero
            ),
            operation: {
                let call = calls.mutate { value -> Int in
                    value += 1
                    return value
                }
                if call < 3 { throw PrismHTTPError(code: .unacceptableStatus, message: "busy", statusCode: 503) }
                return "ok"
            }
        )
        let value = try await retryable.execute()
        #expect(value == "ok")
        #expect(calls.wrappedValue == 3)
    }

    @Test("when every attempt fails the error says how many and why each failed")
    func exhausted() async {
        let clock = ImmediateClock()
        let start = clock.now
        let calls = LockedBox(0)
        let retryable = PrismRetryableRequest(
            policy: PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: 3),
            clock: clock,
            operation: { () async throws -> Int in
                let call = calls.mutate { value -> Int in
                    value += 1
                    return value
                }
                throw PrismHTTPError(code: .unacceptableStatus, message: "attempt \(call) got 503", statusCode: 503)
            }
        )
        do {
            _ = try await retryable.execute()
            Issue.record("expected the retries to be exhausted")
        } catch let error as PrismHTTPError {
            #expect(error.code == .retriesExhausted)
            #expect(error.attempts.count == 3)
            #expect(error.attempts.map(\.message) == ["attempt 1 got 503", "attempt 2 got 503", "attempt 3 got 503"])
            #expect(error.message.contains("3 attempts failed"))
            #expect(error.statusCode == 503)
        } catch {
            Issue.record("unexpected \(error)")
        }
        // The waits happened on the injected clock, not in real time.
        #expect(start.duration(to: clock.now) >= .seconds(3))
    }

    @Test("a failure the policy does not retry is thrown as it is, after one attempt")
    func notRetried() async {
        let calls = LockedBox(0)
        let retryable = PrismRetryableRequest(policy: PrismExponentialBackoff(maxAttempts: 5)) {
            () async throws -> Int in
            calls.mutate { $0 += 1 }
            throw PrismHTTPError(code: .unacceptableStatus, message: "not found", statusCode: 404)
        }
        await #expect(throws: PrismHTTPError.self) { try await retryable.execute() }
        #expect(calls.wrappedValue == 1)
    }

    @Test("cancelling the task stops the wait at once, without the clock moving, and tries nothing more")
    func cancellationStopsTheWait() async {
        let clock = TestClock()
        let start = clock.now
        let calls = LockedBox(0)
        let retryable = PrismRetryableRequest(
            policy: PrismExponentialBackoff(
                baseDelay: .seconds(60), maxDelay: .seconds(60), maxAttempts: 3, jitter: .zero),
            clock: clock
        ) { () async throws -> Int in
            calls.mutate { $0 += 1 }
            throw PrismHTTPError(code: .timedOut, message: "slow")
        }
        let task = Task { try await retryable.execute() }
        // The first attempt failed and the retry waits its 60 s on the test clock.
        await clock.waitForSleeper()
        #expect(calls.wrappedValue == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The wait ended although no time passed, and no attempt followed.
        #expect(clock.now == start)
        #expect(calls.wrappedValue == 1)
        await #expect(throws: Never.self) { try await clock.checkSuspension() }
    }
}
