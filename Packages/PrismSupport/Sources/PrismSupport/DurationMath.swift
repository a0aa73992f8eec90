/// A `Duration` as the numbers other APIs take. Functions, not members of `Duration`: a member
/// of a type from the standard library would show on every `Duration` of an app that uses Prism
/// (extension members are visible through modules imported indirectly).
public enum DurationMath {
    /// `duration` in whole nanoseconds, saturating instead of trapping when it does not fit in an
    /// `Int64` (about 292 years): `.seconds(Int64.max)` is `Int64.max` nanoseconds.
    @inlinable
    public static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }

    /// `duration` in seconds, as a `Double` (a `TimeInterval`): what Foundation's timeouts and
    /// human-readable figures take.
    @inlinable
    public static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
