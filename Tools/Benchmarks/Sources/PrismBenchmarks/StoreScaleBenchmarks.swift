import Dispatch
import Observation
import PrismArchitecture

// MARK: A list feature of any size

/// One row of a large list. Its title is short enough to be stored inline (no allocation).
struct ScaleItem: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
    var isDone = false
}

/// A feature the list feature sits beside, that list actions never touch.
struct ScaleSettings: Codable, Equatable, Sendable {
    var theme = "light"
    var fontSize = 14
}

/// What the list is kept in: a plain `Array`, or `PrismRows` (the way the history article
/// recommends for rows, whose copies share storage).
protocol ScaleItems: MutableCollection, RandomAccessCollection, Codable, Equatable, Sendable
where Element == ScaleItem, Index == Int {
    init(items: [ScaleItem])
}

extension Array: ScaleItems where Element == ScaleItem {
    init(items: [ScaleItem]) { self = items }
}

extension PrismRows: ScaleItems where Element == ScaleItem {
    init(items: [ScaleItem]) { self.init(uniqueElements: items) }
}

struct ScaleStateOf<Items: ScaleItems>: Codable, Equatable, Sendable {
    var items: Items
    var counter = 0
    var settings = ScaleSettings()

    init(count: Int) {
        items = Items(items: (0..<count).map { ScaleItem(id: $0, title: "Item \($0 % 100_000)") })
    }
}

/// The list in a plain array.
typealias ScaleState = ScaleStateOf<[ScaleItem]>
/// The list in `PrismRows`.
typealias RowsScaleState = ScaleStateOf<PrismRows<ScaleItem>>

enum ScaleAction: Sendable {
    case toggle(Int)
    case settings(ScaleSettingsAction)
}

enum ScaleSettingsAction: Sendable {
    case setFontSize(Int)
}

struct ScaleReducerOf<Items: ScaleItems>: PrismReducer {
    func reduce(into state: inout ScaleStateOf<Items>, action: ScaleAction) -> PrismEffect<ScaleAction> {
        switch action {
        case .toggle(let index):
            state.items[index].isDone.toggle()
            return .none
        case .settings(.setFontSize(let size)):
            state.settings.fontSize = size
            return .none
        }
    }
}

typealias ScaleReducer = ScaleReducerOf<[ScaleItem]>

// MARK: Measuring how a cost grows

/// Times one send at each size: the median over repetitions of a loop whose length is chosen
/// so that one repetition takes about 20 ms (at least 8 sends), so large costs stay measurable
/// without taking minutes.
@MainActor
func measureScaled(repetitions: Int = 7, _ body: @MainActor (_ sends: Int) -> Void) -> Timing {
    var sends = 8
    while true {
        let start = DispatchTime.now().uptimeNanoseconds
        body(sends)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        if elapsed >= 20_000_000 || sends >= 1 << 22 { break }
        sends *= elapsed < 2_000_000 ? 8 : 2
    }
    return measure(operations: sends, repetitions: repetitions) { body(sends) }
}

/// The sizes every row is measured at; the first is the baseline of the others.
let scaleSizes = [1_000, 100_000, 1_000_000]

/// One row of the scale table: the figure at each size, each beside the figure at 1,000.
@MainActor
func scaleRow(
    _ name: String,
    bar: Result.Bar,
    note: String = "",
    setUp: @MainActor (_ count: Int) -> @MainActor (_ sends: Int) -> Void
) -> [Result] {
    // Every row's name starts with "scale:": `--filter scale` runs them all, a longer filter one.
    guard selected(name) else { return [] }
    let timings = scaleSizes.map { count in measureScaled(setUp(count)) }
    return zip(scaleSizes, timings).dropFirst().map { count, timing in
        var rowNote = ""
        if count == scaleSizes.last {
            rowNote = "1,000 items: \(timings[0].formatted.trimmingCharacters(in: .whitespaces))"
            if !note.isEmpty { rowNote += "; " + note }
        }
        return Result(
            name: "\(name), \(count.formatted(.number)) items",
            timing: timing,
            baselineName: "the same, 1,000 items",
            baseline: timings[0],
            bar: bar,
            note: rowNote
        )
    }
}

/// A measurement that runs with the list in either collection.
@MainActor
protocol ScaleScenario {
    func setUp<Items: ScaleItems>(_ items: Items.Type, count: Int) -> @MainActor (_ sends: Int) -> Void
}

