@_spi(PrismInternals) import PrismEffects

extension PrismEffect {
    /// A presented feature's effect (a sheet's, a stack element's) as its parent runs it: its
    /// actions embedded in the parent's, its cancellation ids scoped to `place` and the whole of
    /// it cancellable there (the feature's dismissal cancels it), and `dismiss()` in it sending
    /// the parent `dismissal`.
    func presented<ParentAction: Sendable>(
        at place: PrismChildPlace, embed: @escaping @Sendable (Action) -> ParentAction, dismissal: ParentAction
    ) -> PrismEffect<ParentAction> {
        if isNone { return .none }
        return map(embed, cancellationScope: place)
            .cancellable(id: place)
            .wrappingRuns { send, work in
                try await PrismDismissEffect.$current.withValue({ send(dismissal) }) { try await work() }
            }
    }
}
