import Foundation
import PrismArchitecture

/// Counts the saves a strategy performs, saving for real to disk underneath.
final class CountingDiskPersistence: PrismPersistenceStrategy, @unchecked Sendable {
    private let disk: PrismDiskPersistence
    private let lock = NSLock()
    private var count = 0

    init(directory: URL) { disk = PrismDiskPersistence(directory: directory) }

    var saves: Int { lock.withLock { count } }

    func save<State: Codable & Sendable>(_ state: State, key: String) throws {
        lock.withLock { count += 1 }
        try disk.save(state, key: key)
    }

    func load<State: Codable & Sendable>(key: String) throws -> State? { try disk.load(key: key) }

    func clear(key: String) throws { try disk.clear(key: key) }
}

struct SavedCounter: Codable, Equatable, Sendable {
    var count = 0
}

struct SavedCounterReducer: PrismReducer {
    func reduce(into state: inout SavedCounter, action: CounterAction) -> PrismEffect<CounterAction> {
        state.count &+= 1
        return .none
    }
}

/// A ~10 MB state: 100,000 records.
struct LargeState: Codable, Equatable, Sendable {
    struct Record: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var tags: [String]
        var score: Double
    }
    var records: [Record]

    static func make() -> LargeState {
        LargeState(
            records: (0..<100_000).map {
                Record(
                    id: $0, title: "Record number \($0) with some text", tags: ["alpha", "beta", "gamma"],
                    score: Double($0) / 7)
            }
        )
    }
}

@MainActor
func persistenceBenchmarks() async throws -> [Result] {
    guard selected("persist") else { return [] }
    var results: [Result] = []
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prism-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    // 1. 100,000 sends through PrismPersistMiddleware against the same store without it.
    let sends = 100_000
    let strategy = CountingDiskPersistence(directory: directory)
    var windows = 1.0
    // Both stores are `held`, as an app's is: the bare store made and used in one closure had
    // its send inlined with the constant action, which no app's store gets.
    let (persisted, plain) = measurePair(operations: sends) {
        let middleware = PrismPersistMiddleware<SavedCounter, CounterAction>(strategy: strategy, key: "counter")
        let store = held(
            PrismStore(initialState: SavedCounter(), reducer: SavedCounterReducer(), middleware: middleware))
        let start = ContinuousClock.now
        for _ in 0..<sends { store.send(.increment) }
        windows = max(windows, (ContinuousClock.now - start).nanoseconds / 500_000_000)
        precondition(store.state.count == sends)
    } against: {
        let store = held(PrismStore(initialState: SavedCounter(), reducer: SavedCounterReducer()))
        for _ in 0..<sends { store.send(.increment) }
        precondition(store.state.count == sends)
    }
    // Let the last coalesced writes land, then count them.
    try await Task.sleep(for: .seconds(1.2))
    let runs = 12.0
    let savesPerRun = Double(strategy.saves) / runs
    results.append(
        Result(
            name: "send with PrismPersistMiddleware (100,000 sends)",
            timing: persisted,
            baselineName: "the same store without it",
            baseline: plain,
            // What persistence adds to a send, in nanoseconds: a send that runs any middleware
            // calls the reducer's closure, where the bare send inlines the reducer.
            bar: .atMostNanosecondsMore(10),
            note: String(
                format: "%.1f disk writes per run of 100,000 sends (%.2f coalescing windows)", savesPerRun, windows)
        )
    )

    // 2. Saving and loading a 10 MB state against JSONEncoder + an atomic write.
    let large = LargeState.make()
    let encodedSize = try JSONEncoder().encode(large).count
    let disk = PrismDiskPersistence(directory: directory)
    let rawURL = directory.appendingPathComponent("raw.json")
    var saveSamples: [Double] = []
    var rawSaveSamples: [Double] = []
    var loadSamples: [Double] = []
    var rawLoadSamples: [Double] = []
    for _ in 0..<5 {
        var start = ContinuousClock.now
        try disk.save(large, key: "large")
        saveSamples.append((ContinuousClock.now - start).nanoseconds)
        start = ContinuousClock.now
        try JSONEncoder().encode(large).write(to: rawURL, options: .atomic)
        rawSaveSamples.append((ContinuousClock.now - start).nanoseconds)
        start = ContinuousClock.now
        let loaded: LargeState? = try disk.load(key: "large")
        loadSamples.append((ContinuousClock.now - start).nanoseconds)
        precondition(loaded == large)
        start = ContinuousClock.now
        let raw = try JSONDecoder().decode(LargeState.self, from: Data(contentsOf: rawURL))
        rawLoadSamples.append((ContinuousClock.now - start).nanoseconds)
        precondition(raw == large)
    }
    func median(_ values: [Double]) -> Timing { Timing(nanosecondsPerOperation: values.sorted()[values.count / 2]) }
    let megabytes = String(format: "%.1f MB", Double(encodedSize) / 1_048_576)
    results.append(
        Result(
            name: "PrismDiskPersistence save, \(megabytes) state (durable)",
            timing: median(saveSamples),
            baselineName: "JSONEncoder + Data.write(.atomic)",
            baseline: median(rawSaveSamples),
            bar: .atMostRatio(1.3)
        )
    )
    results.append(
        Result(
            name: "PrismDiskPersistence load, \(megabytes) state",
            timing: median(loadSamples),
            baselineName: "Data(contentsOf:) + JSONDecoder",
            baseline: median(rawLoadSamples),
            bar: .atMostRatio(1.3)
        )
    )
    return results
}

extension Duration {
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
