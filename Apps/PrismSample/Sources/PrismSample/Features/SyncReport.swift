/// What a sync did: the server's revision afterwards, and whether the local list had to be
/// uploaded (it is not when the server already has the same tasks).
struct SyncReport: Codable, Equatable, Sendable {
    /// The server synced with.
    var serverURL: String
    /// The revision of the server's list after the sync.
    var revision: Int
    /// Whether the local list was uploaded (`PUT /tasks`).
    var uploaded: Bool
    /// How many tasks the server holds now.
    var taskCount: Int

    /// `http://127.0.0.1:8080 has revision 3 (uploaded 2 tasks)`.
    var summary: String {
        let what = uploaded ? "uploaded \(taskCount) task(s)" : "already up to date, nothing uploaded"
        return "\(serverURL) has revision \(revision) (\(what))"
    }
}
