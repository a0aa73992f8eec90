#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock without Foundation (PrismCache builds on FoundationEssentials only):
/// `os_unfair_lock` on Apple platforms, a `pthread_mutex_t` elsewhere.
final class PlatformLock: @unchecked Sendable {
    #if canImport(Darwin)
    private let pointer: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        pointer = .allocate(capacity: 1)
        #if canImport(Darwin)
        pointer.initialize(to: os_unfair_lock())
        #else
        pointer.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(pointer, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(pointer)
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(pointer)
        #else
        pthread_mutex_lock(pointer)
        #endif
    }

    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(pointer)
        #else
        pthread_mutex_unlock(pointer)
        #endif
    }
}
