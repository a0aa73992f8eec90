import Testing

@testable import PrismStore

@MainActor
@Suite("A child feature for each element of a collection")
struct CollectionChildTests {
    @Test("an element's action runs on that element only")
    func elementActionRunsOnItsElement() {
        let (store, _) = makeListStore(.three)
        store.send(.row(id: 2, action: .toggle))
        #expect(store.state.rows.map(\.isDone) == [false, true, false])
        #expect(store.state.log == ["row 2 toggle"])
    }

    @Test("removing an element ends its effects and leaves the others running")
    func removingEndsItsEffects() async {
        let (store, ticks) = makeListStore(.three)
        let first = store.send(.row(id: 1, action: .startTimer))
        let second = store.send(.row(id: 2, action: .startTimer))
        store.send(.remove(id: 1))
        #expect(await settle { first.isFinished })
        ticks.tick("row 2")
        #expect(await settle { store.state.rows[id: 2]?.ticks == 1 })
        #expect(!second.isFinished)
        store.send(.remove(id: 2))
        #expect(await settle { second.isFinished })
    }

    @Test("each element's cancellation ids are its own: one row's cancel stops its timer only")
    func elementIDsAreScoped() async {
        let (store, ticks) = makeListStore(.three)
        let first = store.send(.row(id: 1, action: .startTimer))
        let third = store.send(.row(id: 3, action: .startTimer))
        store.send(.row(id: 1, action: .stopTimer))
        #expect(await settle { first.isFinished })
        ticks.tick("row 3")
        #expect(await settle { store.state.rows[id: 3]?.ticks == 1 })
        #expect(!third.isFinished)
        third.cancel()
    }

    @Test("an action for an element that is not there is a warning, never a crash")
    func actionForMissingElement() {
        let (store, _) = makeListStore(.three)
        withKnownIssue {
            store.send(.row(id: 42, action: .toggle))
        } matching: { issue in
            issue.description.contains("id 42") && issue.description.contains("not in")
        }
        #expect(store.state.rows == ListState.three.rows)
    }

    @Test("adding and removing elements keeps the others' state")
    func addingAndRemoving() {
        let (store, _) = makeListStore(.three)
        store.send(.row(id: 3, action: .toggle))
        store.send(.add(Row(id: 4, title: "Four")))
        store.send(.remove(id: 1))
        #expect(store.state.rows.ids == [2, 3, 4])
        #expect(store.state.rows[id: 3]?.isDone == true)
    }
}
