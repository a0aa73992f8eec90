import PrismStore

extension PrismStore where State: Codable {
    /// Creates a store whose state is the one `persistence` saved, or `defaultState`, and that
    /// saves it with `persistence` after actions.
    ///
    /// Restoring on launch is this one call:
    ///
    /// ```swift
    /// let store = PrismStore(
    ///     restoringWith: PrismPersistMiddleware(strategy: PrismDiskPersistence(), key: "app_state"),
    ///     default: AppState(),
    ///     reducer: AppReducer()
    /// )
    /// ```
    ///
    /// See ``PrismPersistMiddleware/restore(default:)`` for what happens when the saved state
    /// cannot be read. To run more middleware, pass `AppReducer().handling(with: ...)`.
    ///
    /// The middleware reads the store's state when it saves, rather than keeping a copy of the
    /// state of every send, so a send that changes a large collection in the state does not
    /// have to copy it: prefer this initializer for large states.
    public convenience init<R: PrismReducer>(
        restoringWith persistence: PrismPersistMiddleware<State, Action>,
        default defaultState: @autoclosure () -> State,
        reducer: R
    ) where R.State == State, R.Action == Action {
        self.init(initialState: persistence.restore(default: defaultState()), reducer: reducer, middleware: persistence)
        // At the end of a window, the middleware reads the state from here instead of keeping
        // a copy of every state sent: a send then costs it one flag check.
        persistence.scheduler.attach { [weak self] in self?.state }
    }
}
