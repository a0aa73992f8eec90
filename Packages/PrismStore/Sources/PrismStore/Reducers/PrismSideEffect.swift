/// Middleware written as a closure.
///
/// ```swift
/// let logging = PrismSideEffect<CounterState, CounterAction> { state, action in
///     return .run { _ in print("Action: \(action), Count: \(state.count)") }
/// }
/// ```
public struct PrismSideEffect<State: Sendable, Action: Sendable>: PrismMiddleware {
    @usableFromInline
    let body: @MainActor @Sendable (State, Action) -> PrismEffect<Action>

    /// Creates middleware that runs `body` after every action.
    @inlinable
    nonisolated public init(_ body: @escaping @MainActor @Sendable (State, Action) -> PrismEffect<Action>) {
        self.body = body
    }

    /// Runs the closure this middleware was created with.
    @inlinable
    public func run(state: State, action: Action) -> PrismEffect<Action> {
        body(state, action)
    }

    /// Middleware that does nothing.
    nonisolated public static var none: Self {
        Self { _, _ in .none }
    }

    /// Middleware that runs every one of `sideEffects` for each action and merges their effects.
    ///
    /// They run in argument order; their effects run concurrently.
    nonisolated public static func combine(_ sideEffects: Self...) -> Self {
        combine(sideEffects)
    }

    /// Middleware that runs every one of `sideEffects` for each action and merges their effects.
    @inlinable
    nonisolated public static func combine(_ sideEffects: [Self]) -> Self {
        let bodies = sideEffects.map(\.body)
        return Self { state, action in
            var effects: [PrismEffect<Action>] = []
            effects.reserveCapacity(bodies.count)
            for body in bodies { effects.append(body(state, action)) }
            return .merge(effects)
        }
    }
}
