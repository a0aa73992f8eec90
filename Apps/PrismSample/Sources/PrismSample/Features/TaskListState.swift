import Prism

/// The state of the task-list feature: the tasks, and the id the next one gets.
struct TaskListState: Codable, Equatable, Sendable {
    /// The tasks, oldest first, each found by its id (saved as a JSON array). `PrismRows`, so
    /// that the session's history (time travel, undo) shares the list instead of copying it.
    var items: PrismRows<TaskItem> = []
    /// The id of the next task added. Ids are never reused, even after an undo.
    var nextID = 1

    /// The task with `id`, if there is one.
    func item(id: Int) -> TaskItem? {
        items[id: id]
    }

    /// How many tasks are not done yet.
    var remainingCount: Int {
        items.count { !$0.isDone }
    }
}
