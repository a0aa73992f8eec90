import Prism

/// The app: each feature runs on its part of the state, and the app's own reducer does what
/// belongs to no feature.
///
/// This is how features compose, with nothing written by hand: `PrismScope` runs
/// ``TaskListFeature`` on `state.tasks` for `.tasks` actions and ``SyncReducer`` on `state.sync`,
/// their effects mapped back into `AppAction`s; `ifLet` runs ``TaskDetailFeature`` while a
/// detail is open and ends its timer when it closes. The same parts give each feature a store
/// of its own types with `store.scope(state:action:)` (see ``TaskSession``).
struct AppFeature: PrismFeature {
    typealias State = AppState
    typealias Action = AppAction

    /// The sync feature.
    let sync: SyncReducer
    /// How often an open detail's timer ticks.
    let detailInterval: Duration

    var body: some PrismReducer<AppState, AppAction> {
        PrismScope(state: \.tasks, action: AppAction.tasks) {
            TaskListFeature()
        }
        PrismScope(state: \.sync, action: AppAction.sync) {
            sync
        }
        PrismScope(state: \.settings, action: AppAction.settings) {
            SettingsFeature()
        }
        PrismReduce<AppState, AppAction> { state, action in
            switch action {
            case .openDetail(let id):
                state.detail = TaskDetailState(id: id)
                return .send(.detail(.opened))
            case .closeDetail:
                state.detail = nil
            case .restoreTasks(let restored, _):
                state.tasks = restored
            case .tasks, .sync, .settings, .detail:
                break
            }
            if let open = state.detail?.id, state.tasks.item(id: open) == nil {
                // The task went away (removed, undone): so does its detail.
                state.detail = nil
            }
            return .none
        }
        .ifLet(\.detail, action: AppAction.detail) {
            TaskDetailFeature(interval: detailInterval)
        }
    }
}
