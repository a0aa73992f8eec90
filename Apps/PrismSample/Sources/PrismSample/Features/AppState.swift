import Prism

/// The whole app's state: one part per feature. This is what the store holds and what
/// `PrismPersistMiddleware` saves to `tasks.json`: all but the open detail, which lives only
/// while its screen is open. The settings are shared values, which save themselves in files of
/// their own (`preferences.json`, `user.json`); `tasks.json` names them by key, and a state
/// decoded from it holds the values of those files (``TaskSession`` makes them first).
struct AppState: PrismState, Codable {
    /// The task-list feature's part.
    var tasks = TaskListState()
    /// The sync feature's part.
    var sync = SyncState()
    /// The detail of the task whose screen is open, or nil: an optional child feature.
    var detail: TaskDetailState?
    /// The settings feature's part: shared values (see ``SettingsState``).
    var settings = SettingsState()

    private enum CodingKeys: String, CodingKey {
        case tasks, sync, settings
    }
}
