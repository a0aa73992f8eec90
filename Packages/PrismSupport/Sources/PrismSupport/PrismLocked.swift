#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Android)
@preconcurrency import Android
#else
#error("PrismSupport could not find a C library that provides a mutex.")
#endif

#if canImport(Darwin)
@usableFromInline
typealias PlatformMutex = os_unfair_lock
#else
@usableFromInline
typealias PlatformMutex = pthread_mutex_t
#endif

/// A value guarded by a mutex, safe to share between tasks and threads: Prism's one lock.
///
/// The value and the mutex live in one allocation (the mutex in the tail of a `ManagedBuffer`,
/// where its address is stable), as in swift-nio's `NIOLockedValueBox`: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere. `Synchronization.Mutex` would serve, but it needs
/// macOS 15 / iOS 18; this keeps the deployment targets at the ones the Observation framework
/// needs. Foundation-free, so PrismCache (FoundationEssentials only) uses it too.
///
/// A copy shares the value and the lock with the original (it is a reference underneath), so a
/// `let` of it in a `Sendable` class is the whole pattern:
///
/// ```swift
/// final class Counter: Sendable {
///     private let count = PrismLocked(0)
///     func increment() -> Int { count.withLock { $0 += 1; return $0 } }
/// }
/// ```
public struct PrismLocked<Value>: @unchecked Sendable {
    @usableFromInline
    final class Storage: ManagedBuffer<Value, PlatformMutex> {
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                #if !canImport(Darwin)
                pthread_mutex_destroy(mutex)
                #endif
                mutex.deinitialize(count: 1)
            }
        }
    }

    @usableFromInline
    let storage: Storage

    /// A lock around `value`.
    public init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            #if canImport(Darwin)
            mutex.initialize(to: os_unfair_lock())
            #else
            mutex.initialize(to: pthread_mutex_t())
            let error = pthread_mutex_init(mutex, nil)
            precondition(error == 0, "pthread_mutex_init failed with error \(error)")
            #endif
        }
    }

    /// Runs `body` with exclusive access to the value. `body` must not take the same lock again
    /// (the mutex is not recursive) and should not block or await anything slow.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            Self.lock(mutex)
            defer { Self.unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// The value, read under the lock (a copy).
    @inlinable
    public var value: Value {
        withLock { $0 }
    }

    @inlinable
    static func lock(_ mutex: UnsafeMutablePointer<PlatformMutex>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
        #else
        pthread_mutex_lock(mutex)
        #endif
    }

    @inlinable
    static func unlock(_ mutex: UnsafeMutablePointer<PlatformMutex>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(mutex)
        #else
        pthread_mutex_unlock(mutex)
        #endif
    }
}

extension PrismLocked where Value == Void {
    /// A lock that guards no value of its own, for state kept elsewhere.
    public init() {
        self.init(())
    }

    /// Takes the lock, for a critical section that cannot be a closure (a `_modify` accessor,
    /// which yields inside it). Pair every call with ``unlock()`` on the same thread.
    @inlinable
    public func lock() {
        storage.withUnsafeMutablePointerToElements { Self.lock($0) }
    }

    /// Releases the lock taken by ``lock()``.
    @inlinable
    public func unlock() {
        storage.withUnsafeMutablePointerToElements { Self.unlock($0) }
    }

    /// Runs `body` while holding the lock. (It never touches the empty value: an `inout` access
    /// to a zero-sized value sits at the object's own address, where ThreadSanitizer would see it
    /// race with the next caller's unlocked read of the object's header.)
    @inlinable
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToElements { mutex in
            Self.lock(mutex)
            defer { Self.unlock(mutex) }
            return try body()
        }
    }
}
