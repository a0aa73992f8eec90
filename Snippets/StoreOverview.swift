// PrismStore at a glance: a store with middleware, a feature made of features, a secret in the
// state, and an undo that a persisting middleware saves. It compiles with the package.
// snippet.hide
import Foundation
import Prism

struct CounterState: Equatable, Sendable {
    var count = 0
}

enum CounterAction: Equatable, Sendable {
    case increment
}

struct CounterReducer: PrismReducer {
    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        state.count += 1
        return .none
    }
}

struct AnalyticsMiddleware: PrismMiddleware {
    func run(state: CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        print("analytics: \(action) -> \(state.count)")
        return .none
    }
}

// snippet.show
// snippet.store
let store = PrismStore(
    initialState: CounterState(),
    reducer: CounterReducer(),
    middleware: AnalyticsMiddleware()
)
store.send(.increment)
// snippet.end

// snippet.hide
struct Settings: Equatable, Sendable {
    var darkMode = false
}

enum SettingsAction: Equatable, Sendable {
    case toggleDarkMode
}

struct SettingsFeature: PrismReducer {
    func reduce(into state: inout Settings, action: SettingsAction) -> PrismEffect<SettingsAction> {
        state.darkMode.toggle()
        return .none
    }
}

struct Row: Equatable, Sendable, Identifiable {
    var id: Int
    var done = false
}

enum RowAction: Equatable, Sendable {
    case toggle
}

struct RowFeature: PrismReducer {
    func reduce(into state: inout Row, action: RowAction) -> PrismEffect<RowAction> {
        state.done.toggle()
        return .none
    }
}

struct Detail: Equatable, Sendable {
    var title = ""
}

enum DetailAction: Equatable, Sendable {
    case rename(String)
}

struct DetailFeature: PrismReducer {
    func reduce(into state: inout Detail, action: DetailAction) -> PrismEffect<DetailAction> {
        if case .rename(let title) = action { state.title = title }
        return .none
    }
}

struct ListState: Equatable, Sendable {
    var settings = Settings()
    var rows: IdentifiedArrayOf<Row> = []
    var detail: Detail?
}

enum ListAction: Equatable, Sendable {
    case settings(SettingsAction)
    case row(id: Row.ID, action: RowAction)
    case detail(DetailAction)
    case showDetail
}

struct ListCoreReducer: PrismReducer {
    func reduce(into state: inout ListState, action: ListAction) -> PrismEffect<ListAction> {
        if case .showDetail = action { state.detail = Detail() }
        return .none
    }
}

// snippet.show
// snippet.features
struct ListFeature: PrismFeature {
    typealias State = ListState
    typealias Action = ListAction

    var body: some PrismReducer<ListState, ListAction> {
        PrismScope(state: \.settings, action: ListAction.settings) {
            SettingsFeature()
        }
        ListCoreReducer()
            .ifLet(\.detail, action: ListAction.detail) {
                DetailFeature()
            }
            .forEach(\.rows, action: ListAction.row) {
                RowFeature()
            }
    }
}
// snippet.end

// snippet.secret
struct SessionState: Sendable, Equatable, Codable {
    var user = "ada"
    @PrismSecret var token = ""
}
// snippet.end

// snippet.hide
struct Document: Codable, Equatable, Sendable {
    var paragraphs = ["Title", "One", "Two", "Three", "Four"]
}

enum DocumentAction: Sendable {
    case delete(paragraph: Int)
}

struct DocumentReducer: PrismReducer {
    func reduce(into state: inout Document, action: DocumentAction) -> PrismEffect<DocumentAction> {
        switch action {
        case .delete(let paragraph) where state.paragraphs.indices.contains(paragraph):
            state.paragraphs.remove(at: paragraph)
        case .delete:
            break
        }
        return .none
    }
}

@MainActor
func persistedUndo() async throws {
    // snippet.show
    // snippet.persisted-undo
    let persist = PrismPersistMiddleware<Document, DocumentAction>(strategy: PrismDiskPersistence(), key: "document")
    let store = PrismStore(
        initialState: persist.restore(default: Document()),
        reducer: DocumentReducer(),
        middleware: persist
    )
    let history = PrismUndoRedoStack<Document>(currentState: { store.state })

    history.push(store.state)
    store.send(.delete(paragraph: 3))
    if let previous = history.undo() { store.replaceState(with: previous) }  // saved, as after an action
    try await persist.flush()
    // snippet.end
    // snippet.hide
}
