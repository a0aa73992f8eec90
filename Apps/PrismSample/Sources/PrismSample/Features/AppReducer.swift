import Prism

/// The app's reducer: it runs each feature's reducer on that feature's part of the state.
///
/// This is how features compose: `TaskListReducer` sees only a `TaskListState` and
/// `TaskListAction`s; its effects are mapped back into `AppAction`s with `map`. The same split
/// gives each feature a store of its own types with `store.scope(state:action:)` (see
/// ``TaskSession``).
struct AppReducer: PrismReducer {
    /// The task-list feature.
    let tasks = TaskListReducer()
    /// The sync feature.
    let sync: SyncReducer

    func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
        switch action {
        case .tasks(let action):
            return tasks.reduce(into: &state.tasks, action: action).map(AppAction.tasks)
        case .sync(let action):
            return sync.reduce(into: &state.sync, action: action).map(AppAction.sync)
        case .restoreTasks(let restored, _):
            state.tasks = restored
            return .none
        }
    }
}
