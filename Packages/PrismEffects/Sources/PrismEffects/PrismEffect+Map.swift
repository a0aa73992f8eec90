extension PrismEffect {
    /// This effect, with every action it sends transformed by `transform`.
    ///
    /// Use it to embed a child feature's effect in its parent's:
    ///
    /// ```swift
    /// case .profile(let action):
    ///     return ProfileReducer().reduce(into: &state.profile, action: action).map(AppAction.profile)
    /// ```
    @inlinable
    public func map<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> PrismEffect<NewAction> {
        if storage == nil { return .none }
        return mapOperation(transform)
    }

    @usableFromInline
    func mapOperation<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> PrismEffect<NewAction> {
        switch operation {
        case .none:
            return .none
        case .send(let action):
            return .send(transform(action))
        case .sequence(let actions):
            return .sequence(actions.map(transform))
        case .run(let run):
            return PrismEffect<NewAction>(operation: .run(run.map(transform)))
        case .wait(let wait):
            return PrismEffect<NewAction>(operation: .wait(wait))
        case .merge(let effects):
            return PrismEffect<NewAction>(operation: .merge(effects.map { $0.map(transform) }))
        case .concatenate(let effects):
            return PrismEffect<NewAction>(operation: .concatenate(effects.map { $0.map(transform) }))
        case .cancellable(let id, let cancelInFlight, let effect):
            return PrismEffect<NewAction>(
                operation: .cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform))
            )
        case .cancel(let id):
            return PrismEffect<NewAction>(operation: .cancel(id))
        }
    }
}

extension PrismEffect.Run {
    fileprivate func map<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> PrismEffect<NewAction>.Run {
        let operation = self.operation
        let mappedOperation: @Sendable (Send<NewAction>) async throws -> Void = { send in
            try await operation(send.map(transform))
        }
        var mappedHandler: (@Sendable (any Error, Send<NewAction>) async -> Void)?
        if let handler {
            mappedHandler = { error, send in await handler(error, send.map(transform)) }
        }
        return PrismEffect<NewAction>.Run(
            priority: priority,
            operation: mappedOperation,
            handler: mappedHandler,
            fileID: fileID,
            line: line
        )
    }
}