/// A row measured with the list in `PrismRows` (the bar applies to it), with the same
/// measurement on a plain `Array` printed in its note for comparison.
@MainActor
func scaleRow(_ name: String, bar: Result.Bar, comparing scenario: some ScaleScenario) -> [Result] {
    guard selected("\(name), PrismRows") else { return [] }
    let plain = scaleSizes.map { count in measureScaled(scenario.setUp([ScaleItem].self, count: count)) }
    let growth = plain.last!.nanosecondsPerOperation / plain[0].nanosecondsPerOperation
    let sizes = zip(scaleSizes, plain).map { count, timing in
        "\(count.formatted(.number)): \(timing.formatted.trimmingCharacters(in: .whitespaces))"
    }
    let note = "with an Array instead: \(sizes.joined(separator: ", ")) (\(String(format: "%.0fx", growth)))"
    return scaleRow("\(name), PrismRows", bar: bar, note: note) { count in
        scenario.setUp(PrismRows<ScaleItem>.self, count: count)
    }
}

// MARK: Benchmarks

/// How the cost of one send grows with the size of the state, for each kind of observer.
///
/// Each send toggles one item of `count`; an observer that is notified re-tracks, like a view.
@MainActor
func storeScaleBenchmarks() -> [Result] {
    var results: [Result] = []

    results += scaleRow("scale: nobody observing", bar: .atMostRatio(2)) { count in
        let store = PrismStore(initialState: ScaleState(count: count), reducer: ScaleReducer())
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
        }
    }

    results += scaleRow("scale: nobody observing", bar: .atMostRatio(3), comparing: NobodyObserving())

    results += scaleRow("scale: store.state observed", bar: .atMostRatio(2)) { count in
        let store = PrismStore(initialState: ScaleState(count: count), reducer: ScaleReducer())
        let notifications = Counter()
        @MainActor func track() {
            withObservationTracking {
                blackHole(store.state.items.count)
            } onChange: {
                notifications.value += 1
            }
        }
        return { sends in
            track()
            for index in 0..<sends {
                store.send(.toggle(index % count))
                track()
            }
        }
    }

    results += scaleRow("scale: derive { $0.counter } observed", bar: .atMostRatio(2)) { count in
        let store = PrismStore(initialState: ScaleState(count: count), reducer: ScaleReducer())
        let derived = store.derive { $0.counter }
        let notifications = Counter()
        withObservationTracking {
            blackHole(derived.value)
        } onChange: {
            notifications.value += 1
        }
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
            precondition(notifications.value == 0, "the counter never changes")
            blackHole(derived)
        }
    }

    results += scaleRow("scale: scoped settings store observed", bar: .atMostRatio(2)) { count in
        let store = PrismStore(initialState: ScaleState(count: count), reducer: ScaleReducer())
        let settings = store.scope(state: \.settings, action: ScaleAction.settings)
        let notifications = Counter()
        withObservationTracking {
            blackHole(settings.state)
        } onChange: {
            notifications.value += 1
        }
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
            precondition(notifications.value == 0, "list actions never change the settings")
            blackHole(settings)
        }
    }

    results += scaleRow("scale: store.counter observed", bar: .atMostRatio(2)) { count in
        let store = PrismStore(initialState: ScaleState(count: count), reducer: ScaleReducer())
        let notifications = Counter()
        withObservationTracking {
            blackHole(store.counter)
        } onChange: {
            notifications.value += 1
        }
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
            precondition(notifications.value == 0, "the counter never changes")
        }
    }

    // What keeps a copy of the list: a scoped store of it (the value it compares with), history
    // (its snapshots). With an Array, the next toggle copies the whole list; with PrismRows, the
    // nodes on the way to the toggled row.
    results += scaleRow("scale: scoped list observed", bar: .atMostRatio(2), comparing: ScopedList())
    results += scaleRow("scale: time travel recording", bar: .atMostRatio(3), comparing: TimeTravel())

    results += scaleRow("scale: settings change, time travel", bar: .atMostRatio(2)) { count in
        let debugger = PrismTimeTravelDebugger<ScaleState>(maxSnapshots: 10)
        let store = PrismStore(
            initialState: ScaleState(count: count), reducer: ScaleReducer(), middleware: debugger.middleware())
        return { sends in
            for index in 0..<sends { store.send(.settings(.setFontSize(index))) }
            precondition(debugger.current != nil)
        }
    }

    results += scaleRow("scale: undo stack recording", bar: .atMostRatio(3), comparing: UndoStack())

    // The persist middleware: however it is attached (restoringWith, or as the seed pages show,
    // middleware:), the store tells it how to read the state, which it reads when it saves (at
    // the end of its window): a send only sets a flag, and keeps no copy of the list.
    results += scaleRow("scale: persist (restoringWith:)", bar: .atMostRatio(2)) { count in
        let persist = PrismPersistMiddleware<ScaleState, ScaleAction>(
            strategy: DiscardingPersistence(), key: "scale", coalescingWindow: .seconds(3_600))
        let store = PrismStore(restoringWith: persist, default: ScaleState(count: count), reducer: ScaleReducer())
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
        }
    }

    results += scaleRow("scale: persist (middleware:)", bar: .atMostRatio(2)) { count in
        let persist = PrismPersistMiddleware<ScaleState, ScaleAction>(
            strategy: DiscardingPersistence(), key: "scale", coalescingWindow: .seconds(3_600))
        let store = PrismStore(initialState: ScaleState(count: count), reducer: ScaleReducer(), middleware: persist)
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
        }
    }

    return results
}

