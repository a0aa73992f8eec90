import PrismStore

/// Ticks that tests feed by hand: one stream per key, for effects that run until cancelled.
final class TickSource: Sendable {
    private let continuations = LockedBox<[AnyHashable: AsyncStream<Void>.Continuation]>([:])

    /// A new stream for `key`; a later call for the same key replaces it.
    func stream(_ key: some Hashable & Sendable) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        continuations.mutate { $0[AnyHashable(key)] = continuation }
        return stream
    }

    /// Sends one tick to the stream of `key`, if it exists.
    func tick(_ key: some Hashable & Sendable) {
        _ = continuations.wrappedValue[AnyHashable(key)]?.yield()
    }
}

/// Waits, yielding to other tasks, until `condition` holds or many turns went by; returns it.
/// Only a failing test waits the whole bound (generous: CI runs many suites on two cores).
@MainActor
func settle(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<20_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

// MARK: A row

struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
    var ticks = 0
    var isDone = false
}

enum RowAction: Equatable, Sendable {
    case toggle
    case startTimer
    case stopTimer
    case tick
}

/// One id for every row's timer: `forEach` keeps the rows' timers apart.
struct TimerID: Hashable, Sendable {}

struct RowFeature: PrismReducer {
    let ticks: TickSource

    func reduce(into state: inout Row, action: RowAction) -> PrismEffect<RowAction> {
        switch action {
        case .toggle:
            state.isDone.toggle()
            return .none
        case .startTimer:
            let stream = ticks.stream("row \(state.id)")
            return PrismEffect.run { send in
                for await _ in stream { send(.tick) }
            }
            .cancellable(id: TimerID(), cancelInFlight: true)
        case .stopTimer:
            return .cancel(id: TimerID())
        case .tick:
            state.ticks += 1
            return .none
        }
    }
}

// MARK: A detail

struct Detail: Equatable, Identifiable, Sendable {
    let id: Int
    var seconds = 0
}

enum DetailAction: Equatable, Sendable {
    case appeared
    case tick
    case stop
}

struct DetailFeature: PrismReducer {
    let ticks: TickSource

    func reduce(into state: inout Detail, action: DetailAction) -> PrismEffect<DetailAction> {
        switch action {
        case .appeared:
            let stream = ticks.stream("detail \(state.id)")
            return PrismEffect.run { send in
                for await _ in stream { send(.tick) }
            }
            .cancellable(id: TimerID())
        case .tick:
            state.seconds += 1
            return .none
        case .stop:
            return .cancel(id: TimerID())
        }
    }
}

// MARK: Settings

struct Settings: Equatable, Sendable {
    var fontSize = 14
}

enum SettingsAction: Equatable, Sendable {
    case setFontSize(Int)
}

struct SettingsFeature: PrismReducer {
    func reduce(into state: inout Settings, action: SettingsAction) -> PrismEffect<SettingsAction> {
        switch action {
        case .setFontSize(let size):
            state.fontSize = size
            return .none
        }
    }
}

// MARK: The list, made of all of them

struct ListState: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = []
    var detail: Detail?
    var settings = Settings()
    var log: [String] = []
}

enum ListAction: Equatable, Sendable {
    case row(id: Int, action: RowAction)
    case detail(DetailAction)
    case settings(SettingsAction)
    case add(Row)
    case remove(id: Int)
    case showDetail(id: Int)
    case closeDetail
    case startParentTimer
    case parentTick

    var row: (id: Int, action: RowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
    var detail: DetailAction? {
        if case .detail(let action) = self { action } else { nil }
    }
    var settings: SettingsAction? {
        if case .settings(let action) = self { action } else { nil }
    }
}

/// A store running `ListFeature` from `initialState`, and the source of its timers' ticks.
@MainActor
func makeListStore(_ initialState: ListState = ListState()) -> (PrismStore<ListState, ListAction>, TickSource) {
    let ticks = TickSource()
    return (PrismStore(initialState: initialState, reducer: ListFeature(ticks: ticks)), ticks)
}

struct ListFeature: PrismFeature {
    typealias State = ListState
    typealias Action = ListAction

    let ticks: TickSource

    var body: some PrismReducer<ListState, ListAction> {
        PrismScope(state: \.settings, action: ListAction.settings, toChildAction: \.settings) {
            SettingsFeature()
        }
        PrismReduce<ListState, ListAction> { [ticks] state, action in
            state.log.append(Self.describe(action))
            switch action {
            case .add(let row):
                state.rows.append(row)
                return .none
            case .remove(let id):
                state.rows.remove(id: id)
                return .none
            case .showDetail(let id):
                state.detail = Detail(id: id)
                return .none
            case .closeDetail:
                state.detail = nil
                return .none
            case .startParentTimer:
                let stream = ticks.stream("parent")
                return PrismEffect.run { send in
                    for await _ in stream { send(.parentTick) }
                }
                .cancellable(id: TimerID())
            case .row, .detail, .settings, .parentTick:
                return .none
            }
        }
        .ifLet(\.detail, action: ListAction.detail, toChildAction: \.detail) {
            DetailFeature(ticks: ticks)
        }
        .forEach(\.rows, action: ListAction.row, toElementAction: \.row) {
            RowFeature(ticks: ticks)
        }
    }

    static func describe(_ action: ListAction) -> String {
        switch action {
        case .row(let id, let action): "row \(id) \(action)"
        case .detail(let action): "detail \(action)"
        case .settings(let action): "settings \(action)"
        default: "\(action)"
        }
    }
}

extension ListState {
    /// Three rows, no detail.
    static var three: ListState {
        ListState(rows: [Row(id: 1, title: "One"), Row(id: 2, title: "Two"), Row(id: 3, title: "Three")])
    }
}
