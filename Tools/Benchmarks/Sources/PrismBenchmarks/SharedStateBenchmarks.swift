import Foundation
import PrismArchitecture

/// A state with the same number in a plain property and in a shared value.
struct SharedBenchState: Equatable, Sendable {
    var plain = 1
    @PrismShared var shared: Int
    var sum = 0
}

enum SharedBenchAction: Sendable {
    case readPlain
    case readShared
    /// Reads 100 times: the read's own cost, beside the send's.
    case readPlain100
    case readShared100
    case changeShared
}

struct SharedBenchReducer: PrismReducer {
    func reduce(into state: inout SharedBenchState, action: SharedBenchAction) -> PrismEffect<SharedBenchAction> {
        switch action {
        case .readPlain:
            state.sum &+= state.plain
        case .readShared:
            state.sum &+= state.shared
        case .readPlain100:
            for _ in 0..<100 { state.sum &+= state.plain }
        case .readShared100:
            for _ in 0..<100 { state.sum &+= state.shared }
        case .changeShared:
            state.shared &+= 1
        }
        return .none
    }
}

/// A store over a state whose shared value has `key`, in a storage of its own.
@MainActor
func sharedBenchStore(_ key: some PrismSharedKey<Int>) -> PrismStore<SharedBenchState, SharedBenchAction> {
    let state = withDependencies {
        $0.prismSharedStorage = PrismSharedStorage()
    } operation: {
        SharedBenchState(shared: PrismShared(wrappedValue: 1, key))
    }
    return PrismStore(initialState: state, reducer: SharedBenchReducer())
}

@MainActor
func sharedStateBenchmarks() async throws -> [Result] {
    guard selected("shared") else { return [] }
    var results: [Result] = []
    let sends = 100_000
    // Made before any shared value exists: its reduces are not marked (see below).
    let unmarked = PrismStore(initialState: CounterState(), reducer: CounterReducer())

    // 1. A send whose reducer reads the shared value, against one that reads a plain property.
    let store = sharedBenchStore(.inMemory("bench"))
    let (shared, plain) = measurePair(operations: sends) {
        for _ in 0..<sends { store.send(.readShared) }
    } against: {
        for _ in 0..<sends { store.send(.readPlain) }
    }
    results.append(
        Result(
            name: "send whose reducer reads a shared value",
            timing: shared,
            baselineName: "the same send reading a plain stored property",
            baseline: plain,
            bar: .atMostRatio(2)
        )
    )
    // What a store made once shared values exist pays on every send to mark its reducer (so
    // that the reducer's reads skip Observation), against one made before.
    let marked = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    let (markedSend, unmarkedSend) = measurePair(operations: sends) {
        for _ in 0..<sends { marked.send(.increment) }
    } against: {
        for _ in 0..<sends { unmarked.send(.increment) }
    }
    results.append(
        Result(
            name: "send of a store made once shared values exist",
            timing: markedSend,
            baselineName: "a store made before any (no reduce marking)",
            baseline: unmarkedSend,
            bar: .atMostRatio(1.2)
        )
    )
    // The read alone: 100 reads per send, so that the send's own cost is a small part.
    let reads = sends / 10
    let (shared100, plain100) = measurePair(operations: reads * 100) {
        for _ in 0..<reads { store.send(.readShared100) }
    } against: {
        for _ in 0..<reads { store.send(.readPlain100) }
    }
    results.append(
        Result(
            name: "one read of a shared value in a reducer (100 per send)",
            timing: shared100,
            baselineName: "one read of a plain stored property",
            baseline: plain100,
            bar: .none,
            note:
                "informational: a plain read is a load the loop may hoist; a shared one checks the thread and tells Observation"
        )
    )

    // 2. A send that changes a file-backed shared value, against the same send changing one kept
    // in memory: what persistence adds to the send (the write is coalesced, off the main actor).
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prism-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let counting = CountingDiskPersistence(directory: directory)
    var runs = 0
    let (persisted, inMemory) = measurePair(operations: sends) {
        runs += 1
        let store = sharedBenchStore(.persisted("counter-\(runs)", strategy: counting))
        for _ in 0..<sends { store.send(.changeShared) }
    } against: {
        let store = sharedBenchStore(.inMemory("counter"))
        for _ in 0..<sends { store.send(.changeShared) }
    }
    try await Task.sleep(for: .seconds(1.2))
    results.append(
        Result(
            name: "send changing a file-backed shared value (100,000 sends)",
            timing: persisted,
            baselineName: "the same send changing an in-memory one",
            baseline: inMemory,
            bar: .atMostRatio(1.2),
            note: String(format: "%.1f disk writes per run of 100,000 sends", Double(counting.saves) / Double(runs))
        )
    )
    return results
}
