// Effects and cancellation, composing features, middleware and history with PrismStore.
// snippet.hide
import Foundation
import Prism

// snippet.show

// snippet.timer
/// A timer that ticks every second while it runs: a long-running effect with an id.
struct TimerFeature: PrismReducer {
    struct State: Equatable, Sendable, Codable {
        var isRunning = false
        var ticks = 0
    }

    enum Action: Equatable, Sendable, Codable {
        case start
        case stop
        case tick
    }

    private struct TimerID: Hashable, Sendable {}

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .start:
            state.isRunning = true
            return .run { [clock] send in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    send(.tick)
                }
            }
            .cancellable(id: TimerID(), cancelInFlight: true)
        case .stop:
            state.isRunning = false
            return .cancel(id: TimerID())
        case .tick:
            state.ticks += 1
            return .none
        }
    }
}
// snippet.end

// snippet.search
/// A search that runs once typing pauses; a newer query replaces the waiting one.
struct SearchFeature: PrismReducer {
    struct State: Equatable, Sendable {
        var query = ""
        var results: [String] = []
    }

    enum Action: Equatable, Sendable {
        case queryChanged(String)
        case resultsLoaded([String])
        case searchFailed
    }

    private struct SearchID: Hashable, Sendable {}

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else {
                state.results = []
                return .cancel(id: SearchID())
            }
            return .run { send in
                send(.resultsLoaded(try await search(query)))
            } catch: { _, send in
                send(.searchFailed)
            }
            .debounce(id: SearchID(), for: .milliseconds(300), clock: clock)
        case .resultsLoaded(let results):
            state.results = results
            return .none
        case .searchFailed:
            state.results = []
            return .none
        }
    }
}
// snippet.end

/// Stands in for a server.
@Sendable func search(_ query: String) async throws -> [String] { [query] }

// snippet.combining
enum StartupAction: Sendable {
    case appLaunched
    case configLoaded
    case sessionRestored
    case ready
}

func startup() -> PrismEffect<StartupAction> {
    // The two loads run at the same time; `.ready` is sent once both have ended.
    .concatenate(
        .merge(
            .run { send in send(.configLoaded) },
            .run { send in send(.sessionRestored) }
        ),
        .send(.ready)
    )
}
// snippet.end

// snippet.task
@MainActor
func runTimerForAWhile(_ store: PrismStore<TimerFeature.State, TimerFeature.Action>) async {
    let timer = store.send(.start)
    try? await Task.sleep(for: .seconds(3))
    timer.cancel()  // or store.send(.stop), or `await timer.finish()` from SwiftUI's `.task { }`
}
// snippet.end

// snippet.parent
/// A screen made of two features: a timer, and a list of rows that each have a timer.
struct Row: Equatable, Sendable, Identifiable {
    var id: Int
    var timer = TimerFeature.State()
}

struct DashboardFeature: PrismFeature {
    struct State: Equatable, Sendable {
        var timer = TimerFeature.State()
        var rows: IdentifiedArrayOf<Row> = []
        var detail: SearchFeature.State?
    }

    enum Action: Equatable, Sendable {
        case timer(TimerFeature.Action)
        case row(id: Row.ID, action: TimerFeature.Action)
        case detail(SearchFeature.Action)
        case addRow
        case removeRow(id: Row.ID)
        case showDetail
        case hideDetail
    }

    var body: some PrismReducer<State, Action> {
        // A case of the action enum is all a child needs: no extractor, no macro.
        PrismScope(state: \.timer, action: Action.timer) {
            TimerFeature()
        }
        PrismReduce<State, Action> { state, action in
            switch action {
            case .addRow:
                state.rows.append(Row(id: (state.rows.last?.id ?? 0) + 1))
            case .removeRow(let id):
                state.rows.remove(id: id)  // ends that row's timer
            case .showDetail:
                state.detail = SearchFeature.State()
            case .hideDetail:
                state.detail = nil  // ends the detail's search
            case .timer, .row, .detail:
                break
            }
            return .none
        }
        .forEach(\.rows, action: Action.row) {
            PrismScope(state: \.timer, action: { $0 }, toChildAction: { $0 }) {
                TimerFeature()
            }
        }
        .ifLet(\.detail, action: Action.detail) {
            SearchFeature()
        }
    }
}
// snippet.end

