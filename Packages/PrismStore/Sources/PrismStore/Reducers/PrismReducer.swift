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
///
/// `reduce(into:action:)` is the protocol's only requirement, so a combinator has nothing to
/// pass on but the action: what the store's tools need (replaying, locking, recording, a
/// middleware that reads the store's state later or hears it replaced, see
/// ``PrismStoreContext``) goes through the store, never through a reducer's type.
@MainActor
public protocol PrismReducer<State, Action>: Sendable {
    /// The state this reducer changes.
    associatedtype State: Sendable
    /// The actions this reducer handles.
    associatedtype Action: Sendable

    /// Applies `action` to `state` and returns the effect to run next (often `.none`).
    func reduce(into state: inout State, action: Action) -> PrismEffect<Action>
}

/// A reducer made of reducers: list them in ``body`` instead of writing `reduce(into:action:)`.
///
/// ```swift
/// struct AppFeature: PrismFeature {
///     typealias State = AppState
///     typealias Action = AppAction
///
///     var body: some PrismReducer<AppState, AppAction> {
///         PrismScope(state: \.settings, action: AppAction.settings) {
///             SettingsFeature()
///         }
///         PrismReduce { state, action in
///             // what the app itself does with its actions
///             .none
///         }
///         .ifLet(\.detail, action: AppAction.detail) {
///             DetailFeature()
///         }
///         .forEach(\.rows, action: AppAction.row) {
///             RowFeature()
///         }
///     }
/// }
/// ```
///
/// A feature is a ``PrismReducer``: a store runs it, another feature scopes it, a test store
/// tests it. Its `reduce(into:action:)` runs ``body``, which is built anew for each action
/// (its parts are plain values): keep a middleware that holds state of its own (a persisting
/// one) in a property of the feature, and list the property in the body.
///
/// Name the state and action types with `typealias State` and `typealias Action` (or nest
/// types with those names) when Swift cannot infer them from ``body``.
public protocol PrismFeature: PrismReducer {
    /// The reducer this feature is made of.
    associatedtype Body: PrismReducer where Body.State == State, Body.Action == Action

    /// The reducers this feature runs, in order, for every action.
    @PrismReducerBuilder<State, Action>
    var body: Body { get }
}

extension PrismFeature {
    /// Runs ``body``.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        body.reduce(into: &state, action: action)
    }
}
