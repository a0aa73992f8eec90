import Prism

/// The task-list feature's business logic. It knows nothing of the app around it: the app runs
/// it on its `tasks` part (see ``AppReducer``) and hands views a store scoped to that part.
///
/// Every action is synchronous, so it returns `.none`. An id that names no task changes
/// nothing; the commands check ids first so that they can say so.
struct TaskListReducer: PrismReducer {
    func reduce(into state: inout TaskListState, action: TaskListAction) -> PrismEffect<TaskListAction> {
        switch action {
        case .add(let title):
            state.items.append(TaskItem(id: state.nextID, title: title))
            state.nextID += 1
        case .complete(let id):
            if let index = state.items.firstIndex(where: { $0.id == id }) { state.items[index].isDone = true }
        case .remove(let id):
            state.items.removeAll { $0.id == id }
        }
        return .none
    }
}
