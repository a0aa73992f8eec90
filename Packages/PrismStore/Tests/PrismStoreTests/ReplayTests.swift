import Foundation
import Testing

@_spi(PrismInternals) @testable import PrismStore

/// Records the actions a middleware ran for, wherever it sits in a feature.
final class RunLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

struct LoggingMiddleware<State: Sendable, Action: Sendable>: PrismMiddleware {
    let name: String
    let log: RunLog

    func run(state: State, action: Action) -> PrismEffect<Action> {
        log.append("\(name) \(action)")
        return .none
    }
}

/// A list with a detail and settings, each with a middleware of its own, under a root middleware.
struct ReplayFeature: PrismFeature {
    let log: RunLog
    var logsAtRoot = true

    var body: some PrismReducer<ListState, ListAction> {
        PrismScope(state: \.settings, action: ListAction.settings, toChildAction: \.settings) {
            SettingsFeature()
            LoggingMiddleware<Settings, SettingsAction>(name: "settings", log: log)
        }
        PrismReduce<ListState, ListAction> { state, action in
            switch action {
            case .add(let row): state.rows.append(row)
            case .remove(let id): state.rows.remove(id: id)
            case .showDetail(let id): state.detail = Detail(id: id)
            case .closeDetail: state.detail = nil
            default: break
            }
            return .none
        }
        .ifLet(\.detail, action: ListAction.detail, toChildAction: \.detail) {
            DetailFeature(ticks: TickSource())
            LoggingMiddleware<Detail, DetailAction>(name: "detail", log: log)
        }
        .forEach(\.rows, action: ListAction.row, toElementAction: \.row) {
            RowFeature(ticks: TickSource())
            LoggingMiddleware<Row, RowAction>(name: "row", log: log)
        }
        if logsAtRoot {
            LoggingMiddleware<ListState, ListAction>(name: "root", log: log)
        }
        LoggingMiddleware<ListState, ListAction>(name: "dependent", log: log)
            .dependency(\.date, .constant(Date(timeIntervalSince1970: 0)))
    }
}

@MainActor
@Suite("Replaying actions: the reducers' state changes, no middleware, no effect")
struct ReplayTests {
    let actions: [ListAction] = [
        .row(id: 2, action: .toggle),
        .settings(.setFontSize(20)),
        .showDetail(id: 3),
        .detail(.tick),
        .add(Row(id: 4, title: "Four")),
        .row(id: 4, action: .tick),
        .remove(id: 1),
        .row(id: 2, action: .startTimer),
    ]

    @Test(
        "a replay reaches the state a send reaches, through scopes, ifLet, forEach, builder branches and dependencies")
    func replayMatchesSend() {
        let sent = RunLog()
        let store = PrismStore(initialState: ListState.three, reducer: ReplayFeature(log: sent))
        for action in actions { store.send(action) }
        #expect(
            sent.all.contains("row toggle") && sent.all.contains("detail tick")
                && sent.all.contains("settings setFontSize(20)"))
        #expect(sent.all.count(where: { $0.hasPrefix("root") }) == actions.count)

        let replayed = RunLog()
        let replaying = PrismStore(initialState: ListState.three, reducer: ReplayFeature(log: replayed))
        var state = ListState.three
        for action in actions { replaying.tools.replay(&state, action) }
        #expect(state == store.tools.currentState)
        #expect(replayed.all.isEmpty, "no middleware ran: \(replayed.all)")
        #expect(replaying.tools.currentState == ListState.three, "the store itself was not touched")
    }

    @Test("middleware passed as an array is not replayed either")
    func arrayMiddleware() {
        let log = RunLog()
        let store = PrismStore(
            initialState: Counter(),
            reducer: CounterFeature(),
            middleware: [LoggingMiddleware<Counter, CounterAction>(name: "array", log: log)]
        )
        var state = Counter()
        store.tools.replay(&state, .increment)
        #expect(state.count == 1)
        #expect(log.all.isEmpty)
        store.send(.increment)
        #expect(log.all == ["array increment"])
    }

    @Test("replacing the state unheard tells observers but not the reducer's middleware")
    func replaceUnheard() {
        let journal = StoreMiddlewareTests.Journal()
        let store = PrismStore(
            initialState: Counter(), reducer: CounterFeature(),
            middleware: StoreMiddlewareTests.StoreFinder(name: "m", journal: journal))
        store.send(.increment)
        store.tools.replaceStateUnheard(with: Counter(count: 7))
        #expect(store.state.count == 7)
        #expect(journal.all == ["m found its store at 1"])
        store.replaceState(with: Counter(count: 8))
        #expect(journal.all == ["m found its store at 1", "m heard a replaced state at 8"])
    }
}
