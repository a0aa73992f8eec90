import Foundation
@_spi(PrismInternals) import PrismEffects

/// A value shared between tasks in a test, guarded by a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    var wrappedValue: Value { lock.withLock { value } }

    func mutate<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

/// Drives a real `PrismEffectRuntime` the way a store does, recording what reaches it.
@MainActor
final class RuntimeHarness<Action: Sendable> {
    let runtime = PrismEffectRuntime<Action>()
    /// Every action, immediate or delivered by an effect, in the order it arrived.
    private(set) var received: [Action] = []
    /// Errors effects threw and did not handle.
    let errors = LockedBox<[PrismEffectError]>([])

    init() {
        runtime.setDeliver { [weak self] action, _ in self?.received.append(action) }
        let errors = self.errors
        runtime.unhandledErrorHandler = { error in errors.mutate { $0.append(error) } }
    }

    @discardableResult
    func start(_ effect: PrismEffect<Action>) -> PrismEffectTask {
        var task = PrismEffectTask()
        runtime.start(effect, task: &task) { received.append($0) }
        return task
    }
}

/// Suspends until `condition` holds, polling the main actor; fails after `timeout`.
@MainActor
func eventually(
    timeout: Duration = .seconds(5),
    _ condition: @MainActor () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        if clock.now > deadline { throw TimeoutError() }
        try await Task.sleep(for: .milliseconds(1))
    }
}

struct TimeoutError: Error {}

/// A one-shot signal that tasks can wait for.
final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func open() { continuation.finish() }

    func wait() async { for await _ in stream {} }
}
