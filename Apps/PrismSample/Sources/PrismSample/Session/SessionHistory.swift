import Prism

/// Undo/redo and time travel over the session's task lists.
///
/// Two tools of PrismStore work side by side, kept in step:
/// - a `PrismTimeTravelDebugger` records a snapshot of the task list after every change, and
///   moves back and forth through them (`history`, `travel <n>`);
/// - a `PrismUndoRedoStack` holds the lists to go back to (`undo`) and forward to (`redo`).
///
/// Both are fed by ``middleware()``, attached to the store: after each action that changed the
/// task list, the list before it is pushed on the undo stack and the list after it recorded as a
/// snapshot. Undo, redo and time travel then hand a list back; the session sends it to the store
/// as `.restoreTasks`, so that it is reduced and saved like any other change.
///
/// The snapshots are saved between runs (``timeline``, in `history.json`); each run rebuilds
/// both tools from them.
@MainActor
final class SessionHistory {
    /// How many snapshots are kept; older ones are forgotten.
    static let capacity = 100

    /// The snapshots of the task list, one per change.
    let debugger = PrismTimeTravelDebugger<TaskListState>(maxSnapshots: SessionHistory.capacity)
    /// The task lists to undo to and redo to. Rebuilt when the session time-travels.
    private(set) var undoRedo = PrismUndoRedoStack<TaskListState>(maxStackSize: SessionHistory.capacity - 1)

    /// Rebuilds the history from a saved timeline.
    init(timeline: SavedTimeline) {
        for entry in timeline.entries {
            debugger.record(state: entry.tasks, action: entry.label)
        }
        if let first = debugger.snapshots.first {
            debugger.goTo(index: first.index + timeline.position)
        }
        rebuildUndoStack()
    }

    /// The timeline to save: every snapshot and the current position.
    var timeline: SavedTimeline {
        let snapshots = debugger.snapshots
        var timeline = SavedTimeline(startingAt: snapshots.first?.state ?? TaskListState())
        timeline.entries = snapshots.map { SavedTimeline.Entry(label: $0.action, tasks: $0.state) }
        timeline.position = (debugger.currentIndex ?? 0) - (snapshots.first?.index ?? 0)
        return timeline
    }

    /// The task list the history is at.
    var current: TaskListState {
        debugger.current?.state ?? TaskListState()
    }

    /// Middleware that records every change of the task list made by a user action.
    func middleware() -> PrismSideEffect<AppState, AppAction> {
        PrismSideEffect { [weak self] state, action in
            guard let self, let label = action.historyLabel, state.tasks != current else { return .none }
            undoRedo.push(current)
            debugger.record(state: state.tasks, action: label)
            return .none
        }
    }

    /// The list before the last change, and the label of the change it undoes; nil when there
    /// is nothing to undo.
    func undo() -> (tasks: TaskListState, undid: String)? {
        guard let undone = debugger.current, let previous = undoRedo.undo(current: undone.state) else { return nil }
        debugger.goBack()
        return (previous, undone.action)
    }

    /// The list after the change undone last, and that change's label; nil when there is
    /// nothing to redo.
    func redo() -> (tasks: TaskListState, redid: String)? {
        guard let next = undoRedo.redo(current: current) else { return nil }
        debugger.goForward()
        return (next, debugger.current?.action ?? "")
    }

    /// Moves to the snapshot numbered `index` and returns it; nil when there is no such one.
    ///
    /// The undo stack is rebuilt to match: undo then goes back from the snapshot traveled to.
    func travel(to index: Int) -> PrismTimeTravelDebugger<TaskListState>.Snapshot? {
        guard let snapshot = debugger.goTo(index: index) else { return nil }
        rebuildUndoStack()
        return snapshot
    }

    /// Makes the undo stack match the snapshots: the ones before the current snapshot can be
    /// undone to, the ones after it redone to.
    private func rebuildUndoStack() {
        let snapshots = debugger.snapshots
        let position = (debugger.currentIndex ?? 0) - (snapshots.first?.index ?? 0)
        undoRedo = PrismUndoRedoStack(maxStackSize: Self.capacity - 1)
        // Push every snapshot but the last, as if each change were made again; then undo back
        // to the current one, which leaves the later ones on the redo stack.
        for snapshot in snapshots.dropLast() { undoRedo.push(snapshot.state) }
        var state = snapshots.last?.state ?? TaskListState()
        for _ in position..<max(snapshots.count - 1, position) {
            state = undoRedo.undo(current: state) ?? state
        }
    }
}
