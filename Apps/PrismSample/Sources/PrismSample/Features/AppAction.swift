/// Every action of the app: one case per feature, plus the app's own.
enum AppAction: Codable, Equatable, Sendable {
    /// An action of the task-list feature (what its scoped store sends).
    case tasks(TaskListAction)
    /// An action of the sync feature (what its scoped store sends).
    case sync(SyncAction)
    /// An action of the settings feature (what its scoped store sends).
    case settings(SettingsAction)
    /// An action of the open task detail.
    case detail(TaskDetailAction)
    /// Opens the detail of the task with this id (its screen came to the front).
    case openDetail(taskID: Int)
    /// Closes the detail (its screen left the front).
    case closeDetail
    /// Puts back an earlier task list: undo, redo and time travel send it, so that the change
    /// goes through the reducer and the middleware (and is saved) like any other.
    case restoreTasks(TaskListState, reason: String)

    /// The task-list action, when this is one (for the history's labels; the features need no
    /// such property: a case is all `PrismScope` and `ifLet` need).
    var tasks: TaskListAction? {
        if case .tasks(let action) = self { action } else { nil }
    }

    /// How the action reads in the history, or nil for actions the history does not record
    /// (syncs and the detail, which change no task, and the history's own restores).
    var historyLabel: String? {
        tasks?.label
    }
}
