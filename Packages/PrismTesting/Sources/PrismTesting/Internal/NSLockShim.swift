import Foundation

/// A lock for the test store's end-of-test bookkeeping.
final class NSLockShim: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
