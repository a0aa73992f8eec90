/// A task as the demo server's `/tasks` routes spell it: `{"id", "title", "done"}`.
struct RemoteTask: Codable, Equatable, Sendable {
    /// The task's number.
    var id: Int
    /// What there is to do.
    var title: String
    /// Whether it is done.
    var done: Bool

    /// A task with these values.
    init(id: Int, title: String, done: Bool) {
        self.id = id
        self.title = title
        self.done = done
    }

    /// The server's spelling of a local task.
    init(_ item: TaskItem) {
        self.id = item.id
        self.title = item.title
        self.done = item.isDone
    }
}
