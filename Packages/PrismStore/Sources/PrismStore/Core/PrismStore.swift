import Observation
@_spi(PrismInternals) import PrismEffects

/// An observable container of a feature's state that changes it only through actions.
///
/// Views read ``state`` and call ``send(_:fileID:line:function:)``. Each action runs through the reducer, then the
/// middleware; the effect they return runs, and the actions it sends come back through the
/// reducer.
///
/// ```swift
/// let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
/// store.send(.increment)
/// print(store.state.count)  // 1
/// ```
///
/// ## Observation
/// The store is `Observable`: SwiftUI re-renders views that read it when it changes, and
/// `withObservationTracking` sees changes on every platform. What an observer is told depends
/// on what it read:
/// - `store.count` (a member, through dynamic member lookup), a scoped store's state, or a
///   derived value: told once when that value changes, and never about sends that leave it
///   as it was (for `Equatable` values; a value that is not `Equatable` is told about every
///   send).
/// - `store.state` (the whole state): told once about every send that runs the reducer while it
///   looks, even one that changes nothing. The store never copies the state to find out.
///
/// The reducer always changes the state in place, and only an observer of a changed value
/// compares it (one `==` of what it read); while nobody reads the state, a send touches no
/// observation registrar. <doc:ObservationAndPerformance> says what a send costs.
///
/// ## Order of actions
/// `send` is synchronous. When it returns, the action and every action sent immediately by its
/// effects (`.send`, `.sequence`) have been reduced, in order. A send made while the store is
/// reducing (by middleware, by an observer, by a `.send` effect) waits behind the current
/// action and is reduced before the outer `send` returns; it never interleaves with another
/// action. Actions sent by asynchronous effects are reduced on the main actor in the order
/// they were sent.
///
/// ## Scoping
/// ``scope(state:action:)-(KeyPath<State,ChildState>,_)`` gives a child feature a store of its
/// own types whose state follows this one and whose actions flow up through this one;
/// ``derive(_:)`` gives a read-only view that notifies only when the derived value changes.
///
/// ## Lifetime of effects
/// When the store is released, every effect it started is cancelled, with or without a
/// cancellation id: a `.run { for await ... }` over a timer or a socket ends, and actions it
/// sent that were not reduced yet are dropped. Effects never keep the store alive. Scoped and
/// derived stores keep their root alive and run their effects in it: releasing one of them
/// cancels nothing, and the effects its actions started end when the root and every scoped or
/// derived store made from it are gone.
@MainActor
@dynamicMemberLookup
public final class PrismStore<State: Sendable, Action: Sendable>: Observable {
    @usableFromInline
    let core: any StoreCore<State, Action>
    /// Sends to the root: for the root, its inlined send; for a scoped store, the embedding
    /// of this level composed with the parent's. Built where the types are known, so every
    /// link is specialized.
    @usableFromInline
    let sendAction: (Action) -> PrismEffectTask
    /// Reads the state and records the observation, specialized like `sendAction`.
    @usableFromInline
    let readState: () -> State
    /// `core` when it is the root: member reads go to it directly, where their code is
    /// specialized for the member's type (through `core`, an existential, it would not be).
    @usableFromInline
    let rootCore: RootCore<State, Action>?
    /// The root's call-site slot, shared by every store of the tree (see `SendTrace`).
    @usableFromInline
    let trace: SendTrace

    @usableFromInline
    init(
        core: any StoreCore<State, Action>,
        send: @escaping (Action) -> PrismEffectTask,
        read: @escaping () -> State,
        trace: SendTrace
    ) {
        self.core = core
        self.rootCore = core.root
        self.sendAction = send
        self.readState = read
        self.trace = trace
    }

    @inlinable
    convenience init(root: RootCore<State, Action>) {
        self.init(core: root, send: { root.send($0) }, read: { root.observedRootState }, trace: root.trace)
    }

    @inlinable
    convenience init(initialState: State, reduce: @escaping (inout State, Action) -> PrismEffect<Action>) {
        self.init(root: RootCore(initialState: initialState, reducer: reduce))
    }

    /// Creates a store that runs `reducer` for every action.
    ///
    /// ```swift
    /// let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    /// ```
    @inlinable
    public convenience init<R: PrismReducer>(
        initialState: State,
        reducer: R
    ) where R.State == State, R.Action == Action {
        self.init(initialState: initialState) { reducer.reduce(into: &$0, action: $1) }
        core.root?.madeWith.reducerType = R.self
    }

