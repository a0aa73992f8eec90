extension PrismEffect {
    /// This effect with every cancellation id inside it (of `cancellable(id:)`, `cancel(id:)`
    /// and `debounce(id:for:)`) made to belong to `scope`, and its actions transformed.
    ///
    /// Two copies of one child feature (two rows of a list, a detail shown twice) use the same
    /// cancellation ids in their reducers. Scoping each copy's effects by something that tells
    /// the copies apart (the row's id) keeps a row's `.cancel(id: Timer.self)` from cancelling
    /// another row's timer. Scopes nest: an id scoped twice belongs to both scopes, in order.
    /// `PrismForEach` and `PrismIfLet` in PrismStore do this for every child effect.
    ///
    /// ```swift
    /// let effect = RowReducer().reduce(into: &row, action: rowAction)
    ///     .map({ AppAction.row(id: row.id, action: $0) }, cancellationScope: RowScope(id: row.id))
    /// ```
    public func map<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction,
        cancellationScope scope: some Hashable & Sendable
    ) -> PrismEffect<NewAction> {
        if storage == nil { return .none }
        return mapOperation(transform, scope: PrismCancelID(scope))
    }

    func mapOperation<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction,
        scope: PrismCancelID
    ) -> PrismEffect<NewAction> {
        switch operation {
        case .merge(let effects):
            return PrismEffect<NewAction>(operation: .merge(effects.map { $0.mapOperation(transform, scope: scope) }))
        case .concatenate(let effects):
            return PrismEffect<NewAction>(
                operation: .concatenate(effects.map { $0.mapOperation(transform, scope: scope) }))
        case .cancellable(let id, let cancelInFlight, let effect):
            return PrismEffect<NewAction>(
                operation: .cancellable(
                    id.scoped(by: scope), cancelInFlight: cancelInFlight, effect.mapOperation(transform, scope: scope))
            )
        case .cancel(let id):
            return PrismEffect<NewAction>(operation: .cancel(id.scoped(by: scope)))
        case .none, .send, .sequence, .run, .wait:
            return mapOperation(transform)
        }
    }
}

extension PrismCancelID {
    /// This id, as it is inside `scope`: equal only to the same id inside the same scope.
    func scoped(by scope: PrismCancelID) -> PrismCancelID {
        PrismCancelID(ScopedCancelID(scope: scope, id: self))
    }
}

/// A cancellation id inside a scope (see `PrismEffect.map(_:cancellationScope:)`).
struct ScopedCancelID: Hashable, Sendable {
    let scope: PrismCancelID
    let id: PrismCancelID
}
