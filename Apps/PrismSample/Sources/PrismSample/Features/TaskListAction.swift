/// What the user can do to the task list.
enum TaskListAction: Codable, Equatable, Sendable {
    /// Adds a task with this title at the end of the list.
    case add(title: String)
    /// Marks the task with this id done.
    case complete(id: Int)
    /// Removes the task with this id.
    case remove(id: Int)

    /// How the action reads in the history (`add "Buy milk"`).
    var label: String {
        switch self {
        case .add(let title): return "add \"\(title)\""
        case .complete(let id): return "done #\(id)"
        case .remove(let id): return "remove #\(id)"
        }
    }
}
