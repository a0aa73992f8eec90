extension PrismStore {
    /// A store for a child feature: its state is part of this store's state, its actions are
    /// embedded in this store's actions.
    ///
    /// ```swift
    /// let profileStore: PrismStore<ProfileState, ProfileAction> = store.scope(
    ///     state: \.profile,
    ///     action: AppAction.profile
    /// )
    /// ```
    ///
    /// The child owns nothing: its ``state`` is always this store's state seen through
    /// `state`, and ``send(_:fileID:line:function:)`` sends `action(childAction)` to this store, whose reducer,
    /// middleware and effects handle it. Observers of the child hear about changes of the
    /// child's state only (for `Equatable` child state). With a writable key path,
    /// ``replaceState(with:)`` on the child writes through to this store.
    ///
    /// The child keeps this store alive. Effects started by the child's actions run in the root
    /// store: releasing the child does not cancel them; they end when the root and every store
    /// scoped or derived from it have been released.
    ///
    /// A child several levels down can be scoped in one step, `state: \.dashboard.timer` with
    /// `action: { .dashboard(.timer($0)) }`: its sends then skip the stores in between, one
    /// embedding call instead of one per level (<doc:ScopingAndComposing>).
    @inlinable
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: KeyPath<State, ChildState>,
        action fromChildAction: @escaping (ChildAction) -> Action
    ) -> PrismStore<ChildState, ChildAction> {
        var write: ((inout State, ChildState) -> Void)?
        if let writable = toChildState as? WritableKeyPath<State, ChildState> {
            write = { $0[keyPath: writable] = $1 }
        }
        return Self.scoped(
            core, state: { $0[keyPath: toChildState] }, path: toChildState, write: write, send: sendAction,
            action: fromChildAction, trace: trace)
    }

    /// A store for a child feature whose state is computed from this store's state.
    ///
    /// Like ``scope(state:action:)-(KeyPath<State,ChildState>,_)``, for a child state that is not a
    /// stored property (`{ $0.users.first { $0.isSelected } }`). Such a child cannot
    /// ``replaceState(with:)``.
    @inlinable
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState,
        action fromChildAction: @escaping (ChildAction) -> Action
    ) -> PrismStore<ChildState, ChildAction> {
        Self.scoped(
            core, state: toChildState, path: nil, write: nil, send: sendAction, action: fromChildAction, trace: trace)
    }

    /// The store of a child: `core` seen through `toChildState` (the key path `path`, when it is
    /// one; written back through `write`, when given), whose sends reach `parentSend` embedded
    /// by `fromChildAction`. What every `scope` but an element's returns.
    @inlinable
    static func scoped<ChildState: Sendable, ChildAction: Sendable>(
        _ core: any StoreCore<State, Action>,
        state toChildState: @escaping (State) -> ChildState,
        path: KeyPath<State, ChildState>?,
        write: ((inout State, ChildState) -> Void)?,
        send parentSend: @escaping (Action) -> PrismEffectTask,
        action fromChildAction: @escaping (ChildAction) -> Action,
        trace: SendTrace
    ) -> PrismStore<ChildState, ChildAction> {
        let childCore: any StoreCore<ChildState, ChildAction> = core.scope(
            state: toChildState, path: path, write: write)
        return PrismStore<ChildState, ChildAction>(
            core: childCore,
            send: { parentSend(fromChildAction($0)) },
            read: { childCore.observedState },
            trace: trace
        )
    }

    /// A read-only view of a value computed from the state, that notifies its observers only
    /// when that value changes.
    ///
    /// ```swift
    /// let filteredUsers = store.derive { state in
    ///     state.users.filter { $0.matches(state.selectedFilter) }
    /// }
    /// print(filteredUsers.value)
    /// ```
    ///
    /// `transform` runs at most once per change of the state, when the value is read or, while
    /// somebody observes it, when the state changes.
    ///
    /// The derived store keeps this store, and so the effects running in it, alive until it is
    /// released too.
    public func derive<Value: Equatable>(_ transform: @escaping (State) -> Value) -> PrismDerivedStore<State, Value> {
        PrismDerivedStore(core: core, transform: transform)
    }
}
