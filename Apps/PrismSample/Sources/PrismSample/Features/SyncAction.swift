/// What happens in the sync feature: the user asks for a sync, and the effect reports back.
enum SyncAction: Codable, Equatable, Sendable {
    /// Syncs these tasks (the app passes its current list) with the server.
    case start(tasks: [TaskItem])
    /// The effect's report: the sync succeeded.
    case finished(SyncReport)
    /// The effect's report: the sync failed, and why, in a sentence.
    case failed(String)
}
