import PrismSupport

/// The continuous clock (it keeps counting while the machine sleeps, as `ContinuousClock` does)
/// read as nanoseconds, without going through `ContinuousClock.Instant`'s 128-bit arithmetic:
/// the response cache reads it on every operation.
enum ContinuousNanoseconds {
    @Sendable static func now() -> Int64 {
        #if canImport(Darwin)
        return Int64(truncatingIfNeeded: clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW))
        #else
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
        #endif
    }
}
