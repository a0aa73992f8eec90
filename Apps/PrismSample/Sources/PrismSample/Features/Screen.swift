import Prism

/// The screens of the app, as routes for `PrismRouter`. The task list is the root screen: it
/// is what shows when nothing is pushed or presented.
enum Screen: PrismRoutable, Codable {
    /// One task's details, pushed over the list.
    case task(id: Int)
    /// The session's history (time travel), pushed.
    case history
    /// The sync status, pushed.
    case sync
    /// Where things are kept, presented as a sheet.
    case settings

    /// The screen's name as the user types it after `go`.
    var name: String {
        switch self {
        case .task(let id): return "task \(id)"
        case .history: return "history"
        case .sync: return "sync"
        case .settings: return "settings"
        }
    }
}
