/// Code that sees every action after the reducer has applied it.
///
/// Middleware is for cross-cutting concerns: logging, analytics, persistence, crash reporting.
/// It receives the state *after* the reducer ran, and returns an effect for any further work.
///
/// ```swift
/// struct LoggingMiddleware: PrismMiddleware {
///     func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
///         print("[Action] \(action)")
///         return .none
///     }
/// }
///
/// let store = PrismStore(initialState: AppState(), reducer: AppReducer(), middleware: LoggingMiddleware())
/// ```
///
/// Middleware is a reducer that reads the state and never changes it: its `reduce(into:action:)`
/// calls ``run(state:action:)``. Placed after a reducer, it sees the state that reducer left:
/// ``PrismStore/init(initialState:reducer:middleware:)-(_,_,M)`` and
/// ``PrismReducer/handling(with:)`` place it there, and so does a line after the reducer in a
/// ``PrismCombineReducers`` block, the way to attach several (with `if` and `if`/`else`).
/// A middleware that must read the store's state later, or hear it replaced without an action,
/// asks for its store in `run` (``PrismStoreContext``). It never hears an action a tool replays (PrismInspector loading a recording,
/// skipping an action): the store silences every middleware while it replays, however the
/// middleware is held. Keep what reaches outside the state (a save, a log line, a report) in a
/// middleware's `run` or in an effect, never in a reducer's `reduce`.
///
/// Use ``PrismSideEffect`` for middleware written as a closure.
@MainActor
public protocol PrismMiddleware<State, Action>: PrismReducer {
    // Restated (without constraints: PrismReducer's apply) so that a middleware's `run` alone
    // tells the compiler its state and action types.
    /// The state this middleware observes.
    associatedtype State
    /// The actions this middleware observes.
    associatedtype Action

    /// Called after the reducer applied `action`; `state` already reflects it.
    func run(state: State, action: Action) -> PrismEffect<Action>
}

extension PrismMiddleware {
    /// Runs ``run(state:action:)`` with the state as the reducers before this one left it;
    /// never changes it. While a tool replays recorded actions (PrismInspector loading a
    /// recording, skipping an action), does nothing: a replayed action must not reach what a
    /// middleware does outside the state (a save, a log line, an analytics event).
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        if Replaying.isActive { return .none }
        return run(state: state, action: action)
    }
}

/// Whether the store on the main actor is replaying recorded actions for a tool
/// (`RootCore.replay`): every middleware is silent meanwhile. One flag the store sets, rather
/// than a hook every reducer and combinator would have to pass on: however a reducer holds its
/// middleware (a builder block, `handling(with:)`, `eraseToReduce()`, a closure that calls the
/// middleware's `reduce`), a replay cannot reach it.
@MainActor
@usableFromInline
enum Replaying {
    @usableFromInline
    static var isActive = false
}
