import Observation
import Testing

@testable import PrismStore

@MainActor
@Suite("Stores for rows and optional children")
struct ChildStoreTests {
    /// A store of ``ListState/three``, and the store of its row `id`.
    func rowOfThree(
        _ id: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (PrismStore<ListState, ListAction>, PrismStore<Row, RowAction>) {
        let (store, _) = makeListStore(.three)
        let row = try #require(
            store.scope(state: \.rows, id: id, action: ListAction.row), sourceLocation: sourceLocation)
        return (store, row)
    }

    @Test("a row's store is the same store while somebody holds it")
    func rowStoresAreStable() throws {
        let (store, _) = makeListStore(.three)
        let first = try #require(store.scope(state: \.rows, id: 2, action: ListAction.row))
        let again = try #require(store.scope(state: \.rows, id: 2, action: ListAction.row))
        #expect(first === again)
        #expect(store.scope(state: \.rows, id: 42, action: ListAction.row) == nil)
    }

    @Test("a row's store sends through the parent to its element and reads its element")
    func rowStoresSendAndRead() throws {
        let (store, row) = try rowOfThree(3)
        row.send(.toggle)
        #expect(row.state.isDone)
        #expect(row.title == "Three")
        #expect(store.state.rows[id: 3]?.isDone == true)
        #expect(store.state.log == ["row 3 toggle"])
    }

    @Test("an observer of a row's store hears about that row only")
    func rowStoreObservation() throws {
        let (store, row) = try rowOfThree(1)
        let observer = ObservationCounter { _ = row.state }
        store.send(.row(id: 2, action: .toggle))
        store.send(.row(id: 3, action: .toggle))
        #expect(observer.count == 0)
        store.send(.row(id: 1, action: .toggle))
        #expect(observer.count == 1)
    }

    @Test("a row's store keeps showing its row as last read after the row is removed")
    func removedRowKeepsLastState() throws {
        let (store, row) = try rowOfThree(2)
        row.send(.toggle)
        #expect(row.state.isDone)
        store.send(.remove(id: 2))
        #expect(row.state == Row(id: 2, title: "Two", isDone: true))
    }

    @Test("an optional child's store is there while the child is, and the same one meanwhile")
    func optionalChildStores() throws {
        let (store, _) = makeListStore()
        #expect(store.scope(state: \.detail, action: ListAction.detail) == nil)
        store.send(.showDetail(id: 1))
        let detail = try #require(store.scope(state: \.detail, action: ListAction.detail))
        detail.send(.tick)
        #expect(detail.state.seconds == 1)
        #expect(store.scope(state: \.detail, action: ListAction.detail) === detail)
        store.send(.showDetail(id: 2))
        let other = try #require(store.scope(state: \.detail, action: ListAction.detail))
        #expect(other !== detail)
        #expect(other.state.id == 2)
        store.send(.closeDetail)
        #expect(store.scope(state: \.detail, action: ListAction.detail) == nil)
        #expect(other.state.id == 2)
    }

    @Test("a view that asks for an optional child hears when it comes and goes, not when it changes")
    func optionalChildPresenceIsObserved() {
        let (store, _) = makeListStore()
        let observer = ObservationCounter { _ = store.scope(state: \.detail, action: ListAction.detail) }
        store.send(.showDetail(id: 1))
        #expect(observer.count == 1)
        store.send(.detail(.tick))
        store.send(.settings(.setFontSize(3)))
        #expect(observer.count == 1)
        store.send(.showDetail(id: 2))
        #expect(observer.count == 2)
        store.send(.closeDetail)
        #expect(observer.count == 3)
    }

    @Test("rows nobody asked a store for cost nothing: no watcher, no store")
    func unaskedRowsCostNothing() throws {
        let store = PrismStore(
            initialState: ListState(
                rows: IdentifiedArray(uniqueElements: (0..<1_000).map { Row(id: $0, title: "\($0)") })),
            reducer: ListFeature(ticks: TickSource())
        )
        let root = try #require(store.core as? RootCore<ListState, ListAction>)
        store.send(.row(id: 10, action: .toggle))
        #expect(!root.needsObservation)
        let row = try #require(store.scope(state: \.rows, id: 5, action: ListAction.row))
        #expect(!root.needsObservation)
        _ = row.state
        #expect(root.observation.hasWatchers)
    }
}
