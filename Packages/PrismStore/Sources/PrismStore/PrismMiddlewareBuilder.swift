/// Builds one middleware out of several listed in a closure, in order.
///
/// ```swift
/// let store = PrismStore(initialState: AppState(), reducer: AppReducer()) {
///     LoggingMiddleware()
///     AnalyticsMiddleware()
///     if crashReportingEnabled {
///         ErrorMiddleware()
///     }
/// }
/// ```
///
/// The result is one concrete type, which the compiler can specialize and inline; the array
/// form, `middleware: [any PrismMiddleware<State, Action>]`, calls each middleware dynamically
/// (<doc:ObservationAndPerformance> compares them).
@resultBuilder
public enum PrismMiddlewareBuilder<State: Sendable, Action: Sendable> {
    /// Accepts a middleware of the builder's state and action types.
    @inlinable
    public static func buildExpression<M: PrismMiddleware>(_ middleware: M) -> M
    where M.State == State, M.Action == Action {
        middleware
    }

    /// An empty builder: middleware that does nothing.
    @inlinable
    public static func buildBlock() -> PrismSideEffect<State, Action> {
        .none
    }

    /// The first middleware of the block.
    @inlinable
    public static func buildPartialBlock<M: PrismMiddleware>(first: M) -> M
    where M.State == State, M.Action == Action {
        first
    }

    /// The middleware so far, followed by `next`.
    @inlinable
    public static func buildPartialBlock<M0: PrismMiddleware, M1: PrismMiddleware>(
        accumulated: M0,
        next: M1
    ) -> PrismCombinedMiddleware<M0, M1>
    where M0.State == State, M0.Action == Action, M1.State == State, M1.Action == Action {
        PrismCombinedMiddleware(accumulated, next)
    }

    /// Middleware inside an `if` without `else`.
    @inlinable
    public static func buildOptional<M: PrismMiddleware>(_ middleware: M?) -> Conditional<
        M, PrismSideEffect<State, Action>
    >
    where M.State == State, M.Action == Action {
        middleware.map { .first($0) } ?? .second(.none)
    }

    /// Middleware in the first branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither<First: PrismMiddleware, Second: PrismMiddleware>(
        first: First
    ) -> Conditional<First, Second>
    where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
        .first(first)
    }

    /// Middleware in the second branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither<First: PrismMiddleware, Second: PrismMiddleware>(
        second: Second
    ) -> Conditional<First, Second>
    where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
        .second(second)
    }

    /// One of two middleware, chosen when the builder ran.
    public enum Conditional<First: PrismMiddleware, Second: PrismMiddleware>: PrismMiddleware
    where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
        /// The first branch.
        case first(First)
        /// The second branch.
        case second(Second)

        /// Runs the chosen middleware.
        @inlinable
        public func run(state: State, action: Action) -> PrismEffect<Action> {
            switch self {
            case .first(let middleware): return middleware.run(state: state, action: action)
            case .second(let middleware): return middleware.run(state: state, action: action)
            }
        }

        /// Tells the chosen middleware that the state was replaced.
        @inlinable
        public func stateReplaced(state: State) {
            switch self {
            case .first(let middleware): middleware.stateReplaced(state: state)
            case .second(let middleware): middleware.stateReplaced(state: state)
            }
        }

        /// Tells the chosen middleware how to read the store's state.
        @inlinable
        public func storeAttached(reading currentState: @escaping @MainActor () -> State?) {
            switch self {
            case .first(let middleware): middleware.storeAttached(reading: currentState)
            case .second(let middleware): middleware.storeAttached(reading: currentState)
            }
        }
    }
}

/// Two middleware run one after the other, their effects merged.
///
/// What ``PrismMiddlewareBuilder`` makes of a list of middleware.
public struct PrismCombinedMiddleware<First: PrismMiddleware, Second: PrismMiddleware>: PrismMiddleware
where First.State == Second.State, First.Action == Second.Action {
    /// The state both middleware observe.
    public typealias State = First.State
    /// The actions both middleware observe.
    public typealias Action = First.Action

    /// The middleware that runs first.
    public let first: First
    /// The middleware that runs second.
    public let second: Second

    /// Combines `first` and `second`.
    @inlinable
    nonisolated public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    /// Runs `first`, then `second`, and merges their effects.
    @inlinable
    public func run(state: State, action: Action) -> PrismEffect<Action> {
        first.run(state: state, action: action).merge(with: second.run(state: state, action: action))
    }

    /// Tells `first`, then `second`, that the state was replaced.
    @inlinable
    public func stateReplaced(state: State) {
        first.stateReplaced(state: state)
        second.stateReplaced(state: state)
    }

    /// Tells `first`, then `second`, how to read the store's state.
    @inlinable
    public func storeAttached(reading currentState: @escaping @MainActor () -> State?) {
        first.storeAttached(reading: currentState)
        second.storeAttached(reading: currentState)
    }
}

extension PrismStore {
    /// Creates a store that runs `reducer`, then the middleware listed in `middleware`, in
    /// order, for every action.
    ///
    /// ```swift
    /// let store = PrismStore(initialState: AppState(), reducer: AppReducer()) {
    ///     LoggingMiddleware()
    ///     AnalyticsMiddleware()
    /// }
    /// ```
    @inlinable
    public convenience init<R: PrismReducer, M: PrismMiddleware>(
        initialState: State,
        reducer: R,
        @PrismMiddlewareBuilder<State, Action> middleware: () -> M
    ) where R.State == State, R.Action == Action, M.State == State, M.Action == Action {
        self.init(initialState: initialState, reducer: reducer.handling(with: middleware()))
    }
}
