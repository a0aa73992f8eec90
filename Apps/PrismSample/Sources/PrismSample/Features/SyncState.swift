/// The state of the sync feature: how the last sync went.
struct SyncState: Codable, Equatable, Sendable {
    /// Where a sync stands.
    enum Status: Codable, Equatable, Sendable {
        /// No sync has run yet.
        case neverSynced
        /// A sync is under way.
        case syncing
        /// The last sync succeeded.
        case synced
        /// The last sync failed, and why.
        case failed(String)
    }

    /// Where the last sync stands.
    var status = Status.neverSynced
    /// What the last successful sync did.
    var lastSuccess: SyncReport?

    /// One line for people: `synced with http://127.0.0.1:8080, revision 3 (uploaded 2 tasks)`.
    var summary: String {
        switch status {
        case .neverSynced: return "Never synced."
        case .syncing: return "Syncing..."
        case .synced: return lastSuccess.map { "Synced: \($0.summary)" } ?? "Synced."
        case .failed(let reason): return "The last sync failed: \(reason)"
        }
    }
}
