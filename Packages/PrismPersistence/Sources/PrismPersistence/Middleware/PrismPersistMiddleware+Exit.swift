import Dispatch

extension PrismPersistMiddleware {
    /// Saves the latest state before the process ends: when it gets `SIGTERM`, `SIGINT` or
    /// `SIGHUP`, and when it calls `exit()` or returns from `main`.
    ///
    /// Without it, a command-line tool or a service that is stopped inside a coalescing window
    /// loses the changes of that window. Call it once, where the store is made:
    ///
    /// ```swift
    /// let persistence = PrismPersistMiddleware<AppState, AppAction>(
    ///     strategy: PrismDiskPersistence(),
    ///     key: "app_state"
    /// )
    /// persistence.flushOnExit()
    /// let store = PrismStore(restoringWith: persistence, default: AppState(), reducer: AppReducer())
    /// ```
    ///
    /// On one of those signals, the middleware's latest state is handed to its writer (on the
    /// main actor, where the store is), written, and then the signal ends the process as it
    /// would have without this call (same exit status). A signal the process ignored when this
    /// was first called (`nohup`) stays ignored. At `exit()`, the latest state is saved on the
    /// way out when `exit()` is called on the main thread; from another thread, the saves
    /// already under way are finished.
    ///
    /// Every middleware that calls it is saved; the process waits at most `timeout` (the
    /// longest any of them asked for) for the main actor and the writes, so a hung keychain
    /// cannot keep it from ending. The signal handlers are installed once per process and stay.
    /// An app that handles these signals itself (a service with a lifecycle library, a GUI app)
    /// calls ``flush()`` from its own shutdown path instead.
    ///
    /// - Parameter timeout: How long the process may wait for the latest state to be saved.
    public nonisolated func flushOnExit(timeout: Duration = .seconds(5)) {
        precondition(timeout >= .zero, "PrismPersistMiddleware.flushOnExit: timeout must not be negative.")
        ExitFlusher.shared.register(scheduler, timeout: timeout)
    }
}

extension PersistScheduler: ExitFlushable {
    func submitPendingForExit() {
        submitLatest()
    }

    nonisolated func waitForWrites(until deadline: DispatchTime) -> Bool {
        writer.waitForWrites(until: deadline)
    }
}
