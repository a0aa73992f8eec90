import Testing

@testable import PrismStore

/// The stores given out for parts of the state live as long as somebody holds them, not as long
/// as the root: a screen that goes away frees its store, watched or not, its element removed or
/// not (TCA users report child stores that outlive their screen). Effects free what they
/// captured when they end or are cancelled.
@MainActor
@Suite("Scoped, row and child stores are freed when their screen lets go")
struct StoreReleaseTests {
    /// Something an effect or a screen holds, to see when it is freed.
    final class Tracked: Sendable {}

    @Test("a row store the screen dropped is freed while the root lives, its element removed or not")
    func rowStoresAreFreed() {
        let (store, _) = makeListStore(.three)
        weak var kept: PrismStore<Row, RowAction>?
        weak var removed: PrismStore<Row, RowAction>?
        do {
            let two = store.scope(state: \.rows, id: 2) { ListAction.row(id: $0, action: $1) }
            let three = store.scope(state: \.rows, id: 3) { ListAction.row(id: $0, action: $1) }
            kept = two
            removed = three
            let watched = ObservationCounter { _ = two?.state.isDone }
            two?.send(.toggle)
            store.send(.remove(id: 3))
            #expect(watched.count == 1)
            #expect(three?.state.title == "Three")
        }
        #expect(kept == nil)
        #expect(removed == nil)
        store.send(.row(id: 2, action: .toggle))
        #expect(store.state.rows[id: 2]?.isDone == false)
    }

    @Test("a thousand row stores, watched then dropped, are all freed, and asking again makes new ones")
    func manyRowStoresAreFreed() {
        var state = ListState()
        for id in 1...1_000 { state.rows.append(Row(id: id, title: "Row \(id)")) }
        let (store, _) = makeListStore(state)
        var released: [() -> Bool] = []
        do {
            var screens: [ObservationCounter] = []
            for id in 1...1_000 {
                guard let row = store.scope(state: \.rows, id: id, action: { ListAction.row(id: $0, action: $1) })
                else { continue }
                weak let weakRow = row
                released.append { weakRow == nil }
                screens.append(ObservationCounter { _ = row.state.title })
            }
            #expect(released.count == 1_000)
            #expect(screens.count == 1_000)
        }
        #expect(released.allSatisfy { $0() })
        let again = store.scope(state: \.rows, id: 500) { ListAction.row(id: $0, action: $1) }
        again?.send(.toggle)
        #expect(store.state.rows[id: 500]?.isDone == true)
    }

    @Test("an optional child's store and a scoped store are freed when dropped, the child shown or closed")
    func childStoresAreFreed() {
        let (store, _) = makeListStore(.three)
        store.send(.showDetail(id: 1))
        weak var detail: PrismStore<Detail, DetailAction>?
        weak var settings: PrismStore<Settings, SettingsAction>?
        do {
            let shown = store.scope(state: \.detail, action: ListAction.detail)
            let scoped = store.scope(state: \.settings, action: ListAction.settings)
            detail = shown
            settings = scoped
            #expect(shown != nil)
            _ = ObservationCounter { _ = scoped.state.fontSize }
            scoped.send(.setFontSize(18))
            store.send(.closeDetail)
        }
        #expect(detail == nil)
        #expect(settings == nil)
        #expect(store.state.settings.fontSize == 18)
    }

    @Test("an effect frees what it captured when it ends, and when it is cancelled")
    func effectsFreeTheirCaptures() async {
        enum Action: Sendable {
            case finish(Tracked)
            case wait(Tracked)
            case done
        }
        let store = PrismStore(
            initialState: 0,
            reducer: PrismReduce<Int, Action> { state, action in
                switch action {
                case .finish(let tracked):
                    return .run { send in
                        _ = tracked
                        send(.done)
                    }
                case .wait(let tracked):
                    return .run { _ in
                        _ = tracked
                        try await Task.sleep(for: .seconds(3_600))
                    }
                case .done:
                    state += 1
                    return .none
                }
            })
        weak var finished: Tracked?
        weak var cancelled: Tracked?
        let waiting: PrismEffectTask
        do {
            let first = Tracked()
            let second = Tracked()
            finished = first
            cancelled = second
            store.send(.finish(first))
            waiting = store.send(.wait(second))
        }
        #expect(await settle { store.state == 1 && finished == nil })
        #expect(cancelled != nil)
        waiting.cancel()
        #expect(await settle { cancelled == nil })
    }
}
