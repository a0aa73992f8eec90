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
/// Use ``PrismSideEffect`` for middleware written as a closure.
@MainActor
public protocol PrismMiddleware<State, Action>: Sendable {
    /// The state this middleware observes.
    associatedtype State: Sendable
    /// The actions this middleware observes.
    associatedtype Action: Sendable

    /// Called after the reducer applied `action`; `state` already reflects it.
    func run(state: State, action: Action) -> PrismEffect<Action>

    /// Called after the store's state was replaced without an action
    /// (``PrismStore/replaceState(with:)``: an undo, a redo, a jump in time travel); `state` is
    /// the new state. Does nothing by default; a middleware that keeps the state somewhere (a
    /// persisting one) records it as after an action.
    func stateReplaced(state: State)

    /// Called once when a root store is made with this middleware, with a function that reads
    /// the store's current state (nil once the store is gone). Does nothing by default; a
    /// middleware that needs the latest state later, off the send path (a persisting one, at the
    /// end of its coalescing window), reads it there instead of keeping each state it is given.
    func storeAttached(reading currentState: @escaping @MainActor () -> State?)
}

extension PrismMiddleware {
    /// Does nothing.
    @inlinable
    public func stateReplaced(state: State) {}

    /// Does nothing.
    @inlinable
    public func storeAttached(reading currentState: @escaping @MainActor () -> State?) {}
}
