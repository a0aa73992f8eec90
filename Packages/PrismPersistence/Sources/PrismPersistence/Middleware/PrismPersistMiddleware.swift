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
/// A send only notes the change on the main actor. Encoding and writing happen on a serial queue
/// of the middleware's own, off the main actor, in order. However it is attached
/// (`PrismStore(initialState:reducer:middleware:)`, a `PrismCombineReducers` block, `handling(with:)` or
/// `PrismStore(restoringWith:default:reducer:)`, inside a `PrismScope`), it finds its store on
/// its first action (`PrismStoreContext`) and reads the state when it saves, keeping no copy
/// between sends: a reducer's change to a large collection is made in place. (Until then, or
/// run by a reducer that changes the state's type, such as `ifLet` or `forEach`, it keeps the
/// latest state it was given instead.) A state the app puts back without an action (an undo, a
/// redo, `replaceState(with:)`) is saved like one after an action.
///
/// Call ``flush()`` to save the latest state now and wait for it, for example when the app
/// moves to the background. A command-line tool or a service calls ``flushOnExit(timeout:)``
/// once: the latest state is then saved when the process gets `SIGTERM`, `SIGINT` or `SIGHUP`,
/// or calls `exit()`.
///
/// ## Errors
/// A failed save is never dropped: it is logged at the error level on the `logger` (swift-log)
/// and passed to `onError`. The next change, or ``flush()``, tries again.
///
/// ## Restoring on launch
/// ``restore(default:)`` loads the saved state, or gives the default when there is none or it
/// could not be read; ``restore()-4jjiv`` throws the load's error instead. `PrismStore(restoringWith:default:reducer:)`
/// restores and attaches the middleware in one call, and
/// `PrismStore(restoringOffMainActorWith:default:reducer:)` does it with the load off the main
/// actor:
///
/// ```swift
/// let store = await PrismStore(
///     restoringOffMainActorWith: PrismPersistMiddleware(strategy: PrismDiskPersistence(), key: "app_state"),
///     default: AppState(),
///     reducer: AppReducer()
/// )
/// ```
///
/// ## A failed restore never leads to an overwrite
/// The middleware saves under its key only once a load has shown that nothing it could not
/// read is stored there: the load found a state, found nothing, or found an unreadable value
/// that the strategy moved aside (the strategies of this module do;
/// ``PrismPersistenceError/movedAsideURL``). If the app never restored through the middleware,
/// its first save loads first to find out.
///
/// A load that fails in any other way (a locked keychain, a Secret Service that has not
/// started yet, an I/O or permission error, too many open files) leaves what is stored where
/// it is, and the store starts from the default. Saving that default-derived state would destroy
/// the stored one, so from then on every save is refused with
/// ``PrismPersistenceError/Code-swift.struct/overwriteRefused`` (its `underlying` is the load's
/// error) and its state is held back. The app hears about it three ways: ``restore()-4jjiv`` throws,
/// `onError` receives the load's error (and the first refused save), and ``loadFailure`` holds
/// the error until the block is lifted. The block is lifted by a later load that succeeds:
///
/// ```swift
/// if persistence.loadFailure != nil, let saved = try persistence.restore() {
///     store.replaceState(with: saved)  // the keyring is unlocked now
/// }
/// ```
///
/// or by ``allowOverwrite()``, when the app decides that the stored value may be replaced (the
/// held-back state is then saved).
public struct PrismPersistMiddleware<State: Codable & Sendable, Action: Sendable>: PrismMiddleware {
    @usableFromInline
    let scheduler: PersistScheduler<State>

