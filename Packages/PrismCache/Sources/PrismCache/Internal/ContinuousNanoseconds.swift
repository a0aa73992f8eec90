#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

extension Duration {
    /// The duration in whole nanoseconds, saturating instead of trapping when it does not fit in
    /// an `Int64` (about 292 years). PrismHTTP uses it too (`@_spi(PrismInternals)`: not a stable
    /// API).
    @_spi(PrismInternals)
    public var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }
}
