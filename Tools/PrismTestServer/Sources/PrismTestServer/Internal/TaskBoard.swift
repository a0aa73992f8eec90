/// The task list that the `/tasks` routes serve (the sample app's sync demo), kept in
/// ``ServerState`` so that ``PrismTestServer/reset()`` clears it.
///
/// Every change of the list bumps ``revision``; the list's entity tag is `"tasks-v<revision>"`.
/// ``failuresLeft`` requests to `/tasks` will still fail (armed by `POST /tasks/fail-next`).
struct TaskBoard: Sendable {
    /// One task as the server stores it.
    struct Item: Sendable, Equatable {
        var id: Int
        var title: String
        var done: Bool
    }

    /// 0 for the empty list nobody has written yet; + 1 for every change.
    var revision = 0
    /// The tasks, in the order they were written.
    var items: [Item] = []
    /// How many of the next requests to `/tasks` fail.
    var failuresLeft = 0
    /// How many failures the last `POST /tasks/fail-next` armed (for the failure messages).
    var failuresArmed = 0
    /// The status the armed failures answer.
    var failureStatus = 503
    /// The `Retry-After` the armed failures send, in seconds, if any.
    var failureRetryAfter: Int?

    /// The entity tag of the current revision: `"tasks-v<revision>"`, quotes included.
    var etag: String { "\"tasks-v\(revision)\"" }

    /// Replaces the list; bumps the revision only when something changed.
    mutating func replace(with items: [Item]) {
        guard items != self.items else { return }
        self.items = items
        revision += 1
    }

    /// Appends a task with the next free id and returns it.
    mutating func add(title: String, done: Bool) -> Item {
        let item = Item(id: (items.map(\.id).max() ?? 0) + 1, title: title, done: done)
        items.append(item)
        revision += 1
        return item
    }

    /// Takes one armed failure: its number (1 for the first) and status, or nil when none is left.
    mutating func takeFailure() -> (number: Int, of: Int, status: Int, retryAfter: Int?)? {
        guard failuresLeft > 0 else { return nil }
        failuresLeft -= 1
        return (failuresArmed - failuresLeft, failuresArmed, failureStatus, failureRetryAfter)
    }
}
