/// Every action of the app: one case per feature, plus the history's own.
enum AppAction: Equatable, Sendable {
    /// An action of the task-list feature (what its scoped store sends).
    case tasks(TaskListAction)
    /// An action of the sync feature (what its scoped store sends).
    case sync(SyncAction)
    /// Puts back an earlier task list: undo, redo and time travel send it, so that the change
    /// goes through the reducer and the middleware (and is saved) like any other.
    case restoreTasks(TaskListState, reason: String)

    /// How the action reads in the history, or nil for actions the history does not record
    /// (syncs, which change no task, and the history's own restores).
    var historyLabel: String? {
        if case .tasks(let action) = self { return action.label }
        return nil
    }
}
