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
    /// The load blocks the main actor until it is done;
    /// ``init(restoringOffMainActorWith:default:reducer:)`` loads off the main actor, which is
    /// better when loading means a keychain's D-Bus round trips or a large file.
    ///
    /// When the saved state cannot be loaded, the store starts from `defaultState`; see
    /// ``PrismPersistMiddleware/restore(default:)``. If the stored value is still there (a
    /// locked keyring, an I/O error), the middleware does not save over it: see
    /// ``PrismPersistMiddleware/loadFailure``. To run more middleware, pass
    /// `AppReducer().handling(with: ...)`.
    ///
    /// The middleware reads the store's state when it saves, rather than keeping a copy of the
    /// state of every send, so a send that changes a large collection in the state does not
    /// have to copy it: prefer this initializer for large states.
    public convenience init<R: PrismReducer>(
        restoringWith persistence: PrismPersistMiddleware<State, Action>,
        default defaultState: @autoclosure () -> State,
        reducer: R
    ) where R.State == State, R.Action == Action {
        self.init(restored: persistence.restore(default: defaultState()), with: persistence, reducer: reducer)
    }

    /// Creates a restored store, like ``init(restoringWith:default:reducer:)``, whose reducer and
    /// effects see the dependencies `prepareDependencies` sets (as
    /// `PrismStore(initialState:reducer:withDependencies:)` does for a store made from a state):
    ///
    /// ```swift
    /// let store = PrismStore(
    ///     restoringWith: PrismPersistMiddleware(strategy: PrismDiskPersistence(), key: "app_state"),
    ///     default: AppState(),
    ///     reducer: AppReducer()
    /// ) {
    ///     $0.continuousClock = ContinuousClock()
    /// }
    /// ```
    public convenience init<R: PrismReducer>(
        restoringWith persistence: PrismPersistMiddleware<State, Action>,
        default defaultState: @autoclosure () -> State,
        reducer: R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void
    ) where R.State == State, R.Action == Action {
        self.init(
            initialState: persistence.restore(default: defaultState()), reducer: reducer.handling(with: persistence),
            withDependencies: prepareDependencies)
    }

    /// Creates a store restored off the main actor, like
    /// ``init(restoringOffMainActorWith:default:reducer:)``, whose reducer and effects see the
    /// dependencies `prepareDependencies` sets.
    public convenience init<R: PrismReducer>(
        restoringOffMainActorWith persistence: PrismPersistMiddleware<State, Action>,
        default defaultState: @autoclosure () -> State,
        reducer: R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void
    ) async where R.State == State, R.Action == Action {
        let restored = (try? await persistence.restore()) ?? nil
        self.init(
            initialState: restored ?? defaultState(), reducer: reducer.handling(with: persistence),
            withDependencies: prepareDependencies)
    }

    /// Creates a store whose state is the one `persistence` saved, or `defaultState`, loading it
    /// off the main actor, and that saves it with `persistence` after actions.
    ///
    /// ```swift
    /// let store = await PrismStore(
    ///     restoringOffMainActorWith: PrismPersistMiddleware(strategy: PrismKeychainPersistence(), key: "session"),
    ///     default: Session(),
    ///     reducer: SessionReducer()
    /// )
    /// ```
    ///
    /// The load runs on the middleware's own queue; the main actor runs other work meanwhile
    /// (the UI stays responsive while the Secret Service answers over D-Bus or a large file is
    /// decoded). Otherwise the same as ``init(restoringWith:default:reducer:)``: a state that cannot be loaded
    /// gives `defaultState`, and a stored value left in place is never saved over (see
    /// ``PrismPersistMiddleware/loadFailure``).
    public convenience init<R: PrismReducer>(
        restoringOffMainActorWith persistence: PrismPersistMiddleware<State, Action>,
        default defaultState: @autoclosure () -> State,
        reducer: R
    ) async where R.State == State, R.Action == Action {
        let restored = (try? await persistence.restore()) ?? nil
        self.init(restored: restored ?? defaultState(), with: persistence, reducer: reducer)
    }

    private convenience init<R: PrismReducer>(
        restored: State,
        with persistence: PrismPersistMiddleware<State, Action>,
        reducer: R
    ) where R.State == State, R.Action == Action {
        self.init(initialState: restored, reducer: reducer, middleware: persistence)
        // At the end of a window, the middleware reads the state from here instead of keeping
        // a copy of every state sent: a send then costs it one flag check.
    }
}
