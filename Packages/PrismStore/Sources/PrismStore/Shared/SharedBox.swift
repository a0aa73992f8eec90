import PrismSupport

#if !canImport(Darwin)
import Synchronization
#endif

/// The one place a shared value lives: what every ``PrismShared`` of one key in one storage
/// refers to.
///
/// ## Threads
/// The value is changed on the main actor only (in reducers; a write from anywhere else is a
/// programmer error and traps with a message, checked by `PrismMainExecutor`). Reads may come
/// from any thread (a persisting middleware encoding a state that holds the value, an `==` on a
/// background queue), and see the value before or after a change, never in the middle: a
/// write holds `lock` while it changes the value.
///
/// - On Apple platforms the main actor runs on the main thread, which `pthread_main_np()` tells
///   in a nanosecond: a read there cannot race a write and takes no lock; other threads take
///   `lock` (an `os_unfair_lock`).
/// - On Linux the main actor often runs on a worker thread (after `dispatch_main()`, and in
///   test runners), and telling it from the others costs tens of nanoseconds: every read takes
///   `lock`, a spin lock whose uncontended acquire is one compare-and-swap and release one store
///   (`SharedLock`).
///
/// ## Observation
/// The box is the `ObservationRegistrar` of its value (a `StateRegistrar`): every read records
/// an access, every change notifies only the observers of this value.
///
/// ## Tests
/// While a `PrismTestStore` records or checks an action, `PrismSharedTools.Tracking` is active and
/// a write goes through `noteTrackedWrite()`: recorded with the value before it, or, while the
/// test's closure describes the expected state, made to `assertion.expected` instead of the
/// value (see SharedTracking.swift).
@usableFromInline
final class SharedBox<Value: Sendable>: StateRegistrar, @unchecked Sendable {
    /// The value. Written on the main actor under `lock`; read under it, but on Apple platforms'
    /// main thread.
    @usableFromInline
    @exclusivity(unchecked)
    var value: Value

    /// While a test store checks an action that changed this value: the value the test expects
    /// (which its closure changes) and the one the action left. Set on the main actor under
    /// `lock`, read like `value`.
    @usableFromInline
    @exclusivity(unchecked)
    var assertion: SharedAssertion<Value>?

    /// Held by a write and by reads (see "Threads").
    @usableFromInline
    let lock = SharedLock()

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

    /// `ReduceMarker.shared`, kept here to be read as a field; it lives as long as the
    /// process, so it is not retained per use.
    @usableFromInline
    unowned(unsafe) let reduceMarker = ReduceMarker.shared

    @usableFromInline
    init(value: Value, id: String?) {
        self.value = value
        self.id = id
        super.init()
        SharedReads.noteMade()
    }

    /// The value, recorded as read for Observation.
    @inlinable
    func read() -> Value {
        // A reducer's reads are no view's: Observation need not hear of them.
        if !reduceMarker.isReducingHere() { accessState() }
        SharedReads.noteRead()
        #if canImport(Darwin)
        if pthread_main_np() != 0 {
            if let assertion { return assertion.expected }
            return value
        }
        #endif
        lock.lock()
        defer { lock.unlock() }
        if let assertion { return assertion.expected }
        return value
    }

    /// The assertion in progress, read under the lock.
    @inlinable
    var currentAssertion: SharedAssertion<Value>? {
        lock.lock()
        defer { lock.unlock() }
        return assertion
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
        if SharedJournalState.isOn { SharedJournalState.noteBefore(self, value: value) }
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
        if SharedJournalState.isOn && writeDepth == 0 { SharedJournalState.noteChange(self, value: value) }
    }

    /// Sets the value to one that someone else saved (another process, another storage; see
    /// `PrismSharedBacking.observeOutsideChanges`): its observers hear of it, the backing does
    /// not (it is saved already), and a test store does not record it (no action made it). On
    /// the main actor, outside any write.
    func replaceFromOutside(_ newValue: Value) {
        if let isEqual = equality(of: Value.self), isEqual(value, newValue) { return }
        if SharedJournalState.isOn { SharedJournalState.noteBefore(self, value: value) }
        willSetState()
        lock.lock()
        value = newValue
        lock.unlock()
        didSetState()
        if SharedJournalState.isOn { SharedJournalState.noteChange(self, value: value) }
    }

