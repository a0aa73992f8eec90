import Prism

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
    /// Who the last successful sync ran for, if someone was signed in.
    var syncedAs: String?
    /// Who is signed in: the settings feature's value, shared (see ``SettingsState``).
    @PrismShared(.signedInUser) var user: SignedInUser? = nil

    private enum CodingKeys: String, CodingKey {
        case status, lastSuccess, syncedAs
    }

    /// One line for people: `synced with http://127.0.0.1:8080, revision 3 (uploaded 2 tasks)`.
    var summary: String {
        switch status {
        case .neverSynced: return "Never synced."
        case .syncing: return "Syncing..."
        case .synced:
            let who = syncedAs.map { " (as \($0))" } ?? ""
            return lastSuccess.map { "Synced\(who): \($0.summary)" } ?? "Synced\(who)."
        case .failed(let reason): return "The last sync failed: \(reason)"
        }
    }
}
