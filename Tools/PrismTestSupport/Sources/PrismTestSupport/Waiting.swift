@_exported import Clocks
import Foundation

/// Thrown by ``eventually(timeout:_:)`` when the condition never held.
public struct TimeoutError: Error {}

/// Suspends until `condition` holds, looking again after a millisecond, then less and less often
/// (every 10 ms at most); throws after `timeout`.
///
/// Only a failing test waits the whole timeout: the default is two minutes because CI and a
/// developer's machine run many suites at once on two cores beside other work, where a task can
/// wait seconds for a thread. A condition that holds returns as soon as it is seen; looking less
/// often leaves the two threads to the tests that are running.
@MainActor
public func eventually(
    timeout: Duration = .seconds(120),
    _ condition: @MainActor () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var pause = Duration.milliseconds(1)
    while !condition() {
        if clock.now > deadline { throw TimeoutError() }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(10))
    }
}

/// Runs `body`, which blocks (waits for a process, a lock, a pipe), on a thread of its own,
/// not on one of the few threads Swift concurrency runs every test's tasks on.
public func offTheCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

extension TestClock where Duration == Swift.Duration {
    /// Waits until a task sleeps on this clock, so that advancing it reaches that sleep.
    ///
    /// `advance(by:)` only wakes the sleeps that began before it; an effect started by a send
    /// may not have reached its `sleep` yet on a busy machine. Looking costs turns of the
    /// executors, not time on this clock; after `timeout` of real time (a failing test, or a
    /// machine far busier than any seen), it returns anyway and the test fails on what it expected.
    public func waitForSleeper(timeout: Swift.Duration = .seconds(60)) async {
        let wall = ContinuousClock()
        let deadline = wall.now.advanced(by: timeout)
        var pause = Swift.Duration.milliseconds(1)
        while wall.now < deadline {
            if await hasSleeper() { return }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(10))
        }
    }

    /// Whether a task sleeps on this clock now (`checkSuspension` throws when one does).
    private func hasSleeper() async -> Bool {
        do {
            try await checkSuspension()
            return false
        } catch {
            return true
        }
    }
}

/// Advances `clock` by `step`, once a task sleeps on it, until `condition` holds; at most
/// `limit` times.
///
/// A sleep that was cancelled (a timer the code under test cancelled) leaves the clock's list of sleepers
/// only when its task runs again: on a busy machine `waitForSleeper()` may see it rather than
/// the sleep the test means, and that advance wakes nothing. Only then is the clock advanced again.
/// `settle` is how long each advance but the last waits for `condition` (real time): a test whose
/// condition needs several advances, and takes one too many without harm, passes a short one.
@MainActor
public func advance(
    _ clock: TestClock<Duration>, by step: Duration, settle: Duration = .seconds(5), limit: Int = 5,
    until condition: @escaping @MainActor () -> Bool
) async throws {
    for _ in 1..<limit {
        await clock.waitForSleeper()
        await clock.advance(by: step)
        if (try? await eventually(timeout: settle, condition)) != nil { return }
    }
    await clock.waitForSleeper()
    await clock.advance(by: step)
    // The last try waits long: a machine busy enough to need every try may need it.
    try await eventually(timeout: .seconds(60), condition)
}
