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

/// One reducer made of several, listed in a ``PrismReducerBuilder`` block: they run in order on
/// the same state, and their effects are merged.
///
/// ```swift
/// let reducer = PrismCombineReducers {
///     AnalyticsReducer()
///     AppCoreReducer()
/// }
/// ```
public struct PrismCombineReducers<Reducers: PrismReducer>: PrismReducer {
    /// The state it runs on.
    public typealias State = Reducers.State
    /// The actions it handles.
    public typealias Action = Reducers.Action

    @usableFromInline
    let reducers: Reducers

    /// Combines the reducers `build` lists.
    @inlinable
    public init<BuilderState, BuilderAction>(
        @PrismReducerBuilder<BuilderState, BuilderAction> _ build: () -> Reducers
    ) where BuilderState == Reducers.State, BuilderAction == Reducers.Action {
        self.reducers = build()
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        reducers.reduce(into: &state, action: action)
    }
}