// snippet.scoped-stores
@MainActor
func childStores(of store: PrismStore<DashboardFeature.State, DashboardFeature.Action>) {
    // A store of the timer alone, for a view that knows nothing of the dashboard.
    let timer: PrismStore<TimerFeature.State, TimerFeature.Action> = store.scope(
        state: \.timer,
        action: DashboardFeature.Action.timer
    )
    timer.send(.start)

    // A store per row, and one for the detail while it is shown.
    for id in store.rows.ids {
        if let row = store.scope(state: \.rows, id: id, action: { DashboardFeature.Action.row(id: $0, action: $1) }) {
            print(row.timer.ticks)
        }
    }
    if let detail = store.scope(state: \.detail, action: DashboardFeature.Action.detail) {
        detail.send(.queryChanged("prism"))
    }

    // A value computed from the state, whose observers hear only when it changes.
    let busyRows = store.derive { state in state.rows.filter(\.timer.isRunning).count }
    print(busyRows.value)
}
// snippet.end

// snippet.deep-scope
struct ShellState: Equatable, Sendable {
    var dashboard = DashboardFeature.State()
}

enum ShellAction: Equatable, Sendable {
    case dashboard(DashboardFeature.Action)
}

@MainActor
func timerStore(of store: PrismStore<ShellState, ShellAction>) -> PrismStore<TimerFeature.State, TimerFeature.Action> {
    // Step by step: each send from the timer's store passes through the dashboard's on its way up.
    let dashboard = store.scope(state: \.dashboard, action: ShellAction.dashboard)
    let stepByStep = dashboard.scope(state: \.timer, action: DashboardFeature.Action.timer)
    stepByStep.send(.start)

    // In one step: one key path, and one embedding that the compiler writes out whole.
    return store.scope(state: \.dashboard.timer, action: { .dashboard(.timer($0)) })
}
// snippet.end

// snippet.middleware
/// Logs every action with the state it led to.
struct LoggingMiddleware: PrismMiddleware {
    func run(state: TimerFeature.State, action: TimerFeature.Action) -> PrismEffect<TimerFeature.Action> {
        print("\(action) -> ticks: \(state.ticks)")
        return .none
    }
}

/// Stops the timer after ten ticks, whoever started it: middleware can send actions too.
let stopAfterTen = PrismSideEffect<TimerFeature.State, TimerFeature.Action> { state, action in
    action == .tick && state.ticks >= 10 ? .send(.stop) : .none
}

@MainActor
func makeTimerStore(verbose: Bool) -> PrismStore<TimerFeature.State, TimerFeature.Action> {
    PrismStore(
        initialState: TimerFeature.State(),
        reducer: PrismCombineReducers {
            TimerFeature()
            stopAfterTen
            if verbose {
                LoggingMiddleware()
            }
        }
    )
}
// snippet.end

// snippet.middleware-reducer
/// Middleware attached to one feature, not to the whole store.
let timerWithLogging = TimerFeature().handling(with: LoggingMiddleware())
// snippet.end

// snippet.time-travel
@MainActor
func timeTravel() {
    let debugger = PrismTimeTravelDebugger<TimerFeature.State>(maxSnapshots: 100)
    let store = PrismStore(
        initialState: TimerFeature.State(),
        reducer: TimerFeature(),
        middleware: debugger.middleware()
    )
    store.send(.tick)
    store.send(.tick)

    if debugger.canGoBack {
        store.replaceState(with: debugger.goBack().state)  // ticks: 1
    }
    for snapshot in debugger.snapshots {
        print(snapshot.index, snapshot.action, snapshot.state.ticks)
    }
}
// snippet.end

// snippet.undo
@MainActor
func undoAndRedo() {
    let store = PrismStore(initialState: TimerFeature.State(), reducer: TimerFeature())
    let history = PrismUndoRedoStack<TimerFeature.State>(maxStackSize: 50) { store.state }

    history.push(store.state)  // before a change the user may undo
    store.send(.tick)

    if let previous = history.undo() {
        store.replaceState(with: previous)  // ticks: 0
    }
    if let next = history.redo() {
        store.replaceState(with: next)  // ticks: 1
    }
}
// snippet.end

// snippet.recording
@MainActor
func recordAndReplay(to file: URL) throws {
    let recorder = PrismSessionRecorder<TimerFeature.State, TimerFeature.Action>(initialState: TimerFeature.State())
    let store = PrismStore(
        initialState: TimerFeature.State(),
        reducer: TimerFeature(),
        middleware: recorder.middleware()
    )
    store.send(.tick)
    store.send(.tick)
    try recorder.recording.write(to: file)  // attach it to the bug report

    // Later, in a test: the same actions give the same states.
    let recording = try PrismSessionRecording<TimerFeature.State, TimerFeature.Action>(contentsOf: file)
    let replayed = recording.replay(reducer: TimerFeature())
    assert(replayed.state == store.state)
}
// snippet.end
