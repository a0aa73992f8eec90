import Logging
import PrismStore

/// Middleware that saves the state after actions, coalescing saves so that a send does not
/// pay for a write.
///
/// ```swift
/// let store = PrismStore(
///     initialState: AppState(),
///     reducer: AppReducer(),
///     middleware: PrismPersistMiddleware(
///         strategy: PrismDiskPersistence(),
///         key: "app_state"
///     )
/// )
/// ```
///
/// ## When it saves
/// The first change is saved at once. Changes within the next `coalescingWindow` (half a
/// second by default) are saved together, once, at the end of the window: the latest state
/// only. A window without changes ends it, and the next change is again saved at once. With an
/// `Equatable` state, a state equal to the one saved last is not saved again.
///
/// A send only notes the change on the main actor: no lock, no allocation, no encoding.
/// Encoding and writing happen on a serial queue of the middleware's own, off the main actor,
/// in order. Passed to `PrismStore(initialState:reducer:middleware:)`, the middleware keeps the
/// latest state until it saves it; keeping it means a reducer's next change to a collection in
/// the state copies the collection first. Attached with
/// `PrismStore(restoringWith:default:reducer:)`, it reads the store's state when it saves
/// instead, and a send costs it one flag check: prefer that for large states.
///
/// Call ``flush()`` to save the latest state now and wait for it, for example before the
/// process exits or when the app moves to the background.
///
/// ## Errors
/// A failed save is never dropped: it is logged at the error level on the `logger` (swift-log)
/// and passed to `onError`. The next change, or ``flush()``, tries again.
///
/// ## Restoring on launch
/// ``restore(default:)`` loads the saved state, or gives the default when there is none or it
/// could not be read (reported like a failed save; the strategies of this module have then
/// moved the unreadable value aside). `PrismStore(restoringWith:default:reducer:)` does it and
/// attaches the middleware in one call:
///
/// ```swift
/// let store = PrismStore(
///     restoringWith: PrismPersistMiddleware(strategy: PrismDiskPersistence(), key: "app_state"),
///     default: AppState(),
///     reducer: AppReducer()
/// )
/// ```
public struct PrismPersistMiddleware<State: Codable & Sendable, Action: Sendable>: PrismMiddleware {
    @usableFromInline
    let scheduler: PersistScheduler<State>

    /// Saves the state under `key` with `strategy` after actions.
    ///
    /// - Parameters:
    ///   - strategy: Where to save; called off the main actor.
    ///   - key: The key to save under.
    ///   - coalescingWindow: How long after a save further changes wait to be saved together.
    ///   - logger: Where failed saves are logged, at the error level.
    ///   - onError: Called with every failed save or restore, on the middleware's queue.
    public nonisolated init<Strategy: PrismPersistenceStrategy>(
        strategy: Strategy,
        key: String,
        coalescingWindow: Duration = .milliseconds(500),
        logger: Logger = Logger(label: "PrismPersistence"),
        onError: (@Sendable (PrismPersistenceError) -> Void)? = nil
    ) {
        precondition(coalescingWindow >= .zero, "PrismPersistMiddleware: coalescingWindow must not be negative.")
        let writer = PersistWriter<State>(strategy: strategy, key: key, logger: logger, onError: onError)
        self.scheduler = PersistScheduler(writer: writer, window: coalescingWindow)
    }

    /// The key the state is saved under.
    public nonisolated var key: String { scheduler.writer.key }

    /// Records `state` to be saved; returns no effect.
    @inlinable
    public func run(state: State, action: Action) -> PrismEffect<Action> {
        scheduler.record(state)
        return .none
    }

    /// Saves the latest state now, after any save in progress, and returns when it is saved.
    ///
    /// Throws the ``PrismPersistenceError`` of that save if it failed (it is also logged and
    /// passed to `onError`). With nothing new to save, it waits for the saves in progress, and
    /// retries the last one if it had failed.
    public func flush() async throws {
        try await scheduler.flush()
    }

    /// The saved state, or `defaultState` when nothing is saved or it could not be loaded.
    ///
    /// A load error is logged and passed to `onError`, never thrown. The state it returns counts
    /// as saved: an action that leaves it unchanged does not write it back.
    public nonisolated func restore(default defaultState: @autoclosure () -> State) -> State {
        scheduler.writer.restore() ?? defaultState()
    }
}