    /// Saves the state under `key` with `strategy` after actions.
    ///
    /// - Parameters:
    ///   - strategy: Where to save; called off the main actor.
    ///   - key: The key to save under.
    ///   - coalescingWindow: How long after a save further changes wait to be saved together.
    ///   - clock: What the window is measured on: the continuous clock, or in tests a
    ///     `TestClock` that the test advances (nothing then waits on the wall clock).
    ///   - logger: Where failed saves are logged, at the error level.
    ///   - onError: Called with every failed save or load, and with the first save refused after
    ///     a failed load, on the middleware's queue.
    public nonisolated init<Strategy: PrismPersistenceStrategy>(
        strategy: Strategy,
        key: String,
        coalescingWindow: Duration = .milliseconds(500),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "PrismPersistence"),
        onError: (@Sendable (PrismPersistenceError) -> Void)? = nil
    ) {
        precondition(coalescingWindow >= .zero, "PrismPersistMiddleware: coalescingWindow must not be negative.")
        let writer = PersistWriter<State>(strategy: strategy, key: key, logger: logger, onError: onError)
        self.scheduler = PersistScheduler(writer: writer, window: coalescingWindow, clock: clock)
    }

    /// The key the state is saved under.
    public nonisolated var key: String { scheduler.writer.key }

    /// Records `state` to be saved; returns no effect. On its first actions, finds its store
    /// (`PrismStoreContext`): from then on it reads the store's state when it saves, and saves
    /// a state the app puts back without an action (an undo, a redo, `replaceState(with:)`).
    @inlinable
    public func run(state: State, action: Action) -> PrismEffect<Action> {
        scheduler.recordFromStore(state)
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
    /// A load error is logged and passed to `onError`, never thrown (``restore()-4jjiv`` throws it).
    /// The state it returns counts as saved: an action that leaves it unchanged does not write it
    /// back. After a load error that leaves the stored value in place, saving is blocked (see
    /// "A failed restore never leads to an overwrite" above).
    public nonisolated func restore(default defaultState: @autoclosure () -> State) -> State {
        (try? scheduler.writer.restore()) ?? defaultState()
    }

    /// The saved state, or `nil` when nothing is saved; throws the error of a load that failed.
    ///
    /// The load runs on the middleware's queue, after the saves in progress, while the caller
    /// waits. A state it returns counts as saved, and lifts a block on saving left by an
    /// earlier failed load (the state held back by the block is dropped: the loaded one is what
    /// the app uses now). After an error that leaves the stored value in place, saving is
    /// blocked until a later load succeeds or ``allowOverwrite()``. An unreadable value that the
    /// strategy moved aside (``PrismPersistenceError/movedAsideURL``) is thrown too, but does not
    /// block saving.
    ///
    /// ```swift
    /// let saved: AppState?
    /// do {
    ///     saved = try persistence.restore()
    /// } catch {
    ///     showWarning("Your saved data could not be read: \(error)")
    ///     saved = nil
    /// }
    /// ```
    public nonisolated func restore() throws(PrismPersistenceError) -> State? {
        try scheduler.writer.restore()
    }

    /// ``restore()-4jjiv``, loading on the middleware's queue without blocking the caller's thread:
    /// from the main actor, the app keeps running while the keychain or a large file answers.
    public nonisolated func restore() async throws(PrismPersistenceError) -> State? {
        try await scheduler.writer.restoreAsync()
    }

    /// The error of the failed load that keeps the middleware from saving, or `nil` while it
    /// saves normally.
    ///
    /// Set by a load that failed and left the stored value in place (see "A failed restore
    /// never leads to an overwrite" above); cleared by a load that succeeds and by
    /// ``allowOverwrite()``.
    public nonisolated var loadFailure: PrismPersistenceError? {
        scheduler.writer.loadFailure
    }

    /// Lets the middleware save over what is stored under its key even though it could not be
    /// loaded; the state held back since the failed load is saved now.
    ///
    /// Call it when the app decides the stored value may go: the user chose to start over, or
    /// the value is known to be lost anyway. Until a later failed load, saves work as usual.
    public nonisolated func allowOverwrite() {
        scheduler.writer.allowOverwrite()
    }
}
