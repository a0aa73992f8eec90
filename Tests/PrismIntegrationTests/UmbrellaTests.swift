import Prism
import PrismArchitecture
import Testing

/// The umbrella products re-export the modules they name.
@MainActor
@Suite("Umbrella imports")
struct UmbrellaTests {
    struct State: Equatable, Sendable { var count = 0 }

    @Test("import Prism and import PrismArchitecture give the store, reducers and effects")
    func umbrellaExports() async {
        let store = PrismStore(
            initialState: State(),
            reducer: PrismReduce<State, Int> { state, amount in
                state.count += amount
                return amount > 1 ? .run { send in send(-1) } : .none
            }
        )
        await store.send(5).finish()
        #expect(store.state.count == 4)
    }
}
