// Prism's benchmarks: `make bench`, or `swift run -c release --package-path Tools/Benchmarks`.
// Pass `--check` to exit with a failure when a figure misses its bar.
import Foundation

let check = CommandLine.arguments.contains("--check")
var all: [Result] = []

let store = await storeBenchmarks()
printReport("PrismStore (\(ProcessInfo.processInfo.activeProcessorCount) cores)", store)
all += store

let failures = all.filter { !$0.passes }
print("\n\(all.count - failures.count) of \(all.count) figures within their bars.")
if check && !failures.isEmpty {
    exit(1)
}
