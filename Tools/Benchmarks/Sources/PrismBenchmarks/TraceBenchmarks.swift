import Foundation
import PrismArchitecture
@_spi(PrismInternals) import PrismStore

/// What noting a send's call site (for the inspector's trace) costs while no tool is attached:
/// `store.send(_:)`, which passes `#fileID`, `#line` and `#function` and checks whether a tool
/// traces, against the same send without them (`tools.sendUntraced`). The bar: at most 2 ns more.
@MainActor
func traceBenchmarks() -> [Result] {
    guard selected("trace") else { return [] }
    let sends = 1_000_000
    let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    let (traced, untraced) = measurePair(operations: sends) {
        for _ in 0..<sends { store.send(.increment) }
    } against: {
        for _ in 0..<sends { store.tools.sendUntraced(.increment) }
    }
    let scoped = store.scope(state: \.count, action: { (_: Int) in CounterAction.increment })
    let (scopedTraced, scopedUntraced) = measurePair(operations: sends) {
        for _ in 0..<sends { scoped.send(1) }
    } against: {
        for _ in 0..<sends { scoped.tools.sendUntraced(1) }
    }
    return [
        Result(
            name: "trace: send noting its call site, no inspector",
            timing: traced,
            baselineName: "the same send without a call site",
            baseline: untraced,
            bar: .atMostNanosecondsMore(2)
        ),
        Result(
            name: "trace: scoped send noting its call site, no inspector",
            timing: scopedTraced,
            baselineName: "the same scoped send without a call site",
            baseline: scopedUntraced,
            bar: .atMostNanosecondsMore(2)
        ),
    ]
}
