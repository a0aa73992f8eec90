import Prism

/// The task-list feature: adding and removing tasks, and each task's own feature.
///
/// It knows nothing of the app around it: the app runs it on its `tasks` part (see
/// ``AppFeature``) and hands views a store scoped to that part. Its body lists what it is made
/// of: its own reducer for the list, and ``TaskItemFeature`` for each task, by id (`forEach`).
/// An action for a task that is not there (an id typed wrong) changes nothing; the commands
/// check ids first so that they can say so.
struct TaskListFeature: PrismFeature {
    typealias State = TaskListState
    typealias Action = TaskListAction

    var body: some PrismReducer<TaskListState, TaskListAction> {
        PrismReduce<TaskListState, TaskListAction> { state, action in
            switch action {
            case .add(let title):
                state.items.append(TaskItem(id: state.nextID, title: title))
                state.nextID += 1
            case .remove(let id):
                state.items.remove(id: id)
            case .item:
                break
            }
            return .none
        }
        .forEach(\.items, action: TaskListAction.item) {
            TaskItemFeature()
        }
    }
}
