import Foundation
import Prism

extension Tour {
    func showUndoRedo() throws {
        heading("Undo and redo (PrismUndoRedoStack)")
        let removed = try session.remove(id: 3)
        code("remove #\(removed.id) (\(removed.title))", taskCountLine)
        code("undo", "undid \(try session.undo()): \(taskCountLine)")
        code("redo", "redid \(try session.redo()): \(taskCountLine)")
        code("undo", "undid \(try session.undo()): \(taskCountLine)")
        note("Undo and redo send .restoreTasks(...) to the store, so the change is reduced and saved.")
    }

    func showTimeTravel() throws {
        heading("Time travel over the session (PrismTimeTravelDebugger)")
        note("Every change of the task list is a snapshot:")
        Console.lines(Render.history(session.history.debugger).map { "  " + $0 })
        let latest = session.history.debugger.currentIndex ?? 0
        let first = try session.travel(to: 1)
        code("travel(to: 1)", "the list after \(first.action): \(taskCountLine)")
        Console.lines(Render.taskList(of: session).map { "    " + $0 })
        try session.travel(to: latest)
        code("travel(to: \(latest))", "back to the present: \(taskCountLine)")
    }

    func finish(keepFiles: Bool) async throws {
        heading("Done")
        try await session.close()
        note("Saved the session (session.close(): the middleware's last write, and history.json).")
        if token != nil {
            try? vault.forget()
            note("Removed the tour's token from the keychain.")
        }
        if keepFiles {
            note("The tour's files are in \(directory.path):")
            // Hidden files are the locks PrismDiskPersistence takes for each key.
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
                !$0.hasPrefix(".")
            }
            note("  " + names.sorted().joined(separator: ", "))
        } else {
            try? FileManager.default.removeItem(at: directory)
            note("Removed the tour's folder (pass --keep-files to keep it).")
        }
        note("Next: prism-sample --help, prism-sample interactive, prism-sample serve.")
    }

    private var taskCountLine: String {
        let tasks = session.tasks.state
        return "\(Self.count(tasks.items.count, "task")), \(tasks.remainingCount) left"
    }
}
