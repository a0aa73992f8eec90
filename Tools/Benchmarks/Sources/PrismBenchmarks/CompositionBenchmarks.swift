import Observation
import PrismArchitecture

// MARK: A list of rows, each a feature

struct BenchRow: Equatable, Identifiable, Sendable {
    let id: Int
    var isDone = false
}

enum BenchRowAction: Sendable {
    case toggle
}

struct BenchRowFeature: PrismReducer {
    func reduce(into state: inout BenchRow, action: BenchRowAction) -> PrismEffect<BenchRowAction> {
        switch action {
        case .toggle:
            state.isDone.toggle()
            return .none
        }
    }
}

struct BenchListState: Equatable, Sendable {
    var rows: IdentifiedArrayOf<BenchRow>
    var counter = 0

    init(count: Int) {
        rows = IdentifiedArray(uniqueElements: (0..<count).map { BenchRow(id: $0) })
    }
}

enum BenchListAction: Sendable {
    case row(id: Int, action: BenchRowAction)
    case count

    var row: (id: Int, action: BenchRowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

/// The list as features: the rows run through `forEach`.
struct BenchListFeature: PrismFeature {
    typealias State = BenchListState
    typealias Action = BenchListAction

    var body: some PrismReducer<BenchListState, BenchListAction> {
        PrismReduce<BenchListState, BenchListAction> { state, action in
            if case .count = action { state.counter += 1 }
            return .none
        }
        .forEach(\.rows, action: BenchListAction.row, toElementAction: \.row) {
            BenchRowFeature()
        }
    }
}

/// The same list with the case alone: no extractor property, the case read back by its tag.
struct BenchCaseOnlyListFeature: PrismFeature {
    var body: some PrismReducer<BenchListState, BenchListAction> {
        PrismReduce<BenchListState, BenchListAction> { state, action in
            if case .count = action { state.counter += 1 }
            return .none
        }
        .forEach(\.rows, action: BenchListAction.row) {
            BenchRowFeature()
        }
    }
}

extension BenchListAction: CasePathable {
    /// What `@CasePathable` writes, by hand (the benchmarks do not build the macro).
    struct AllCasePaths {
        var row: AnyCasePath<BenchListAction, (id: Int, action: BenchRowAction)> {
            AnyCasePath(embed: { .row(id: $0.id, action: $0.action) }, extract: \.row)
        }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// The same list with a case key path.
struct BenchCaseKeyPathListFeature: PrismFeature {
    var body: some PrismReducer<BenchListState, BenchListAction> {
        PrismReduce<BenchListState, BenchListAction> { state, action in
            if case .count = action { state.counter += 1 }
            return .none
        }
        .forEach(\.rows, action: \.row) {
            BenchRowFeature()
        }
    }
}

/// The same list written by hand: one switch, the row changed through its id.
struct BenchListByHand: PrismReducer {
    func reduce(into state: inout BenchListState, action: BenchListAction) -> PrismEffect<BenchListAction> {
        switch action {
        case .row(let id, .toggle):
            state.rows[id: id]?.isDone.toggle()
        case .count:
            state.counter += 1
        }
        return .none
    }
}

// MARK: Benchmarks

/// What an action for one row costs as the list grows, against a hand-written switch; and
/// what row stores cost for rows nobody looks at.
@MainActor
func compositionBenchmarks() -> [Result] {
    guard selected("forEach") else { return [] }
    var results: [Result] = []

    var byHand: [Int: Timing] = [:]
    var features: [Int: Timing] = [:]
    for count in [1_000, 100_000] {
        let featureStore = PrismStore(initialState: BenchListState(count: count), reducer: BenchListFeature())
        let handStore = PrismStore(initialState: BenchListState(count: count), reducer: BenchListByHand())
        let sends = 200_000
        let (feature, hand) = measurePair(operations: sends) {
            for index in 0..<sends { featureStore.send(.row(id: (index &* 7_919) % count, action: .toggle)) }
        } against: {
            for index in 0..<sends { handStore.send(.row(id: (index &* 7_919) % count, action: .toggle)) }
        }
        precondition(featureStore.state.rows == handStore.state.rows)
        features[count] = feature
        byHand[count] = hand
        results.append(
            Result(
                name: "forEach: row action, \(count.formatted(.number)) rows",
                timing: feature,
                baselineName: "hand-written switch, same rows",
                baseline: hand,
                bar: .none
            )
        )
    }
    results.append(
        Result(
            name: "forEach: row action, 100,000 rows",
            timing: features[100_000]!,
            baselineName: "the same, 1,000 rows",
            baseline: features[1_000]!,
            bar: .atMostRatio(2)
        )
    )

    // The ways to name the rows' case: an extractor property (above), the case alone, a case key path.
    let extracted = PrismStore(initialState: BenchListState(count: 1_000), reducer: BenchListFeature())
    let caseOnly = PrismStore(initialState: BenchListState(count: 1_000), reducer: BenchCaseOnlyListFeature())
    let keyPath = PrismStore(initialState: BenchListState(count: 1_000), reducer: BenchCaseKeyPathListFeature())
    let caseSends = 200_000
    let (alone, withProperty) = measurePair(operations: caseSends) {
        for index in 0..<caseSends { caseOnly.send(.row(id: (index &* 7_919) % 1_000, action: .toggle)) }
    } against: {
        for index in 0..<caseSends { extracted.send(.row(id: (index &* 7_919) % 1_000, action: .toggle)) }
    }
    let (byKeyPath, withPropertyAgain) = measurePair(operations: caseSends) {
        for index in 0..<caseSends { keyPath.send(.row(id: (index &* 7_919) % 1_000, action: .toggle)) }
    } against: {
        for index in 0..<caseSends { extracted.send(.row(id: (index &* 7_919) % 1_000, action: .toggle)) }
    }
    precondition(caseOnly.state.rows == keyPath.state.rows)
    results.append(
        Result(
            name: "forEach: row action, the case alone (1,000 rows)",
            timing: alone,
            baselineName: "an extractor property",
            baseline: withProperty,
            bar: .atMostRatio(1.25)
        )
    )
    results.append(
        Result(
            name: "forEach: row action, a case key path (1,000 rows)",
            timing: byKeyPath,
            baselineName: "an extractor property",
            baseline: withPropertyAgain,
            bar: .none
        )
    )

    // 1,000 row stores that somebody holds but nobody reads: a root send must not visit them.
    let sends = 200_000
    let withStores = PrismStore(initialState: BenchListState(count: 100_000), reducer: BenchListFeature())
    let rowStores = (0..<1_000).compactMap {
        withStores.scope(state: \.rows, id: $0 * 100, action: BenchListAction.row)
    }
    precondition(rowStores.count == 1_000)
    let withoutStores = PrismStore(initialState: BenchListState(count: 100_000), reducer: BenchListFeature())
    let (held, none) = measurePair(operations: sends) {
        for index in 0..<sends { withStores.send(.row(id: (index &* 7_919) % 100_000, action: .toggle)) }
    } against: {
        for index in 0..<sends { withoutStores.send(.row(id: (index &* 7_919) % 100_000, action: .toggle)) }
    }
    blackHole(rowStores)
    results.append(
        Result(
            name: "forEach: row action with 1,000 row stores held",
            timing: held,
            baselineName: "the same with no row store",
            baseline: none,
            bar: .atMostRatio(1.25)
        )
    )
    return results
}
