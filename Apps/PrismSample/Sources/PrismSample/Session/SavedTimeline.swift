/// The session's history as saved in `history.json`: every task list the session went through,
/// with the action that led to it, and which one is current.
///
/// It is what lets `prism-sample undo` undo what an earlier run did: each run rebuilds its
/// time-travel debugger and undo stack from it (see ``SessionHistory``).
struct SavedTimeline: Codable, Equatable, Sendable {
    /// One moment of the session.
    struct Entry: Codable, Equatable, Sendable {
        /// The action that led here (`add "Buy milk"`), or `start`.
        var label: String
        /// The task list after it.
        var tasks: TaskListState
    }

    /// The moments, oldest first; never empty.
    var entries: [Entry]
    /// The position of the current moment in ``entries``.
    var position: Int

    /// A timeline with one moment, `tasks`, reached by `label`.
    init(startingAt tasks: TaskListState, label: String = "start") {
        entries = [Entry(label: label, tasks: tasks)]
        position = 0
    }

    /// Whether the timeline is well formed and its current moment is `tasks`.
    func isCurrent(_ tasks: TaskListState) -> Bool {
        entries.indices.contains(position) && entries[position].tasks == tasks
    }
}
