// PrismPersistence at a glance: a strategy on its own, the persisting middleware, restoring at
// launch, and saving the last changes when a command-line tool exits. It compiles with the
// package; run, it saves to and restores from the user's data folder.
// snippet.hide
import Foundation
import Prism

struct AppState: Codable, Sendable, Equatable {
    var items: [String] = []
}

enum AppAction: Sendable {
    case add(String)
}

struct AppReducer: PrismReducer {
    func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
        switch action {
        case .add(let item): state.items.append(item)
        }
        return .none
    }
}

func strategy(appState: AppState) throws {
    // snippet.show
    // snippet.strategy
    let persistence = PrismDiskPersistence()

    try persistence.save(appState, key: "app_state")
    let loaded: AppState? = try persistence.load(key: "app_state")
    try persistence.clear(key: "app_state")
    // snippet.end
    // snippet.hide
    _ = loaded
}

@MainActor
func middleware() -> PrismStore<AppState, AppAction> {
    // snippet.show
    // snippet.middleware
    let store = PrismStore(
        initialState: AppState(),
        reducer: AppReducer(),
        middleware: PrismPersistMiddleware(
            strategy: PrismDiskPersistence(),
            key: "app_state"
        )
    )
    // snippet.end
    // snippet.hide
    return store
}

@MainActor
func restoring() async -> PrismStore<AppState, AppAction> {
    // snippet.show
    // snippet.restoring
    let store = await PrismStore(
        restoringOffMainActorWith: PrismPersistMiddleware(strategy: PrismDiskPersistence(), key: "app_state"),
        default: AppState(),
        reducer: AppReducer()
    )
    // snippet.end
    // snippet.hide
    return store
}

func exiting() {
    // snippet.show
    // snippet.exit
    let persistence = PrismPersistMiddleware<AppState, AppAction>(strategy: PrismDiskPersistence(), key: "app_state")
    persistence.flushOnExit()
    // snippet.end
    // snippet.hide
}
