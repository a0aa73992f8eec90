// prism-sample: a small tour of Prism. The full sample app (a task list with persistence,
// routing and networking) grows here as those modules land.
import Prism

struct CounterState: Equatable, Sendable {
    var count = 0
    var isLoading = false
}

enum CounterAction: Sendable {
    case increment
    case decrement
    case fetchRemoteCount
    case remoteCountLoaded(Int)
}

struct CounterReducer: PrismReducer {
    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .decrement:
            state.count -= 1
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

let logging = PrismSideEffect<CounterState, CounterAction> { state, action in
    print("  [middleware] \(action) -> count \(state.count)")
    return .none
}

let store = PrismStore(initialState: CounterState(), reducer: CounterReducer(), middleware: logging)
print("Prism sample: a counter")
store.send(.increment)
store.send(.increment)
store.send(.decrement)
print("count after +1 +1 -1: \(store.state.count)")
let task = store.send(.fetchRemoteCount)
print("loading: \(store.state.isLoading)")
await task.finish()
print("count from the effect: \(store.state.count), loading: \(store.state.isLoading)")
