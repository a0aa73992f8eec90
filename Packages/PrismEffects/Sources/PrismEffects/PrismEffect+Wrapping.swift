extension PrismEffect {
    /// This effect with the work of every `.run` inside it (its operation and its error handler)
    /// done inside `wrap`, which gets the run's `send` and the work to do: how a presented
    /// feature's effects find their `dismiss()` (a task-local value set around the work).
    ///
    /// Part of Prism's own plumbing (`@_spi(PrismInternals)`), not a stable API.
    @_spi(PrismInternals)
    public func wrappingRuns(
        _ wrap: @escaping @Sendable (Send<Action>, @Sendable () async throws -> Void) async throws -> Void
    ) -> Self {
        switch operation {
        case .none, .send, .sequence, .wait, .cancel:
            return self
        case .run(let run):
            let operation = run.operation
            var handler: (@Sendable (any Error, Send<Action>) async -> Void)?
            if let original = run.handler {
                handler = { error, send in try? await wrap(send) { await original(error, send) } }
            }
            return Self(
                operation: .run(
                    Run(
                        priority: run.priority,
                        operation: { send in try await wrap(send) { try await operation(send) } },
                        handler: handler, fileID: run.fileID, line: run.line)))
        case .merge(let effects):
            return Self(operation: .merge(effects.map { $0.wrappingRuns(wrap) }))
        case .concatenate(let effects):
            return Self(operation: .concatenate(effects.map { $0.wrappingRuns(wrap) }))
        case .cancellable(let id, let cancelInFlight, let effect):
            return Self(operation: .cancellable(id, cancelInFlight: cancelInFlight, effect.wrappingRuns(wrap)))
        }
    }
}
