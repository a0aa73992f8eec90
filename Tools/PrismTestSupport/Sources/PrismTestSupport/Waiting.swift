@_exported import Clocks
import Foundation

/// Thrown by ``eventually(timeout:_:)`` when the condition never held.
public struct TimeoutError: Error {}

/// Suspends until `condition` holds, looking again every millisecond; throws after `timeout`.
///
/// Only a failing test waits the whole timeout: the default is generous because CI runs many
/// suites at once on two cores, where a task can wait seconds for a thread.
@MainActor
public func eventually(
    timeout: Duration = .seconds(20),
    _ condition: @MainActor () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        if clock.now > deadline { throw TimeoutError() }
        try await Task.sleep(for: .milliseconds(1))
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
    /// executors, not time on this clock; after `timeout` of real time (a failing test), it
    /// returns anyway and the test fails on what it expected.
    public func waitForSleeper(timeout: Swift.Duration = .seconds(20)) async {
        let wall = ContinuousClock()
        let deadline = wall.now.advanced(by: timeout)
        while wall.now < deadline {
            if await hasSleeper() { return }
            try? await Task.sleep(for: .milliseconds(1))
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
