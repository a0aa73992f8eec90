/// A classic undo/redo history of states.
///
/// Push the current state before a change you want to be able to undo:
///
/// ```swift
/// let undoRedo = PrismUndoRedoStack<AppState>(maxStackSize: 50)
///
/// // Before mutating state, push the current state
/// undoRedo.push(store.state)
/// store.send(.deleteItem(at: index))
///
/// // Undo
/// if undoRedo.canUndo, let previous = undoRedo.undo(current: store.state) {
///     store.replaceState(with: previous)
/// }
///
/// // Redo
/// if undoRedo.canRedo, let next = undoRedo.redo(current: store.state) {
///     store.replaceState(with: next)
/// }
/// ```
///
/// Undoing moves the state you undo *from* onto the redo stack, so redo needs it: pass it as
/// `current:`, or give the stack a ``init(maxStackSize:currentState:)`` source once and call
/// ``undo()`` and ``redo()`` bare. Pushing clears the redo stack, like every editor. Both stacks
/// hold at most `maxStackSize` states; the oldest is dropped first.
@MainActor
public final class PrismUndoRedoStack<State> {
    /// The most states each stack keeps.
    public let maxStackSize: Int

    private var undoStack: [State] = []
    private var redoStack: [State] = []
    private let currentState: (@MainActor () -> State)?

    /// Creates an empty history that keeps at most `maxStackSize` states to undo (and to redo).
    ///
    /// - Parameters:
    ///   - maxStackSize: The most states each stack keeps; at least 1.
    ///   - currentState: Where ``undo()`` and ``redo()`` read the state being left, typically
    ///     `{ store.state }`. Without it, bare ``undo()`` cannot offer a redo.
    public init(maxStackSize: Int = 50, currentState: (@MainActor () -> State)? = nil) {
        precondition(maxStackSize >= 1, "PrismUndoRedoStack needs room for at least one state (maxStackSize >= 1).")
        self.maxStackSize = maxStackSize
        self.currentState = currentState
    }

    /// Whether there is a state to go back to.
    public var canUndo: Bool { !undoStack.isEmpty }

    /// Whether there is an undone state to go forward to.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// How many states can be undone.
    public var undoCount: Int { undoStack.count }

    /// How many states can be redone.
    public var redoCount: Int { redoStack.count }

    /// Records `state` as the state to return to on the next undo, and clears the redo stack.
    public func push(_ state: State) {
        undoStack.append(state)
        if undoStack.count > maxStackSize { undoStack.removeFirst(undoStack.count - maxStackSize) }
        redoStack.removeAll()
    }

    /// Returns the state to go back to, or nil when there is none; `current` (the state being
    /// left) becomes the next redo.
    public func undo(current: State) -> State? {
        guard let previous = undoStack.popLast() else { return nil }
        redoStack.append(current)
        if redoStack.count > maxStackSize { redoStack.removeFirst(redoStack.count - maxStackSize) }
        return previous
    }

    /// Returns the state that was undone last, or nil when there is none; `current` becomes
    /// the next undo.
    public func redo(current: State) -> State? {
        guard let next = redoStack.popLast() else { return nil }
        undoStack.append(current)
        if undoStack.count > maxStackSize { undoStack.removeFirst(undoStack.count - maxStackSize) }
        return next
    }

    /// ``undo(current:)`` with the state read from the `currentState` source given at init.
    ///
    /// Without a source, the state being left is unknown: the previous state is still returned,
    /// but no redo is recorded (``canRedo`` stays false).
    public func undo() -> State? {
        if let currentState { return undo(current: currentState()) }
        return undoStack.popLast()
    }

    /// ``redo(current:)`` with the state read from the `currentState` source given at init.
    ///
    /// Returns nil when the stack has no source (nothing can have been recorded to redo).
    public func redo() -> State? {
        guard let currentState else { return nil }
        return redo(current: currentState())
    }

    /// Forgets every state.
    public func clear() {
        undoStack.removeAll()
        redoStack.removeAll()
    }
}
