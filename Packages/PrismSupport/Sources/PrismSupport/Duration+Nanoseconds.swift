extension Duration {
    /// The duration in whole nanoseconds, saturating instead of trapping when it does not fit in
    /// an `Int64` (about 292 years): `.seconds(Int64.max)` is `Int64.max` nanoseconds.
    @inlinable
    public var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in seconds, as a `Double` (a `TimeInterval`): what Foundation's timeouts and
    /// human-readable figures take.
    @inlinable
    public var secondsAsDouble: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
