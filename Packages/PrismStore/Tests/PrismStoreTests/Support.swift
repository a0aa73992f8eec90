import Foundation
import Observation
import PrismStore

/// A value shared between tasks in a test, guarded by a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    var wrappedValue: Value { lock.withLock { value } }

    func mutate<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

/// Counts the notifications an observation sends, re-tracking after each one like SwiftUI.
@MainActor
final class ObservationCounter {
    private(set) var count = 0
    private let read: @MainActor () -> Void

    init(_ read: @escaping @MainActor () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            MainActor.assumeIsolated {
                self?.count += 1
                self?.track()
            }
        }
    }
}

/// Suspends until `condition` holds, polling the main actor; throws after `timeout`.
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

    init() { (stream, continuation) = AsyncStream.makeStream() }

    func open() { continuation.finish() }

    func wait() async { for await _ in stream {} }
}

// MARK: A feature used by many suites

struct Counter: Equatable, Sendable {
    var count = 0
    var log: [String] = []
}

enum CounterAction: Equatable, Sendable {
    case increment
    case decrement
    case set(Int)
    case note(String)
    case noop
    indirect case sendLater(CounterAction)
    case many([CounterAction])
}

struct CounterFeature: PrismReducer {
    func reduce(into state: inout Counter, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .decrement:
            state.count -= 1
            return .none
        case .set(let value):
            state.count = value
            return .none
        case .note(let text):
            state.log.append(text)
            return .none
        case .noop:
            return .none
        case .sendLater(let action):
            return .run { send in send(action) }
        case .many(let actions):
            return .sequence(actions)
        }
    }
}

/// A late-bound reference, for closures that need the store they are given to.
@MainActor
final class Reference<Value: AnyObject> {
    weak var value: Value?
}
