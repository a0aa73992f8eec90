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

    @inlinable
    nonisolated init<R: PrismReducer>(erasing reducer: R) where R.State == State, R.Action == Action {
        self.body = { state, action in reducer.reduce(into: &state, action: action) }
    }

    /// Runs the closure this reducer was created with.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        body(&state, action)
    }
}

extension PrismReducer {
    /// This reducer as a ``PrismReduce``, its concrete type erased. The middleware it holds
    /// still finds its store (``PrismStoreContext``): nothing passes through a reducer's type.
    ///
    /// ```swift
    /// let erased: PrismReduce<ProfileState, ProfileAction> = ProfileReducer().eraseToReduce()
    /// ```
    @inlinable
    nonisolated public func eraseToReduce() -> PrismReduce<State, Action> {
        PrismReduce(erasing: self)
    }

    /// This reducer followed by `middleware`: the middleware sees every action after this
    /// reducer has applied it, and the effects of both are merged. The same as listing the
    /// middleware after the reducer in a ``PrismCombineReducers`` block; attached here, it
    /// travels with the reducer wherever the feature is scoped.
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
    ) -> PrismReducerPair<Self, M> where M.State == State, M.Action == Action {
        PrismReducerPair(self, middleware)
    }
}