    /// Creates a store that runs `reducer`, then `middleware`, for every action.
    ///
    /// The middleware sees the state after the reducer ran; the effects of both are merged.
    ///
    /// ```swift
    /// let store = PrismStore(
    ///     initialState: CounterState(),
    ///     reducer: CounterReducer(),
    ///     middleware: AnalyticsMiddleware()
    /// )
    /// ```
    @inlinable
    public convenience init<R: PrismReducer, M: PrismMiddleware>(
        initialState: State,
        reducer: R,
        middleware: M
    ) where R.State == State, R.Action == Action, M.State == State, M.Action == Action {
        self.init(initialState: initialState, reducer: reducer.handling(with: middleware))
    }

    /// Creates a store that runs `reducer`, then each of `middleware` in order, for every action.
    ///
    /// Each middleware sees the state after the reducer ran; the effects of the reducer and of
    /// every middleware are merged.
    ///
    /// ```swift
    /// let store = PrismStore(
    ///     initialState: AppState(),
    ///     reducer: AppReducer(),
    ///     middleware: [LoggingMiddleware(), AnalyticsMiddleware(), ErrorMiddleware()]
    /// )
    /// ```
    @inlinable
    public convenience init<R: PrismReducer>(
        initialState: State,
        reducer: R,
        middleware: [any PrismMiddleware<State, Action>]
    ) where R.State == State, R.Action == Action {
        if middleware.isEmpty {
            self.init(initialState: initialState, reducer: reducer)
            return
        }
        let runs = middleware.map { middleware in
            { (state: State, action: Action) in middleware.run(state: state, action: action) }
        }
        self.init(initialState: initialState) { state, action in
            var effect = reducer.reduce(into: &state, action: action)
            // A tool's replay (see PrismMiddleware.reduce): the reducer alone.
            if Replaying.isActive { return effect }
            for run in runs {
                let next = run(state, action)
                if !next.isNone { effect = effect.merge(with: next) }
            }
            return effect
        }
    }

    /// The current state.
    ///
    /// Read-only: the only way to change it is ``send(_:fileID:line:function:)`` (or ``replaceState(with:)``, for
    /// tools such as time travel). Reading it inside `withObservationTracking`, or in a
    /// SwiftUI view's body, observes it.
    @inlinable
    public var state: State {
        readState()
    }

    /// Reads a property of the state: `store.count` is `store.state.count`, observed on its own.
    ///
    /// An observer of `store.count` is told only when `count` changes (when its type is
    /// `Equatable`), while an observer of `store.state` is told about every send. Prefer member
    /// reads in views.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        if let value = rootCore?.observedMember(keyPath) {
            return value
        }
        return core.observedMember(keyPath)
    }

    /// Sends an action to the reducer and starts the effect it returns.
    ///
    /// When `send` returns, `action` and every action its effects sent immediately have been
    /// reduced. The returned handle covers the asynchronous effects that started; await
    /// `PrismEffectTask/finish()` to wait for them, or `PrismEffectTask/cancel()` them.
    ///
    /// The call site (`fileID`, `line`, `function`) is noted for a tool that traces where each
    /// action came from (PrismInspector); leave them to their defaults. Noting it costs a send
    /// a branch while no such tool is attached.
    @inlinable
    @discardableResult
    public func send(
        _ action: Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function
    ) -> PrismEffectTask {
        if trace.isOn {
            trace.noteSend(at: PrismCallSite(fileID: fileID, line: line, function: function))
            if let around = trace.aroundSend { return around(action) { sendAction(action) } }
        }
        return sendAction(action)
    }

    /// Replaces the whole state without running the reducer, notifying observers.
    ///
    /// For tools that restore an earlier state: time travel, undo/redo, restoring a saved
    /// session. Running effects are not cancelled. On a scoped store, writes through to the
    /// parent (which requires the store to be scoped with a writable key path).
    public func replaceState(with state: State) {
        core.replaceState(state)
    }

    /// Receives the errors this store's effects throw and do not handle.
    ///
    /// `nil` (the default) uses `PrismEffectError/unhandledErrorHandler`, which prints them.
    /// Scoped stores share their root's handler.
    public var unhandledEffectErrorHandler: (@Sendable (PrismEffectError) -> Void)? {
        get { core.unhandledEffectErrorHandler }
        set { core.unhandledEffectErrorHandler = newValue }
    }

    /// Cancels every running effect of this store that was made cancellable with `id`.
    ///
    /// The same as an effect returning `.cancel(id:)`, for code outside a reducer.
    public func cancelEffects(id: some Hashable & Sendable) {
        core.cancelEffects(id: id)
    }
}
