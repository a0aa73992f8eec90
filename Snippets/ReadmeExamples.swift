// swift-format-ignore-file
// README.md's examples, verbatim: `make lint` (Tools/scripts/check-doc-code.py) fails when a
// README block is not in a compiled file, and building the snippets compiles them. Not formatted: it is what the README shows.

import PrismArchitecture

struct CounterState: Sendable, Equatable {
    var count = 0
    var isLoading = false
}

enum CounterAction: Sendable, Equatable {
    case increment
    case fetchRemoteCount
    case remoteCountLoaded(Int)
}

struct CounterReducer: PrismReducer {
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
func demo() async {
    let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    store.send(.increment)                    // state.count == 1 when send returns
    await store.send(.fetchRemoteCount).finish()
    print(store.state.count)                  // 42
}

import PrismTesting
import Testing

@MainActor
@Test func fetchingTheCount() async {
    let store = PrismTestStore(initialState: CounterState(), reducer: CounterReducer())
    await store.send(.fetchRemoteCount) { $0.isLoading = true }
    await store.receive(.remoteCountLoaded(42)) {
        $0.isLoading = false
        $0.count = 42
    }
}
