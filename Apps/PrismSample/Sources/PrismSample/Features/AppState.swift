import Prism

/// The whole app's state: one part per feature. This is what the store holds and what
/// `PrismPersistMiddleware` saves to `tasks.json`.
struct AppState: PrismState, Codable {
    /// The task-list feature's part.
    var tasks = TaskListState()
    /// The sync feature's part.
    var sync = SyncState()
}
