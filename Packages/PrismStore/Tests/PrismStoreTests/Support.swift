import Foundation
import Observation
import PrismStore
@_exported import PrismTestSupport

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

extension TestClock where Duration == Swift.Duration {
    /// Advances the clock by `duration` once a task sleeps on it (see `waitForSleeper()`).
    func advanceOnceAsleep(by duration: Swift.Duration) async {
        await waitForSleeper()
        await advance(by: duration)
    }
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
