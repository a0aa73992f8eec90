#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Android)
@preconcurrency import Android
#else
#error("PrismEffects could not find a C library that provides a mutex.")
#endif

#if canImport(Darwin)
typealias PlatformMutex = os_unfair_lock
#else
typealias PlatformMutex = pthread_mutex_t
#endif

/// A value guarded by a mutex, safe to share between tasks and threads.
///
/// The value and the mutex live in one allocation (the mutex in the tail of a
/// `ManagedBuffer`, where its address is stable), as in swift-nio's `NIOLockedValueBox`.
/// `Synchronization.Mutex` would serve, but it needs macOS 15 / iOS 18; this keeps the
/// deployment targets at the ones the Observation framework needs.
///
/// SPI for Prism's own packages (PrismStore's enum case extraction), not part of the public API.
@_spi(PrismInternals)
public struct PrismLocked<Value>: @unchecked Sendable {
    private final class Storage: ManagedBuffer<Value, PlatformMutex> {
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                #if !canImport(Darwin)
                pthread_mutex_destroy(mutex)
                #endif
                mutex.deinitialize(count: 1)
            }
        }
    }

    private let storage: Storage

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

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
            defer { os_unfair_lock_unlock(mutex) }
            #else
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            #endif
            return try body(&value.pointee)
        }
    }
}

/// The module's own name for ``PrismLocked``.
typealias Locked<Value> = PrismLocked<Value>
