import Testing

@testable import PrismStore

@MainActor
@Suite("Sending actions")
struct StoreSendTests {
    @Test("send runs the reducer and the state reflects it when send returns")
    func sendReduces() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        store.send(.increment)
        store.send(.increment)
        store.send(.decrement)
        #expect(store.state.count == 1)
    }

    @Test("dynamic member lookup reads the state")
    func dynamicMember() {
        let store = PrismStore(initialState: Counter(count: 5), reducer: CounterFeature())
        #expect(store.count == 5)
    }

    @Test(".send and .sequence effects are reduced before send returns, in order")
    func immediateEffects() {
        let store = PrismStore(
            initialState: Counter(),
            reducer: PrismReduce<Counter, CounterAction> { state, action in
                switch action {
                case .increment:
                    state.log.append("increment")
                    return .merge(.send(.note("a")), .sequence([.note("b"), .note("c")]))
                case .note(let text):
                    state.log.append(text)
                    return text == "a" ? .send(.note("a2")) : .none
                default:
                    return .none
                }
            }
        )
        store.send(.increment)
        // Breadth-first: actions sent by an action wait behind those already queued.
        #expect(store.state.log == ["increment", "a", "b", "c", "a2"])
    }

    @Test("a send from inside the store's own processing is queued, never interleaved")
    func reentrantSendIsQueued() {
        let reference = Reference<PrismStore<Counter, CounterAction>>()
        let middleware = PrismSideEffect<Counter, CounterAction> { state, action in
            if action == .increment, let store = reference.value {
                // Re-entrant: the middleware sends while the store is processing .increment.
                store.send(.note("from middleware, count \(state.count)"))
                // The queued action has not run yet.
                precondition(store.state.log.isEmpty)
            }
            return .none
        }
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature(), middleware: middleware)
        reference.value = store
        store.send(.increment)
        #expect(store.state.log == ["from middleware, count 1"])
        #expect(store.state.count == 1)
    }

    @Test("replaceState replaces the whole state without running the reducer")
    func replaceState() {
        let calls = LockedBox(0)
        let store = PrismStore(
            initialState: Counter(),
            reducer: PrismReduce<Counter, CounterAction> { state, _ in
                calls.mutate { $0 += 1 }
                state.count += 1
                return .none
            }
        )
        store.replaceState(with: Counter(count: 40, log: ["restored"]))
        #expect(store.state == Counter(count: 40, log: ["restored"]))
        #expect(calls.wrappedValue == 0)
        store.send(.increment)
        #expect(store.state.count == 41)
    }

    @Test("a store works with state that is not Equatable")
    func nonEquatableState() {
        struct Box: Sendable { var values: [Int] = [] }
        let store = PrismStore(
            initialState: Box(),
            reducer: PrismReduce<Box, Int> { state, value in
                state.values.append(value)
                return .none
            }
        )
        for value in 0..<5 { store.send(value) }
        #expect(store.state.values == [0, 1, 2, 3, 4])
    }

    @Test("eraseToReduce keeps the reducer's behaviour")
    func eraseToReduce() {
        let erased: PrismReduce<Counter, CounterAction> = CounterFeature().eraseToReduce()
        let store = PrismStore(initialState: Counter(), reducer: erased)
        store.send(.set(9))
        #expect(store.state.count == 9)
    }
}
