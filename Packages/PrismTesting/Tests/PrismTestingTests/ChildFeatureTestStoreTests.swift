import PrismStore
import PrismTesting
import Testing

/// A list of rows, each a feature with a timer, and an optional detail, tested through a test store.
@MainActor
@Suite("Testing features made of features")
struct ChildFeatureTestStoreTests {
    struct Row: Equatable, Identifiable, Sendable {
        let id: Int
        var ticks = 0
        var isDone = false
    }

    enum RowAction: Equatable, Sendable {
        case toggle
        case startTimer
        case tick
    }

    struct RowFeature: PrismReducer {
        let ticks: AsyncStream<Void>

        func reduce(into state: inout Row, action: RowAction) -> PrismEffect<RowAction> {
            switch action {
            case .toggle:
                state.isDone.toggle()
                return .none
            case .startTimer:
                let ticks = self.ticks
                return .run { send in
                    for await _ in ticks { send(.tick) }
                }
            case .tick:
                state.ticks += 1
                return .none
            }
        }
    }

    struct ListState: Equatable, Sendable {
        var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    }

    enum ListAction: Equatable, Sendable {
        case row(id: Int, action: RowAction)
        case remove(id: Int)

        var row: (id: Int, action: RowAction)? {
            if case .row(let id, let action) = self { (id, action) } else { nil }
        }
    }

    struct ListFeature: PrismFeature {
        typealias State = ListState
        typealias Action = ListAction
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<ListState, ListAction> {
            PrismReduce<ListState, ListAction> { state, action in
                if case .remove(let id) = action { state.rows.remove(id: id) }
                return .none
            }
            .forEach(\.rows, action: ListAction.row, toElementAction: \.row) {
                RowFeature(ticks: ticks)
            }
        }
    }

    @Test("a child action is sent, and its change described, through the parent's action")
    func sendingAChildAction() async {
        let (ticks, _) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: ListState(), reducer: ListFeature(ticks: ticks))
        await store.send(.row(id: 2, action: .toggle)) {
            $0.rows[id: 2]?.isDone = true
        }
    }

    @Test("a child's actions are received by value and by case, and removing the child ends its effect")
    func receivingChildActions() async {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: ListState(), reducer: ListFeature(ticks: ticks))
        await store.send(.row(id: 1, action: .startTimer)) { _ in }
        continuation.yield()
        await store.receive(.row(id: 1, action: .tick)) {
            $0.rows[id: 1]?.ticks = 1
        }
        continuation.yield()
        await store.receive(\.row) {
            $0.rows[id: 1]?.ticks = 2
        }
        await store.send(.remove(id: 1)) {
            $0.rows.remove(id: 1)
        }
        await store.finish()
    }

    @Test("a child's effect still running at the end fails the test and names the action that started it")
    func childEffectsAreChecked() async {
        let (ticks, _) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: ListState(), reducer: ListFeature(ticks: ticks))
        await store.send(.row(id: 2, action: .startTimer)) { _ in }
        store.timeoutClock = ImmediateClock()
        await withKnownIssue {
            await store.finish(timeout: .milliseconds(50))
        } matching: { issue in
            issue.description.contains("1 effect(s) were still running")
                && issue.description.contains("started by row(id: 2, action:")
        }
        store.skipInFlightEffects()
    }

    struct RowsState: Equatable, Sendable {
        var rows: PrismRows<Row> = [Row(id: 1), Row(id: 2)]
    }

    struct RowsFeature: PrismFeature {
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<RowsState, ListAction> {
            PrismReduce<RowsState, ListAction> { state, action in
                if case .remove(let id) = action { state.rows.remove(id: id) }
                return .none
            }
            .forEach(\.rows, action: ListAction.row, toElementAction: \.row) {
                RowFeature(ticks: ticks)
            }
        }
    }

    @Test("rows kept in PrismRows are asserted like any state, and a wrong row is named in the diff")
    func prismRowsState() async {
        let (ticks, _) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: RowsState(), reducer: RowsFeature(ticks: ticks))
        await store.send(.row(id: 2, action: .toggle)) {
            $0.rows[id: 2]?.isDone = true
        }
        await expectIssue(mentioning: "is not what the test describes", "isDone: true", "isDone: false") {
            await store.send(.row(id: 1, action: .toggle)) {
                $0.rows[id: 2]?.isDone = false
            }
        }
        await store.send(.remove(id: 1)) {
            $0.rows.remove(id: 1)
        }
    }
}
