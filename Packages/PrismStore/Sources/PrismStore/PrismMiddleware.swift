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
}
