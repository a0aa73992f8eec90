import Prism

/// What can happen to one task: the actions of the task-row feature.
enum TaskItemAction: Codable, Equatable, Sendable {
    /// Marks the task done.
    case complete
    /// Marks the task not done again.
    case reopen
}

/// One task as a feature of its own. ``TaskListFeature`` runs it for the task an action names
/// with `forEach`, so that the list never looks a task up by hand, and a row view would get a
/// store of its own with `store.scope(state: \.items, id: id, action: TaskListAction.item)`.
struct TaskItemFeature: PrismReducer {
    func reduce(into state: inout TaskItem, action: TaskItemAction) -> PrismEffect<TaskItemAction> {
        switch action {
        case .complete:
            state.isDone = true
        case .reopen:
            state.isDone = false
        }
        return .none
    }
}
