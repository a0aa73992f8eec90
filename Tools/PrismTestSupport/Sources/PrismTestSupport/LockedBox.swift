import Foundation
import PrismSupport

/// A value shared between tasks in a test, guarded by a lock.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = PrismLocked<Void>()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// The value now.
    public var wrappedValue: Value { lock.withLock { value } }

    /// Changes the value under the lock and returns what `body` returns.
    public func mutate<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
