/// What the user can do to the task list.
enum TaskListAction: Codable, Equatable, Sendable {
    /// Adds a task with this title at the end of the list.
    case add(title: String)
    /// An action of the task with this id (its row feature's).
    case item(id: Int, action: TaskItemAction)
    /// Removes the task with this id.
    case remove(id: Int)

    /// How the action reads in the history (`add "Buy milk"`).
    var label: String {
        switch self {
        case .add(let title): return "add \"\(title)\""
        case .item(let id, .complete): return "done #\(id)"
        case .item(let id, .reopen): return "reopen #\(id)"
        case .remove(let id): return "remove #\(id)"
        }
    }
}
