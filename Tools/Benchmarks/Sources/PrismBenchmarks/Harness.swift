import Dispatch
import Foundation

/// `--filter TEXT` on the command line: only benchmarks whose name contains TEXT run.
let benchmarkFilter: String? = {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--filter"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}()

/// Whether the benchmark called `name` should run.
func selected(_ name: String) -> Bool {
    benchmarkFilter.map { name.contains($0) } ?? true
}

/// Returns `value` through a call the optimizer does not see into. A store handed through it is
/// one the compiler cannot prove it knows, like an app's store that a view or a model holds:
/// without it, a store made and used in one benchmark closure has its send closure read back
/// at compile time and inlined with the action, which no app's store gets.
@inline(never)
@_optimize(none)
func held<T>(_ value: T) -> T {
    value
}

/// Keeps the optimizer from deleting the work whose result it sees.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The time one operation takes: the median over several repetitions of a timed loop.
struct Timing {
    let nanosecondsPerOperation: Double
    /// For a candidate timed by ``measurePair(operations:repetitions:_:against:)``: the median
    /// of its time over the baseline's in each pair of runs, and which baseline that was. Each
    /// pair shares the machine's state of the moment, so this is steadier than the ratio of the
    /// two medians; against any other baseline, the ratio of the medians is used.
    var pairedRatio: (ratio: Double, baseline: Identity)?
    /// Tells a timing apart from others, for `pairedRatio`.
    let identity = Identity()

    final class Identity: Sendable {}

    var formatted: String {
        if nanosecondsPerOperation >= 1e9 {
            return String(format: "%10.2f s", nanosecondsPerOperation / 1e9)
        }
        if nanosecondsPerOperation >= 1e7 {
            return String(format: "%9.1f ms", nanosecondsPerOperation / 1e6)
        }
        if nanosecondsPerOperation >= 10_000 {
            return String(format: "%9.2f us", nanosecondsPerOperation / 1_000)
        }
        return String(format: "%9.1f ns", nanosecondsPerOperation)
    }
}

/// Times `body`, which must perform `operations` operations per call, and returns the median
/// time per operation over `repetitions` calls, after one warm-up call.
@MainActor
func measure(operations: Int, repetitions: Int = 9, _ body: @MainActor () -> Void) -> Timing {
    body()
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let end = DispatchTime.now().uptimeNanoseconds
        samples.append(Double(end - start) / Double(operations))
    }
    samples.sort()
    return Timing(nanosecondsPerOperation: samples[samples.count / 2])
}

/// Times `candidate` and `baseline` (each performing `operations` operations per call)
/// alternately, so that both see the same machine, and returns the median time per operation
/// of each: (candidate, baseline). The candidate's `pairedRatio` is the median of the ratios
/// of the runs paired this way, which the report uses as the ratio.
@MainActor
func measurePair(
    operations: Int,
    repetitions: Int = 11,
    _ candidate: @MainActor () -> Void,
    against baseline: @MainActor () -> Void
) -> (Timing, Timing) {
    candidate()
    baseline()
    var candidateSamples: [Double] = []
    var baselineSamples: [Double] = []
    for _ in 0..<repetitions {
        var start = DispatchTime.now().uptimeNanoseconds
        candidate()
        candidateSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
        start = DispatchTime.now().uptimeNanoseconds
        baseline()
        baselineSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
    }
    func median(_ samples: [Double]) -> Double {
        samples.sorted()[samples.count / 2]
    }
    let ratios = zip(candidateSamples, baselineSamples).map { $0 / $1 }
    let baselineTiming = Timing(nanosecondsPerOperation: median(baselineSamples))
    var candidateTiming = Timing(nanosecondsPerOperation: median(candidateSamples))
    candidateTiming.pairedRatio = (median(ratios), baselineTiming.identity)
    return (candidateTiming, baselineTiming)
}

/// Async twin of ``measure(operations:repetitions:_:)``.
@MainActor
func measureAsync(operations: Int, repetitions: Int = 5, _ body: @MainActor () async -> Void) async -> Timing {
    await body()
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        await body()
        let end = DispatchTime.now().uptimeNanoseconds
        samples.append(Double(end - start) / Double(operations))
    }
    samples.sort()
    return Timing(nanosecondsPerOperation: samples[samples.count / 2])
}

/// One line of the report: a figure, what it is compared with, and the bar it must clear.
struct Result {
    enum Bar {
        /// At most this many nanoseconds per operation.
        case atMostNanoseconds(Double)
        /// At most this multiple of the baseline.
        case atMostRatio(Double)
        /// At most this many nanoseconds more than the baseline.
        case atMostNanosecondsMore(Double)
        /// Missed, whatever the time: the run broke a rule its note names.
        case failed
        /// Informational only.
        case none
    }

    let name: String
    let timing: Timing
    let baselineName: String?
    let baseline: Timing?
    let bar: Bar
    var note: String = ""

    var ratio: Double? {
        guard let baseline else { return nil }
        if let paired = timing.pairedRatio, paired.baseline === baseline.identity { return paired.ratio }
        return timing.nanosecondsPerOperation / baseline.nanosecondsPerOperation
    }

    var passes: Bool {
        switch bar {
        case .atMostNanoseconds(let limit): return timing.nanosecondsPerOperation <= limit
        case .atMostRatio(let limit): return (ratio ?? .infinity) <= limit
        case .atMostNanosecondsMore(let limit):
            return timing.nanosecondsPerOperation - (baseline?.nanosecondsPerOperation ?? .infinity) <= limit
        case .failed: return false
        case .none: return true
        }
    }

    var barDescription: String {
        switch bar {
        case .atMostNanoseconds(let limit): return "<= " + durationDescription(limit)
        case .atMostRatio(let limit): return String(format: "<= %.2fx", limit)
        case .atMostNanosecondsMore(let limit): return "<= +" + durationDescription(limit)
        case .failed: return "see note"
        case .none: return "-"
        }
    }
}

/// A bar's nanoseconds in the unit that keeps it short enough for its column (`2 s`, not
/// `2000000000 ns`, which the column would cut).
private func durationDescription(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1e9 { return String(format: "%.0f s", nanoseconds / 1e9) }
    if nanoseconds >= 1e6 { return String(format: "%.0f ms", nanoseconds / 1e6) }
    return String(format: "%.0f ns", nanoseconds)
}

func printReport(_ title: String, _ results: [Result]) {
    print("\n## \(title)\n")
    let header = [
        "benchmark".padding(toLength: 58, withPad: " ", startingAt: 0),
        "time".padding(toLength: 13, withPad: " ", startingAt: 0),
        "baseline".padding(toLength: 46, withPad: " ", startingAt: 0),
        "ratio  ", "bar        ", "ok",
    ]
    print(header.joined(separator: " "))
    for result in results {
        let baseline =
            result.baseline.map { "\($0.formatted)  \(result.baselineName ?? "")" } ?? ""
        let ratio = result.ratio.map { String(format: "%6.2fx", $0) } ?? "      -"
        let line = [
            result.name.padding(toLength: 58, withPad: " ", startingAt: 0),
            result.timing.formatted.padding(toLength: 13, withPad: " ", startingAt: 0),
            baseline.padding(toLength: 46, withPad: " ", startingAt: 0),
            ratio, " " + result.barDescription.padding(toLength: 11, withPad: " ", startingAt: 0),
            result.passes ? "yes" : "NO",
        ]
        print(line.joined(separator: " ") + (result.note.isEmpty ? "" : "  (\(result.note))"))
    }
}