/// A send that toggles a row, nobody looking: what PrismRows costs over an Array when nothing
/// keeps a copy (finding the row in the tree instead of at an offset).
struct NobodyObserving: ScaleScenario {
    func setUp<Items: ScaleItems>(_ items: Items.Type, count: Int) -> @MainActor (_ sends: Int) -> Void {
        let store = PrismStore(initialState: ScaleStateOf<Items>(count: count), reducer: ScaleReducerOf<Items>())
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
        }
    }
}

/// A scoped store of the list, observed like a list view: it compares the list before and after
/// each send, and keeps the last one while registered.
struct ScopedList: ScaleScenario {
    func setUp<Items: ScaleItems>(_ items: Items.Type, count: Int) -> @MainActor (_ sends: Int) -> Void {
        let store = PrismStore(initialState: ScaleStateOf<Items>(count: count), reducer: ScaleReducerOf<Items>())
        let items = store.scope(state: \.items, action: { (action: ScaleAction) in action })
        let notifications = Counter()
        @MainActor func track() {
            withObservationTracking {
                blackHole(items.state.count)
            } onChange: {
                notifications.value += 1
            }
        }
        return { sends in
            track()
            let before = notifications.value
            for index in 0..<sends {
                store.send(.toggle(index % count))
                track()
            }
            precondition(notifications.value - before >= sends, "every toggle changes the list")
            blackHole(items)
        }
    }
}

/// The time travel debugger's middleware keeps the last 10 states.
struct TimeTravel: ScaleScenario {
    func setUp<Items: ScaleItems>(_ items: Items.Type, count: Int) -> @MainActor (_ sends: Int) -> Void {
        let debugger = PrismTimeTravelDebugger<ScaleStateOf<Items>>(maxSnapshots: 10)
        let store = PrismStore(
            initialState: ScaleStateOf<Items>(count: count), reducer: ScaleReducerOf<Items>(),
            middleware: debugger.middleware())
        return { sends in
            for index in 0..<sends { store.send(.toggle(index % count)) }
            precondition(debugger.current != nil)
        }
    }
}

/// An undo stack of the last 10 states, pushed before each send.
struct UndoStack: ScaleScenario {
    func setUp<Items: ScaleItems>(_ items: Items.Type, count: Int) -> @MainActor (_ sends: Int) -> Void {
        let undo = PrismUndoRedoStack<ScaleStateOf<Items>>(maxStackSize: 10)
        let store = PrismStore(initialState: ScaleStateOf<Items>(count: count), reducer: ScaleReducerOf<Items>())
        return { sends in
            for index in 0..<sends {
                undo.push(store.state)
                store.send(.toggle(index % count))
            }
            precondition(undo.canUndo)
        }
    }
}

/// A strategy that stores nothing: measures the middleware, not the disk.
struct DiscardingPersistence: PrismPersistenceStrategy {
    func save<State: Codable & Sendable>(_ state: State, key: String) throws {}
    func load<State: Codable & Sendable>(key: String) throws -> State? { nil }
    func clear(key: String) throws {}
}
