import Foundation

/// Counts how many times an observation fired; safe to bump from any thread.
final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// How many times ``increment()`` was called.
    var count: Int {
        lock.withLock { value }
    }

    /// Counts one more change.
    func increment() {
        lock.withLock { value += 1 }
    }
}