    /// A write while a test store tracks or checks: recorded, or redirected (true) to the
    /// expected value of the check in progress.
    @usableFromInline
    func noteTrackedWrite() -> Bool {
        if SharedTrackingState.isAsserting {
            if assertion == nil {
                lock.lock()
                assertion = SharedAssertion(expected: value, actual: value)
                lock.unlock()
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
        lock.lock()
        assertion = SharedAssertion(expected: expected, actual: actual)
        lock.unlock()
    }

    @usableFromInline
    var assertedDifference: (expected: Any, actual: Any)? {
        guard let assertion else { return nil }
        if let isEqual = equality(of: Value.self), isEqual(assertion.expected, assertion.actual) { return nil }
        return (assertion.expected, assertion.actual)
    }

    @usableFromInline
    func endAssertion() {
        lock.lock()
        assertion = nil
        lock.unlock()
    }
}

/// Tells a store's watcher whether a member or a projection it computes reads a shared value.
///
/// Such a value can change without a send of the store (another holder changes it), so the
/// watcher reads it anew each time instead of serving the value it kept; the shared value's own
/// registrar tells observers about changes made elsewhere. A watcher probes around each
/// computation (`beginProbe`, `endProbe`, on the main actor); every read of a shared value on
/// the probing thread counts while a probe is open. A read on another thread (a persisting
/// middleware encoding on its queue, another test) does not: it would make the watcher stop
/// serving its kept value for good.
@usableFromInline
enum SharedReads {
    #if canImport(Darwin)
    // Touched on the main thread only: `SharedBox.read()` counts there, and reads elsewhere
    // (which never count) take the other path.
    @usableFromInline
    nonisolated(unsafe) static var probes = 0
    @usableFromInline
    nonisolated(unsafe) static var count: UInt = 0

    @inlinable
    static func noteRead() {
        if pthread_main_np() != 0 && probes > 0 { count &+= 1 }
    }

    @usableFromInline
    static func beginProbe() -> UInt {
        probes += 1
        return count
    }

    @usableFromInline
    static func endProbe(_ start: UInt) -> Bool {
        probes -= 1
        return count != start
    }

    /// Whether a shared value was ever made (main thread or not: read once per store).
    private static let madeOne = PrismLocked(false)

    @usableFromInline
    static var areInUse: Bool { madeOne.value }

    static func noteMade() {
        madeOne.withLock { $0 = true }
    }

    #else
    @usableFromInline
    static let probes = Atomic<Int>(0)
    @usableFromInline
    static let count = Atomic<UInt>(0)
    /// The `pthread_t` of the thread that probes (the main actor's, whichever thread runs it).
    @usableFromInline
    static let probingThread = Atomic<UInt>(0)

    @inlinable
    static func noteRead() {
        if probes.load(ordering: .relaxed) > 0 && probingThread.load(ordering: .relaxed) == UInt(pthread_self()) {
            count.wrappingAdd(1, ordering: .relaxed)
        }
    }

    @usableFromInline
    static func beginProbe() -> UInt {
        probingThread.store(UInt(pthread_self()), ordering: .relaxed)
        probes.wrappingAdd(1, ordering: .relaxed)
        return count.load(ordering: .relaxed)
    }

    @usableFromInline
    static func endProbe(_ start: UInt) -> Bool {
        probes.wrappingSubtract(1, ordering: .relaxed)
        return count.load(ordering: .relaxed) != start
    }

    /// Whether a shared value was ever made.
    @usableFromInline
    static let madeOne = Atomic<Bool>(false)

    @usableFromInline
    static var areInUse: Bool { madeOne.load(ordering: .relaxed) }

    static func noteMade() {
        madeOne.store(true, ordering: .relaxed)
    }

    #endif
}

/// The lock of a shared value: an `os_unfair_lock` on Apple platforms (`PrismLocked`), a spin
/// lock on Linux, where every read takes it (see `SharedBox`): uncontended, one compare-and-swap
/// to take it and one store to release it, where a `pthread_mutex_t` costs twice as much. A
/// thread that finds it taken yields its time slice between tries, so a reader that waits for
/// a long change (a reducer rebuilding a large value) does not burn a core. On Linux it is also
/// recursive: a write's own code may read the value it is changing.
@usableFromInline
final class SharedLock: @unchecked Sendable {  // `depth` is touched by the owner only
    #if canImport(Darwin)
    @usableFromInline
    let base = PrismLocked<Void>()

    @inlinable
    init() {}

    @inlinable
    func lock() { base.lock() }

    @inlinable
    func unlock() { base.unlock() }
    #else
    /// The `pthread_t` of the thread that holds the lock, or 0.
    @usableFromInline
    let owner = Atomic<UInt>(0)
    /// How many more times the owner took it.
    @usableFromInline
    @exclusivity(unchecked)
    var depth = 0

    @inlinable
    init() {}

    @inlinable
    func lock() {
        let me = UInt(pthread_self())
        if owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged { return }
        lockSlowly(me)
    }

    @usableFromInline
    func lockSlowly(_ me: UInt) {
        if owner.load(ordering: .relaxed) == me {
            depth += 1
            return
        }
        var spins = 0
        while true {
            if owner.load(ordering: .relaxed) == 0,
                owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    @inlinable
    func unlock() {
        if depth > 0 {
            depth -= 1
        } else {
            owner.store(0, ordering: .releasing)
        }
    }
    #endif
}
