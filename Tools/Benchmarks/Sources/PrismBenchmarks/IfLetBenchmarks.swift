import PrismArchitecture

// MARK: A parent with an optional child feature

struct BenchDetail: Equatable, Sendable {
    var count = 0
    var title = "Detail"
}

enum BenchDetailAction: Sendable {
    case increment
}

struct BenchDetailFeature: PrismReducer {
    func reduce(into state: inout BenchDetail, action: BenchDetailAction) -> PrismEffect<BenchDetailAction> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        }
    }
}

struct BenchParentState: Equatable, Sendable {
    var count = 0
    var detail: BenchDetail? = BenchDetail()
}

enum BenchParentAction: Sendable {
    case increment
    case detail(BenchDetailAction)

    var detail: BenchDetailAction? {
        if case .detail(let action) = self { action } else { nil }
    }
}

/// The parent's own reducer with the child under `ifLet`, given an extractor property.
struct BenchParentFeature: PrismFeature {
    var body: some PrismReducer<BenchParentState, BenchParentAction> {
        PrismReduce<BenchParentState, BenchParentAction> { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
        .ifLet(\.detail, action: BenchParentAction.detail, toChildAction: \.detail) {
            BenchDetailFeature()
        }
    }
}

/// The same, the child's case given alone.
struct BenchParentCaseOnlyFeature: PrismFeature {
    var body: some PrismReducer<BenchParentState, BenchParentAction> {
        PrismReduce<BenchParentState, BenchParentAction> { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
        .ifLet(\.detail, action: BenchParentAction.detail) {
            BenchDetailFeature()
        }
    }
}

/// The same written by hand: one switch.
struct BenchParentByHand: PrismReducer {
    func reduce(into state: inout BenchParentState, action: BenchParentAction) -> PrismEffect<BenchParentAction> {
        switch action {
        case .increment:
            state.count &+= 1
        case .detail(let action):
            if state.detail != nil {
                return BenchDetailFeature().reduce(into: &state.detail!, action: action).map(BenchParentAction.detail)
            }
        }
        return .none
    }
}

// MARK: Benchmarks

/// What a parent's action and a child's action cost through `ifLet`, against the same switch
/// written by hand: a feature's body is built for every action, its `ifLet` with it.
@MainActor
func ifLetBenchmarks() -> [Result] {
    guard selected("ifLet") else { return [] }
    var results: [Result] = []
    let sends = 200_000
    let rows: [(name: String, action: BenchParentAction, send: @MainActor () -> Void)] = [
        (
            "ifLet: the parent's action, child present", .increment,
            { sendRepeatedly(.increment, to: BenchParentFeature(), sends: sends) }
        ),
        (
            "ifLet: the child's action", .detail(.increment),
            { sendRepeatedly(.detail(.increment), to: BenchParentFeature(), sends: sends) }
        ),
        (
            "ifLet: the child's action, the case alone", .detail(.increment),
            { sendRepeatedly(.detail(.increment), to: BenchParentCaseOnlyFeature(), sends: sends) }
        ),
    ]
    for row in rows {
        let (composed, byHand) = measurePair(operations: sends, row.send) {
            sendRepeatedly(row.action, to: BenchParentByHand(), sends: sends)
        }
        results.append(
            Result(
                name: row.name,
                timing: composed,
                baselineName: "the same switch written by hand",
                baseline: byHand,
                bar: .none
            )
        )
    }
    return results
}

/// Sends `action` `sends` times to a new store of `feature`, opened so that the store is
/// specialized for the feature's type.
@MainActor
private func sendRepeatedly<Feature: PrismReducer<BenchParentState, BenchParentAction>>(
    _ action: BenchParentAction,
    to feature: Feature,
    sends: Int
) {
    let store = PrismStore(initialState: BenchParentState(), reducer: feature)
    for _ in 0..<sends { store.send(action) }
    precondition(store.state.count + (store.state.detail?.count ?? 0) == sends)
}
