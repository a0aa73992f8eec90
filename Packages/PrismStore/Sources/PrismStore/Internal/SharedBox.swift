import PrismSupport

/// The one place a shared value lives: what every ``PrismShared`` of one key in one storage
/// refers to.
///
/// ## Threads
/// The value is changed on the main actor only (in reducers; a write from anywhere else is a
/// programmer error and traps with a message). "On the main actor" is checked as "on the main
/// thread or in a job of the main queue" (`PrismMainExecutor`), in a nanosecond on the main
/// thread. Readers there never race a writer and read it without a lock. Readers on other
/// threads (a persisting middleware encoding a state that holds it, an `==` on a background
/// queue) take `lock`, which a write holds for as long as it changes the value, so they see it
/// before or after a change, never in the middle.
///
/// ## Observation
/// The box is the `ObservationRegistrar` of its value (a `StateRegistrar`): every read records
/// an access, every change notifies only the observers of this value.
///
/// ## Tests
/// While a `PrismTestStore` records or checks an action, `PrismSharedTracking` is active and
/// a write goes through `noteTrackedWrite()`: recorded with the value before it, or, while the
/// test's closure describes the expected state, made to `assertion.expected` instead of the
/// value (see SharedTracking.swift).
@usableFromInline
final class SharedBox<Value: Sendable>: StateRegistrar, @unchecked Sendable {
    /// The value. Written on the main actor under `lock`; read unlocked there, locked elsewhere.
    @usableFromInline
    @exclusivity(unchecked)
    var value: Value

    /// While a test store checks an action that changed this value: the value the test expects
    /// (which its closure changes) and the one the action left. Main thread only.
    @usableFromInline
    @exclusivity(unchecked)
    var assertion: SharedAssertion<Value>?

    /// Held by a write (on the main thread) and by reads on other threads.
    @usableFromInline
    let lock = PrismLocked<Void>()

    /// How many writes are under way (a write inside a write, on the main thread, takes the lock
    /// once). Main thread only.
    @usableFromInline
    @exclusivity(unchecked)
    var writeDepth = 0

    /// The key's id in its storage, or nil for a value made with `PrismShared(value:)`.
    @usableFromInline
    let id: String?

    /// What keeps the value between launches, told about each change; set once, before the box
    /// is handed out.
    @usableFromInline
    var backing: (any PrismSharedBacking<Value>)?

    @usableFromInline
    init(value: Value, id: String?) {
        self.value = value
        self.id = id
        super.init()
    }

    /// The value, recorded as read for Observation.
    @inlinable
    func read() -> Value {
        accessState()
        guard PrismMainExecutor.isCurrent else {
            return lock.withLock { value }
        }
        SharedReads.count &+= 1
        if let assertion { return assertion.expected }
        return value
    }

    /// Starts a change: whether it goes to `assertion.expected` (a test describing the expected
    /// state) rather than to the value.
    @inlinable
    func beginWrite() -> Bool {
        precondition(
            PrismMainExecutor.isCurrent,
            """
            PrismShared: the shared value \(id.map { "'\($0)'" } ?? "") was changed off the main actor. \
            Change shared values in a reducer (it runs on the main actor), or from a @MainActor context.
            """
        )
        if SharedTrackingState.isActive && noteTrackedWrite() { return true }
        willSetState()
        if writeDepth == 0 { lock.lock() }
        writeDepth += 1
        return false
    }

    /// Ends the change `beginWrite()` started, notifies the observers and the backing.
    @inlinable
    func endWrite(toAssertion: Bool) {
        if toAssertion { return }
        writeDepth -= 1
        if writeDepth == 0 { lock.unlock() }
        didSetState()
        backing?.valueChanged(value)
    }

    /// Replaces the value (a load, an outside write), notifying like a change. Main thread only.
    @usableFromInline
    func replace(with newValue: Value) {
        let toAssertion = beginWrite()
        if toAssertion {
            assertion?.expected = newValue
        } else {
            value = newValue
        }
        endWrite(toAssertion: toAssertion)
    }

    /// A write while a test store tracks or checks: recorded, or redirected (true) to the
    /// expected value of the check in progress.
    @usableFromInline
    func noteTrackedWrite() -> Bool {
        if SharedTrackingState.isAsserting {
            if assertion == nil {
                assertion = SharedAssertion(expected: value, actual: value)
                SharedTrackingState.asserted.append(self)
            }
            return true
        }
        let key = ObjectIdentifier(self)
        if SharedTrackingState.log[key] == nil {
            SharedTrackingState.log[key] = SharedTrackingState.Entry(box: self, before: value)
        }
        return false
    }
}

/// What a test expects of a shared value, and what the action made of it.
@usableFromInline
final class SharedAssertion<Value> {
    @usableFromInline
    var expected: Value
    @usableFromInline
    let actual: Value

    @usableFromInline
    init(expected: Value, actual: Value) {
        self.expected = expected
        self.actual = actual
    }
}

extension SharedBox: AnySharedBox {
    @usableFromInline
    var sharedID: String? { id }

    @usableFromInline
    var currentValue: Any { value }

    @usableFromInline
    func beginAssertion(expected: Any, actual: Any) {
        guard let expected = expected as? Value, let actual = actual as? Value else { return }
        assertion = SharedAssertion(expected: expected, actual: actual)
    }

    @usableFromInline
    var assertedDifference: (expected: Any, actual: Any)? {
        guard let assertion else { return nil }
        if let isEqual = equality(of: Value.self), isEqual(assertion.expected, assertion.actual) { return nil }
        return (assertion.expected, assertion.actual)
    }

    @usableFromInline
    func endAssertion() {
        assertion = nil
    }
}

/// Counts the reads of shared values on the main actor, so that a store's watcher can tell
/// whether a member or a projection it reads goes through one. A value read through a shared
/// value can change without a send of the store (another holder changes it): such a watcher
/// reads anew each time instead of serving the value it kept, and the shared value's own
/// registrar tells its observers about changes made elsewhere. Main actor only.
@usableFromInline
enum SharedReads {
    @usableFromInline
    nonisolated(unsafe) static var count: UInt = 0
}
