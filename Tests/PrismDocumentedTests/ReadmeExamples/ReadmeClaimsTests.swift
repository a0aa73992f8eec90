// What README.md says of its counter, checked on the README's own types (ReadmeExamples.swift in
// this folder is a link to Snippets/ReadmeExamples.swift, which holds the README's code verbatim).
import PrismArchitecture
import Testing

@MainActor
@Suite("README example")
struct ReadmeClaimsTests {
    @Test("the README's counter does what the README says")
    func counter() async {
        let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
        store.send(.increment)  // state.count == 1 when send returns
        #expect(store.state.count == 1)
        await store.send(.fetchRemoteCount).finish()
        #expect(store.state.count == 42)
    }
}
