// Prism's benchmarks: `make bench`, or `swift run -c release --package-path Tools/Benchmarks`.
// Pass `--check` to exit with a failure when a figure misses its bar.
import Foundation
import PrismTestServer

// `--serve`: only the test server, in a process of its own, until killed (what a benchmark that
// measures the client's memory alone talks to; see `TestServerProcess`).
if CommandLine.arguments.contains("--serve") {
    let server = try await PrismTestServer.start()
    print(server.baseURL.absoluteString)
    fflush(nil)
    while true { try await Task.sleep(for: .seconds(3_600)) }
}

let check = CommandLine.arguments.contains("--check")
var all: [Result] = []

await MainActor.run { scopeLoop() }
let store = await storeBenchmarks()
if !store.isEmpty {
    printReport("PrismStore (\(ProcessInfo.processInfo.activeProcessorCount) cores)", store)
    all += store
}

let trace = await MainActor.run { traceBenchmarks() }
if !trace.isEmpty {
    printReport("PrismStore: noting where each send came from (for the inspector's trace)", trace)
    all += trace
}

let scale = await MainActor.run { storeScaleBenchmarks() + compositionBenchmarks() + ifLetBenchmarks() }
if !scale.isEmpty {
    printReport("PrismStore at scale: one send, by the size of the state", scale)
    all += scale
}

let inspector = try await inspectorBenchmarks()
if !inspector.isEmpty {
    printReport("PrismInspector", inspector)
    all += inspector
}

let persistence = try await persistenceBenchmarks() + sharedStateBenchmarks()
if !persistence.isEmpty {
    printReport("PrismPersistence", persistence)
    all += persistence
}

try await clientLoop()
let network =
    try await pipelineBenchmark() + clientLayerBenchmarks() + postLayerBenchmarks() + clientLoadBenchmarks()
    + telemetryBenchmarks()
    + networkBenchmarks()
    + uploadThroughputBenchmarks()
    + serverSentEventBenchmarks()
    + streamLoadBenchmarks() + streamingNetworkBenchmarks()
if !network.isEmpty {
    printReport("PrismHTTP and PrismCache", network)
    all += network
}

let graphQL =
    try await graphQLPipelineBenchmark() + graphQLLoadBenchmarks() + graphQLBenchmarks() + subscriptionBenchmarks()
if !graphQL.isEmpty {
    printReport("PrismGraphQL", graphQL)
    all += graphQL
}

let normalized = try await MainActor.run { try normalizedCacheBenchmarks() } + normalizedStoreBenchmarks()
if !normalized.isEmpty {
    printReport("PrismGraphQL's normalized cache", normalized)
    all += normalized
}

let codegen = try await MainActor.run { try codegenBenchmarks() }
if !codegen.isEmpty {
    printReport("PrismGraphQL's code generator", codegen)
    all += codegen
}

let memory = historyBenchmarks() + (try await multipartMemoryBenchmark()) + (try await downloadMemoryBenchmark())
if !memory.isEmpty {
    print("\n## Memory\n")
    for line in memory { print(line) }
}
let memoryFailures = memory.filter { $0.contains(": NO") }.count

let failures = all.filter { !$0.passes }
print("\n\(all.count - failures.count) of \(all.count) timing figures within their bars.")
if check && (!failures.isEmpty || memoryFailures > 0) {
    exit(1)
}
