/// One task of the list: what the user typed, and whether it is done.
struct TaskItem: Codable, Equatable, Identifiable, Sendable {
    /// The number the user types to refer to the task (`prism-sample done 2`); never reused.
    var id: Int
    /// What there is to do.
    var title: String
    /// Whether it is done.
    var isDone = false
}
