import Foundation
@_spi(PrismInternals) import PrismCache
import PrismSupport

/// How long a stored response stays fresh, as RFC 9111 §4.2 computes it for a private cache: one
/// pure decision, from the response's header fields and the times it was asked for and received
/// (seconds since 1970).
///
/// | Question | Rule | RFC 9111 |
/// | --- | --- | --- |
/// | Which `Cache-Control`? | Every field line, as one list | §5.2, RFC 9110 §5.3 |
/// | A directive given twice | The first one counts | §4.2.1 |
/// | `max-age` that is not digits (`-1`, `1.5`, `abc`) | The response is stale on arrival | §4.2.1, §1.2.2 |
/// | `max-age` past 2³¹ | 2³¹ seconds | §1.2.2 |
/// | `s-maxage` | Ignored: this is a private cache | §5.2.2.10 |
/// | Lifetime | `max-age`, else `Expires` − `Date` (the receipt time without `Date`), else heuristic | §4.2.1 |
/// | `Expires` that is not a date (`0`, `-1`, a malformed date), or on several lines | Stale on arrival | §5.3 |
/// | `Age` as a list (`7200, 0`, or two lines) | The first member; an invalid one is ignored | §5.1 |
/// | Heuristic lifetime | 10% of `Date` − `Last-Modified`, at most a day, for a status cacheable by default (any status with `public`) and no explicit lifetime | §4.2.2 |
/// | Age on arrival | max(apparent age, `Age` + response delay) | §4.2.3 |
/// | Time to live once stored | lifetime − age on arrival, never below zero | §4.2 |
enum HTTPFreshness {
    /// The longest heuristic lifetime: a day.
    static let heuristicCap = 86_400.0
    /// The greatest delta-seconds value (§1.2.2).
    static let deltaSecondsCap = 2_147_483_648

    /// Statuses a cache may give a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// How long after `responseTime` the response is fresh, in seconds; nil when nothing gives it
    /// a lifetime (no explicit expiry, no heuristic).
    static func lifetime(of headers: PrismHTTPHeaders, status: Int, responseTime: Double) -> Double? {
        let control = CacheControl(headers)
        if control.maxAgeIsInvalid { return 0 }
        if let maxAge = control.maxAge { return Double(maxAge) }
        let expires = headers.values(for: "Expires")
        if !expires.isEmpty {
            // More than one line is as invalid as a value that is not a date (§5.3).
            guard expires.count == 1, let expiry = seconds(expires[0]) else { return 0 }
            let date = headers["Date"].flatMap(seconds) ?? responseTime
            return max(0, expiry - date)
        }
        guard heuristicallyCacheable.contains(status) || control.isPublic,
            let lastModified = headers["Last-Modified"].flatMap(seconds)
        else { return nil }
        let date = headers["Date"].flatMap(seconds) ?? responseTime
        return min(heuristicCap, max(0, date - lastModified) / 10)
    }

    /// An HTTP date as seconds since 1970.
    private static func seconds(_ text: String) -> Double? {
        HTTPDate.parse(text).map(Double.init)
    }

    /// The response's age when it arrived (`corrected_initial_age`), in seconds.
    static func ageOnArrival(of headers: PrismHTTPHeaders, requestTime: Double, responseTime: Double) -> Double {
        let apparentAge = headers["Date"].flatMap(seconds).map { max(0, responseTime - $0) } ?? 0
        let ageValue = age(headers).map(Double.init) ?? 0
        let responseDelay = max(0, responseTime - requestTime)
        return max(apparentAge, ageValue + responseDelay)
    }

    /// How long the response stays fresh once stored: its lifetime less its age on arrival; nil
    /// when it has no lifetime.
    static func timeToLive(
        of headers: PrismHTTPHeaders, status: Int, requestTime: Double, responseTime: Double
    ) -> Duration? {
        guard let lifetime = lifetime(of: headers, status: status, responseTime: responseTime) else { return nil }
        let age = ageOnArrival(of: headers, requestTime: requestTime, responseTime: responseTime)
        return duration(lifetime - age)
    }

    /// `seconds` as a duration to the millisecond, from zero to 2³¹ seconds.
    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64(min(max(0, seconds), Double(deltaSecondsCap)) * 1_000))
    }

    /// The `Age` value: of a list (several lines, or commas in one), the first member; nil when
    /// it is not delta-seconds, and then ignored (§5.1).
    static func age(_ headers: PrismHTTPHeaders) -> Int? {
        guard let first = headers.values(for: "Age").first else { return nil }
        return deltaSeconds(first.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    /// A delta-seconds value (§1.2.2): digits only; past 2³¹, 2³¹.
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(digits).map { min($0, deltaSecondsCap) } ?? deltaSecondsCap
    }
}
