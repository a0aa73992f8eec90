import Foundation
import PrismSupport

/// One timeout for a whole exchange: the head, the body, and every redirect.
///
/// URLSession's timeout restarts with every packet, and AsyncHTTPClient's async API ends its
/// deadline when the response head arrives, so a server that answers its headers and then
/// stalls, or sends its body a byte at a time, could hold a request (and a pooled connection)
/// forever. The exchanges that need it run under a deadline of their own: when it passes, the
/// exchange is cancelled (its connection closed) and the request fails with `timedOut`.
///
/// An upload is the client's own slow part: while its body is being sent, the deadline moves
/// with each bit of progress (a stalled send still fails after `timeout`); once the body is
/// sent, the response must arrive whole within `timeout` (``Watchdog``).
enum Deadline {
    /// What must arrive by the deadline: what its `timedOut` error says was late.
    enum Bound: Sendable {
        /// The whole response (or an upload's progress, with a ``Watchdog``).
        case whole
        /// The response's status and headers: a stream's head, after which the idle timeout
        /// bounds its body.
        case head
    }

    static func run<Value: Sendable>(
        _ timeout: Duration,
        url: URL,
        clock: DeadlineClock = .continuous,
        watchdog: Watchdog? = nil,
        what bound: Bound = .whole,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                if let watchdog {
                    while true {
                        let expiry = watchdog.expiry
                        if expiry <= watchdog.clock.now() { return nil }
                        try await watchdog.clock.sleep(expiry)
                    }
                }
                try await clock.sleep(clock.now() + timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            guard let value = first else {
                throw PrismHTTPError(
                    code: .timedOut,
                    message: bound == .head
                        ? "No response (status and headers) arrived within \(timeout)."
                        : watchdog == nil
                            ? "The whole response did not arrive within \(timeout)."
                            : "The upload made no progress, or its response did not arrive, within \(timeout).",
                    url: url
                )
            }
            return value
        }
    }

    /// The moving deadline of an upload: pushed back by each bit of progress while the body is
    /// sent, then fixed, a timeout after the last byte, for the response.
    final class Watchdog: Sendable {
        /// The deadline as of now, and whether it moves no more (the whole body is out).
        private struct State {
            var current: Duration
            var isFinal = false
        }

        private let state: PrismLocked<State>
        private let timeout: Duration
        private let length: Int64
        /// The clock the deadline is measured on.
        let clock: DeadlineClock

        init(timeout: Duration, length: Int64, clock: DeadlineClock = .continuous) {
            self.timeout = timeout
            self.length = length
            self.clock = clock
            self.state = PrismLocked(State(current: clock.now() + timeout))
        }

        /// When the exchange times out, as of now, on ``clock``.
        var expiry: Duration { state.withLock { $0.current } }

        /// Records that `sent` bytes of the body are out (or staged): the deadline moves a
        /// timeout ahead, for the last time once the whole body is out.
        func progressed(to sent: Int64) {
            let now = clock.now()
            state.withLock { state in
                guard !state.isFinal else { return }
                state.current = now + timeout
                if sent >= length { state.isFinal = true }
            }
        }

        /// Records progress without ending the body (staging it to disk, say).
        func touched() {
            let now = clock.now()
            state.withLock { state in if !state.isFinal { state.current = now + timeout } }
        }
    }
}

/// The clock a ``Deadline`` is measured on: the continuous clock, or one a test moves by hand.
/// Its instants are the time since it was made.
struct DeadlineClock: Sendable {
    /// The time since the clock was made.
    let now: @Sendable () -> Duration
    /// Sleeps until ``now`` reaches the given instant.
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { instant in try await clock.sleep(until: start.advanced(by: instant), tolerance: nil) }
    }

    /// The continuous clock (time goes on while the machine sleeps).
    static let continuous = DeadlineClock(ContinuousClock())
}
