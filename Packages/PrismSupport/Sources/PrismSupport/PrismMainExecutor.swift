import Dispatch

#if !canImport(Darwin)
import Foundation
import Synchronization
#endif

/// Whether the caller runs where the main actor runs: on the main thread, or inside a job of
/// the main dispatch queue (the main actor's executor, which a test runner may drain on another
/// thread while the main thread waits), in about a nanosecond on the main thread.
///
/// `MainActor.assumeIsolated` asks the concurrency runtime (about 80 ns on Linux) and
/// Foundation's `Thread.isMainThread` costs hundreds of nanoseconds there: too much for a check
/// on every read of a shared value. On Apple platforms the main thread is `pthread_main_np()`; on
/// Linux its `pthread_t` is remembered the first time the main thread asks (told by Foundation),
/// and from then on a check is a load and a compare. Off the main thread, a look at the current
/// dispatch queue's specifics tells whether this is the main queue.
public enum PrismMainExecutor {
    /// Whether the caller runs on the main thread or the main dispatch queue.
    @inlinable
    public static var isCurrent: Bool {
        #if canImport(Darwin)
        return pthread_main_np() != 0 || isOnMainQueue()
        #else
        return isMainThreadOrQueue()
        #endif
    }
}

/// A specific the main queue carries, set the first time it is asked for.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

@usableFromInline
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

#if !canImport(Darwin)
/// The main thread's `pthread_t`, once the main thread has asked; 0 until then.
private let knownMainThread = Atomic<UInt>(0)

@usableFromInline
func isMainThreadOrQueue() -> Bool {
    let current = UInt(pthread_self())
    let known = knownMainThread.load(ordering: .relaxed)
    if known == current { return true }
    if isOnMainQueue() { return true }
    // Not known yet: ask Foundation (slow), and remember the answer if this is the main thread.
    guard known == 0, Thread.isMainThread else { return false }
    knownMainThread.store(current, ordering: .relaxed)
    return true
}
#endif
