import Observation
import Testing

@testable import PrismStore

/// A send changes the state where it lives: observers of other parts of the state never make
/// the store copy a collection that one action changes one element of.
@MainActor
@Suite("Sends change the state in place")
struct StoreInPlaceTests {
    struct Row: Equatable, Sendable {
        var id: Int
        var isDone = false
    }

    struct Settings: Equatable, Sendable {
        var fontSize = 14
    }

    struct ListState: Equatable, Sendable {
        var rows = (0..<1_000).map { Row(id: $0) }
        var counter = 0
        var settings = Settings()
    }

    enum ListAction: Sendable {
        case toggle(Int)
        case settings(Int)
        case count
    }

    struct ListFeature: PrismReducer {
        func reduce(into state: inout ListState, action: ListAction) -> PrismEffect<ListAction> {
            switch action {
            case .toggle(let index): state.rows[index].isDone.toggle()
            case .settings(let size): state.settings.fontSize = size
            case .count: state.counter += 1
            }
            return .none
        }
    }

    /// Where the rows' elements live now. Reading through `currentState` records no observation.
    func rowsAddress(_ store: PrismStore<ListState, ListAction>) -> UnsafeRawPointer? {
        store.core.currentState.rows.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// Sends ten toggles and says whether the rows stayed where they were after each one (a
    /// copy could land where an earlier one was freed, so every send is checked).
    func togglesInPlace(_ store: PrismStore<ListState, ListAction>) -> Bool {
        let before = rowsAddress(store)
        var stayed = true
        for index in 0..<10 {
            store.send(.toggle(index))
            stayed = stayed && rowsAddress(store) == before
        }
        return stayed && store.core.currentState.rows[0..<10].allSatisfy(\.isDone)
    }

    @Test("with nobody observing, a toggle changes the row in place")
    func unobserved() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        #expect(togglesInPlace(store))
    }

    @Test("with an observer of the whole state, a toggle changes the row in place")
    func wholeStateObserved() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let observer = ObservationCounter { _ = store.state.counter }
        #expect(togglesInPlace(store))
        #expect(observer.count == 10)
    }

    @Test("with a derived value of another part observed, a toggle changes the row in place")
    func derivedObserved() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let counter = store.derive { $0.counter }
        let observer = ObservationCounter { _ = counter.value }
        #expect(togglesInPlace(store))
        #expect(observer.count == 0)
        store.send(.count)
        #expect(observer.count == 1)
    }

    @Test("with a scoped store of another feature observed, a toggle changes the row in place")
    func scopedObserved() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let settings = store.scope(state: \.settings, action: { (size: Int) in ListAction.settings(size) })
        let observer = ObservationCounter { _ = settings.state }
        #expect(togglesInPlace(store))
        #expect(observer.count == 0)
        settings.send(20)
        #expect(observer.count == 1)
        #expect(settings.fontSize == 20)
    }

    @Test("with a member of another part observed, a toggle changes the row in place")
    func memberObserved() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let observer = ObservationCounter { _ = store.counter }
        #expect(togglesInPlace(store))
        #expect(observer.count == 0)
    }

    @Test("an observer of the rows themselves is told about each toggle, once")
    func rowsObserved() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let rows = store.scope(state: \.rows, action: { (action: ListAction) in action })
        let observer = ObservationCounter { _ = rows.state }
        for index in 0..<10 { store.send(.toggle(index)) }
        store.send(.count)
        #expect(observer.count == 10)
    }

    @Test("once its observer has been told, a scoped store of the rows no longer holds them")
    func toldWatchersLetGo() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let rows = store.scope(state: \.rows, action: { (action: ListAction) in action })
        let told = LockedBox(false)
        withObservationTracking {
            _ = rows.state
        } onChange: {
            told.mutate { $0 = true }
        }
        store.send(.toggle(0))
        #expect(told.wrappedValue)
        // Nobody re-tracked: the next toggles must not copy the rows for a stale comparison.
        let before = rowsAddress(store)
        for index in 1..<10 {
            store.send(.toggle(index))
            #expect(rowsAddress(store) == before)
        }
    }

    @Test("replaceState on a scoped store writes through in place")
    func scopedReplaceStateInPlace() {
        let store = PrismStore(initialState: ListState(), reducer: ListFeature())
        let settings = store.scope(state: \.settings, action: { (size: Int) in ListAction.settings(size) })
        let before = rowsAddress(store)
        settings.replaceState(with: Settings(fontSize: 30))
        #expect(store.core.currentState.settings.fontSize == 30)
        store.send(.toggle(3))
        #expect(rowsAddress(store) == before)
    }
}
