import Testing

@testable import PrismStore

@MainActor
@Suite("Optional child features")
struct OptionalChildTests {
    @Test("the child runs on its state while it is there")
    func childRunsWhilePresent() {
        let (store, _) = makeListStore()
        store.send(.showDetail(id: 7))
        store.send(.detail(.tick))
        store.send(.detail(.tick))
        #expect(store.state.detail == Detail(id: 7, seconds: 2))
    }

    @Test("closing the child ends every effect it started")
    func closingEndsEffects() async {
        let (store, ticks) = makeListStore()
        store.send(.showDetail(id: 1))
        let timer = store.send(.detail(.appeared))
        ticks.tick("detail 1")
        #expect(await settle { store.state.detail?.seconds == 1 })
        store.send(.closeDetail)
        #expect(await settle { timer.isFinished })
        #expect(store.state.detail == nil)
    }

    @Test("replacing the child with one of another id ends the first one's effects")
    func replacingEndsEffects() async {
        let (store, ticks) = makeListStore()
        store.send(.showDetail(id: 1))
        let first = store.send(.detail(.appeared))
        store.send(.showDetail(id: 2))
        #expect(await settle { first.isFinished })
        let second = store.send(.detail(.appeared))
        ticks.tick("detail 2")
        #expect(await settle { store.state.detail?.seconds == 1 })
        #expect(!second.isFinished)
        store.send(.closeDetail)
        #expect(await settle { second.isFinished })
    }

    @Test("the child's cancellation ids are its own: it cannot cancel the parent's effect")
    func childIDsAreScoped() async {
        let (store, ticks) = makeListStore()
        let parentTimer = store.send(.startParentTimer)
        store.send(.showDetail(id: 1))
        let childTimer = store.send(.detail(.appeared))
        // The child cancels TimerID(), the same id the parent's timer uses.
        store.send(.detail(.stop))
        #expect(await settle { childTimer.isFinished })
        ticks.tick("parent")
        #expect(await settle { store.state.log.contains("parentTick") })
        #expect(!parentTimer.isFinished)
        parentTimer.cancel()
    }

    @Test("an action for the child while it is not there is a warning, never a crash")
    func actionForAbsentChild() {
        let (store, _) = makeListStore()
        withKnownIssue {
            store.send(.detail(.tick))
        } matching: { issue in
            issue.description.contains("while its child state") && issue.description.contains("was nil")
        }
        #expect(store.state.detail == nil)
        #expect(store.state.log == ["detail tick"])
    }
}
