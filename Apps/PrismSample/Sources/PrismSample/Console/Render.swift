import Foundation
import Prism

/// How the app's state reads on a terminal.
@MainActor
enum Render {
    /// `  #2 [x] Buy milk`, in the theme's colours.
    static func task(_ item: TaskItem, theme: Theme = .plain) -> String {
        let line = "  #\(item.id) [\(item.isDone ? "x" : " ")] \(item.title)"
        switch theme {
        case .plain: return line
        case .color: return (item.isDone ? "\u{1B}[32m" : "\u{1B}[1m") + line + "\u{1B}[0m"
        }
    }

    /// The session's tasks in the order and theme of its preferences (shared values the
    /// settings feature changes), one a line, and how many are left.
    static func taskList(of session: TaskSession) -> [String] {
        let state = session.tasks.state
        guard !state.items.isEmpty else { return ["  No tasks yet. Add one with: add Buy milk"] }
        let theme = session.settings.state.preferences.theme
        return session.sortedTasks.map { task($0, theme: theme) }
            + ["  \(state.remainingCount) of \(state.items.count) left"]
    }

    /// The settings: the shared values and where each is saved.
    static func settings(of session: TaskSession) -> [String] {
        let state = session.settings.state
        return [
            "  Theme:        \(state.preferences.theme.rawValue)   (preferences.json, a shared value)",
            "  Sort order:   \(state.preferences.sortOrder.rawValue)",
            "  Signed in:    \(state.user?.name ?? "nobody")   (user.json, a shared value the sync feature holds too)",
        ]
    }

    /// The history, one snapshot a line, the current one marked.
    static func history(_ debugger: PrismTimeTravelDebugger<TaskListState>) -> [String] {
        let current = debugger.currentIndex
        let width = debugger.snapshots.map(\.action.count).max() ?? 0
        return debugger.snapshots.map { snapshot in
            let marker = snapshot.index == current ? "->" : "  "
            let label = snapshot.action.padding(toLength: width, withPad: " ", startingAt: 0)
            let tasks = snapshot.state
            let count = "\(tasks.items.count) task\(tasks.items.count == 1 ? "" : "s")"
            return "  \(marker) \(snapshot.index)  \(label)  (\(count), \(tasks.remainingCount) left)"
        }
    }

    /// The screen the session's router shows, with the path that leads to it.
    static func screen(of session: TaskSession) -> [String] {
        let router = session.router
        let path = (["tasks"] + router.stack.map(\.name) + (router.sheet.map { ["(sheet) " + $0.name] } ?? []))
        var lines = ["[" + path.joined(separator: " > ") + "]"]
        switch router.frontmostRoute {
        case nil:
            lines += taskList(of: session)
        case .task(let id):
            if let item = session.tasks.state.item(id: id) {
                lines += ["  Task #\(item.id): \(item.title)", "  " + (item.isDone ? "Done." : "Not done yet.")]
                if let detail = session.store.state.detail, detail.id == id {
                    lines += ["  Open for \(detail.ticks) tick(s) of its timer."]
                }
            } else {
                lines += ["  Task #\(id) no longer exists (undo brings it back)."]
            }
        case .history:
            lines += history(session.history.debugger)
            lines += [
                "  undo: \(session.history.undoRedo.undoCount) step(s), redo: \(session.history.undoRedo.redoCount)"
            ]
        case .sync:
            lines += ["  " + session.sync.state.summary]
        case .settings:
            lines += settings(of: session)
            lines += [
                "  Data folder:  \(session.directory.path)",
                "  Task list:    \(session.stateFile.lastPathComponent) (PrismDiskPersistence, PrismPersistMiddleware)",
                "  History:      \(session.historyFile.lastPathComponent) (PrismDiskPersistence)",
                "  Sync token:   the keychain (PrismKeychainPersistence, service prism-sample)",
            ]
        }
        return lines
    }
}
