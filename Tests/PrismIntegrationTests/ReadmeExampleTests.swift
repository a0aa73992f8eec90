// README.md's counter, run. Snippets/ReadmeExamples.swift holds it verbatim (make lint checks
// that, and every build compiles it); this copy is here to run it and check what the README says.
import PrismArchitecture
import Testing

private struct CounterState: Sendable, Equatable {
    var count = 0
    var isLoading = false
}

private enum CounterAction: Sendable, Equatable {
    case increment
    case fetchRemoteCount
    case remoteCountLoaded(Int)
}

private struct CounterReducer: PrismReducer {
    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .fetchRemoteCount:
            state.isLoading = true
            return .run { send in
                try await Task.sleep(for: .milliseconds(50))
                send(.remoteCountLoaded(42))
            }
        case .remoteCountLoaded(let count):
            state.isLoading = false
            state.count = count
            return .none
        }
    }
}

@MainActor
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's counter does what the README says")
    func counter() async {
        let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
        store.send(.increment)  // state.count == 1 when send returns
        #expect(store.state.count == 1)
        await store.send(.fetchRemoteCount).finish()
        #expect(store.state.count == 42)
    }
}
