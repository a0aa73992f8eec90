/// Builds one reducer out of several, listed one per line: they run in order, each on the
/// state the previous one left, and their effects are merged.
///
/// Used by ``PrismFeature/body`` and ``PrismCombineReducers``, and by the child-feature
/// closures of ``PrismScope``, ``PrismReducer/ifLet(_:action:toChildAction:then:fileID:filePath:line:column:)->PrismIfLet<Self,Child,PrismNoChildID>``
/// and ``PrismReducer/forEach(_:action:toElementAction:element:fileID:filePath:line:column:)``.
/// `if`, `if`/`else`, `switch` and `for` work as in any result builder.
///
/// ```swift
/// var body: some PrismReducer<AppState, AppAction> {
///     PrismScope(state: \.settings, action: AppAction.settings) {
///         SettingsReducer()
///     }
///     AppCoreReducer()
///     if isLoggingEnabled {
///         LoggingReducer()
///     }
/// }
/// ```
@resultBuilder
public enum PrismReducerBuilder<State: Sendable, Action: Sendable> {
    /// A reducer, as one line of the block.
    @inlinable
    public static func buildExpression<R: PrismReducer>(_ reducer: R) -> R
    where R.State == State, R.Action == Action {
        reducer
    }

    /// An empty block: a reducer that does nothing.
    @inlinable
    public static func buildBlock() -> PrismEmptyReducer<State, Action> {
        PrismEmptyReducer()
    }

    /// The first line of a block.
    @inlinable
    public static func buildPartialBlock<R: PrismReducer>(first: R) -> R
    where R.State == State, R.Action == Action {
        first
    }

    /// The lines so far, then the next one.
    @inlinable
    public static func buildPartialBlock<R0: PrismReducer, R1: PrismReducer>(
        accumulated: R0,
        next: R1
    ) -> PrismReducerPair<R0, R1>
    where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
        PrismReducerPair(accumulated, next)
    }

    /// An `if` without `else`: the reducer when the condition held.
    @inlinable
    public static func buildOptional<R: PrismReducer>(_ reducer: R?) -> PrismOptionalReducer<R>
    where R.State == State, R.Action == Action {
        PrismOptionalReducer(reducer)
    }

    /// The first branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither<First: PrismReducer, Second: PrismReducer>(
        first: First
    ) -> PrismConditionalReducer<First, Second>
    where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
        .first(first)
    }

    /// The second branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither<First: PrismReducer, Second: PrismReducer>(
        second: Second
    ) -> PrismConditionalReducer<First, Second>
    where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
        .second(second)
    }

    /// The reducers of a `for` loop, run in order.
    @inlinable
    public static func buildArray<R: PrismReducer>(_ reducers: [R]) -> PrismReducerArray<R>
    where R.State == State, R.Action == Action {
        PrismReducerArray(reducers)
    }

    /// A reducer under `if #available`, type-erased.
    @inlinable
    public static func buildLimitedAvailability<R: PrismReducer>(_ reducer: R) -> PrismReduce<State, Action>
    where R.State == State, R.Action == Action {
        reducer.eraseToReduce()
    }
}

/// A reducer that does nothing: what an empty ``PrismReducerBuilder`` block builds.
public struct PrismEmptyReducer<State: Sendable, Action: Sendable>: PrismReducer {
    /// Creates a reducer that changes nothing and returns no effect.
    @inlinable
    nonisolated public init() {}

    /// Changes nothing; returns no effect.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        .none
    }
}

/// Two reducers run one after the other on the same state, their effects merged: what two lines
/// of a ``PrismReducerBuilder`` block build, and what ``PrismReducer/handling(with:)`` returns
/// (a middleware is the second reducer, after the one it follows).
public struct PrismReducerPair<First: PrismReducer, Second: PrismReducer>: PrismReducer
where First.State == Second.State, First.Action == Second.Action {
    /// The state it runs on.
    public typealias State = First.State
    /// The actions it handles.
    public typealias Action = First.Action

    @usableFromInline
    let first: First
    @usableFromInline
    let second: Second

    /// Runs `first`, then `second`.
    @inlinable
    nonisolated public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    /// Runs the reducers for `action`, as described above. Always inlined, like
    /// ``PrismScope/reduce(into:action:)``: a body's lines then run where the body is built,
    /// with nothing of them copied.
    @inlinable
    @inline(__always)
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        let firstEffect = first.reduce(into: &state, action: action)
        return firstEffect.merge(with: second.reduce(into: &state, action: action))
    }
}

/// A reducer that runs only when it is there: what an `if` without `else` builds.
public struct PrismOptionalReducer<Wrapped: PrismReducer>: PrismReducer {
    /// The state it runs on.
    public typealias State = Wrapped.State
    /// The actions it handles.
    public typealias Action = Wrapped.Action

    @usableFromInline
    let wrapped: Wrapped?

    /// Runs `wrapped` when it is not nil.
    @inlinable
    nonisolated public init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        wrapped?.reduce(into: &state, action: action) ?? .none
    }
}

/// One of two reducers: what `if`/`else` and `switch` build.
public enum PrismConditionalReducer<First: PrismReducer, Second: PrismReducer>: PrismReducer
where First.State == Second.State, First.Action == Second.Action {
    /// The state it runs on.
    public typealias State = First.State
    /// The actions it handles.
    public typealias Action = First.Action

    /// The reducer of the first branch.
    case first(First)
    /// The reducer of the second branch.
    case second(Second)

    /// Runs the reducer of the branch taken.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch self {
        case .first(let first): first.reduce(into: &state, action: action)
        case .second(let second): second.reduce(into: &state, action: action)
        }
    }
}

/// Reducers of one type, run in order: what a `for` loop builds.
public struct PrismReducerArray<Element: PrismReducer>: PrismReducer {
    /// The state it runs on.
    public typealias State = Element.State
    /// The actions it handles.
    public typealias Action = Element.Action

    @usableFromInline
    let reducers: [Element]

    /// Runs each of `reducers`, in order.
    @inlinable
    nonisolated public init(_ reducers: [Element]) {
        self.reducers = reducers
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        var effect = PrismEffect<Action>.none
        for reducer in reducers { effect = effect.merge(with: reducer.reduce(into: &state, action: action)) }
        return effect
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
