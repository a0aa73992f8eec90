/// A reducer written as a closure.
///
/// ```swift
/// let reducer = PrismReduce<CounterState, CounterAction> { state, action in
///     switch action {
///     case .increment: state.count += 1
///     case .decrement: state.count -= 1
///     }
///     return .none
/// }
/// ```
public struct PrismReduce<State: Sendable, Action: Sendable>: PrismReducer {
    @usableFromInline
    let body: @MainActor @Sendable (inout State, Action) -> PrismEffect<Action>

    /// Creates a reducer that runs `reduce` for every action.
    @inlinable
    nonisolated public init(_ reduce: @escaping @MainActor @Sendable (inout State, Action) -> PrismEffect<Action>) {
        self.body = reduce
    }

    /// Runs the closure this reducer was created with.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        body(&state, action)
    }
}

extension PrismReducer {
    /// This reducer as a ``PrismReduce``, its concrete type erased.
    ///
    /// ```swift
    /// let erased: PrismReduce<ProfileState, ProfileAction> = ProfileReducer().eraseToReduce()
    /// ```
    @inlinable
    nonisolated public func eraseToReduce() -> PrismReduce<State, Action> {
        PrismReduce { state, action in self.reduce(into: &state, action: action) }
    }

    /// This reducer followed by `middleware`: the middleware sees every action after this
    /// reducer has applied it, and the effects of both are merged.
    ///
    /// ```swift
    /// let store = PrismStore(
    ///     initialState: ProfileState(),
    ///     reducer: ProfileReducer().handling(with: AnalyticsMiddleware())
    /// )
    /// ```
    @inlinable
    nonisolated public func handling<M: PrismMiddleware>(
        with middleware: M
    ) -> PrismMiddlewareReducer<Self, M> where M.State == State, M.Action == Action {
        PrismMiddlewareReducer(reducer: self, middleware: middleware)
    }
}

/// A reducer followed by a middleware; what ``PrismReducer/handling(with:)`` returns.
public struct PrismMiddlewareReducer<Reducer: PrismReducer, Middleware: PrismMiddleware>: PrismReducer
where Reducer.State == Middleware.State, Reducer.Action == Middleware.Action {
    /// The state of the reducer and the middleware.
    public typealias State = Reducer.State
    /// The actions of the reducer and the middleware.
    public typealias Action = Reducer.Action

    /// The reducer that runs first.
    public let reducer: Reducer
    /// The middleware that runs after the reducer, with the new state.
    public let middleware: Middleware

    /// Creates a reducer that runs `reducer`, then `middleware`.
    @inlinable
    nonisolated public init(reducer: Reducer, middleware: Middleware) {
        self.reducer = reducer
        self.middleware = middleware
    }

    /// Runs `reducer`, then `middleware` with the new state, and merges their effects.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        let effect = reducer.reduce(into: &state, action: action)
        return effect.merge(with: middleware.run(state: state, action: action))
    }

    /// Tells the reducer, then the middleware, that the state was replaced.
    @inlinable
    public func stateReplaced(_ state: State) {
        reducer.stateReplaced(state)
        middleware.stateReplaced(state: state)
    }

    /// Tells the reducer, then the middleware, how to read the store's state.
    @inlinable
    public func storeAttached(reading currentState: @escaping @MainActor () -> State?) {
        reducer.storeAttached(reading: currentState)
        middleware.storeAttached(reading: currentState)
    }
}
