/// The business logic of a feature: how each action changes state, and what to do next.
///
/// A reducer mutates `state` in place and returns a `PrismEffect` for any asynchronous
/// work. It runs on the main actor, synchronously, so it must not block.
///
/// ```swift
/// struct CounterReducer: PrismReducer {
///     func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
///         switch action {
///         case .increment:
///             state.count += 1
///             return .none
///         case .fetchRemoteCount:
///             state.isLoading = true
///             return .run { send in
///                 send(.remoteCountLoaded(try await CounterAPI.fetchCount()))
///             }
///         case .remoteCountLoaded(let count):
///             state.isLoading = false
///             state.count = count
///             return .none
///         }
///     }
/// }
/// ```
///
/// Use ``PrismReduce`` for a reducer written as a closure, ``eraseToReduce()`` to erase a
/// reducer's type, and ``handling(with:)`` to run a middleware after it.
@MainActor
public protocol PrismReducer<State, Action>: Sendable {
    /// The state this reducer changes.
    associatedtype State: Sendable
    /// The actions this reducer handles.
    associatedtype Action: Sendable

    /// Applies `action` to `state` and returns the effect to run next (often `.none`).
    func reduce(into state: inout State, action: Action) -> PrismEffect<Action>

    /// Hears that the store's state was replaced without an action (``PrismStore/replaceState(with:)``:
    /// an undo, a redo, a jump in time travel). Does nothing by default; a middleware that keeps
    /// the state somewhere (a persisting one) records the new state as after an action, so that
    /// an undone state is saved like any other. Reducers combined with ``PrismCombineReducers``
    /// or ``handling(with:)`` (and an `if`, `if`/`else`, `for` or `if #available` of a block), a
    /// reducer erased with ``eraseToReduce()`` and a ``PrismFeature``'s `body` pass it on to each
    /// of them, and ``PrismScope`` to its child with
    /// the child's part of the state; `ifLet` and `forEach` children do not hear it.
    func stateReplaced(_ state: State)

    /// Hears, once, that a root store was made with this reducer, and how to read that store's
    /// current state (nil once the store is gone). Does nothing by default, and is passed on like
    /// ``stateReplaced(_:)``. A persisting middleware reads the latest state when it saves
    /// instead of keeping a copy of every state, a copy that would make the reducer's next change
    /// to a large collection copy the collection.
    func storeAttached(reading currentState: @escaping @MainActor () -> State?)
}

extension PrismReducer {
    /// Does nothing.
    @inlinable
    public func stateReplaced(_ state: State) {}

    /// Does nothing.
    @inlinable
    public func storeAttached(reading currentState: @escaping @MainActor () -> State?) {}
}
