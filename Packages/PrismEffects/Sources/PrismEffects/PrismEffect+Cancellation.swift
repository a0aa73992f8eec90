extension PrismEffect {
    /// This effect, made cancellable with ``cancel(id:)``.
    ///
    /// Every task this effect starts is registered under `id` in the store that runs it, until
    /// it finishes. Ids are scoped to one store: two stores never cancel each other's effects.
    ///
    /// ```swift
    /// case .searchChanged(let query):
    ///     return .run { send in send(.results(try await api.search(query))) }
    ///         .cancellable(id: SearchID(), cancelInFlight: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: Any hashable value; a type of its own (`struct SearchID: Hashable {}`) avoids clashes.
    ///   - cancelInFlight: Whether to cancel effects already running under `id` before this one starts.
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
        if isNone && !cancelInFlight { return self }
        return Self(operation: .cancellable(PrismCancelID(id), cancelInFlight: cancelInFlight, self))
    }

    /// An effect that cancels every running effect registered under `id`.
    ///
    /// Cancellation is immediate: a cancelled effect's ``Send`` does nothing from then on, and
    /// actions it had sent that the store has not reduced yet are dropped.
    public static func cancel(id: some Hashable & Sendable) -> Self {
        Self(operation: .cancel(PrismCancelID(id)))
    }

    /// This effect, started only after `duration` has passed without another effect with the
    /// same `id` being started, measured on `clock`.
    ///
    /// Each new debounced effect with the same id cancels the one still waiting, so only the
    /// last of a burst runs: the search field case.
    ///
    /// ```swift
    /// case .queryChanged(let query):
    ///     state.query = query
    ///     return .send(.search).debounce(id: SearchID(), for: .milliseconds(300), clock: clock)
    /// ```
    ///
    /// `clock` can be any clock measured in `Duration`, also one of type `any Clock<Duration>`
    /// such as the one a store's dependencies give (`@Dependency(\.continuousClock)`), which
    /// is a `TestClock` in tests.
    public func debounce<C: Clock<Duration>>(
        id: some Hashable & Sendable,
        for duration: Duration,
        clock: C
    ) -> Self {
        debounced(id: id) { try await clock.sleep(for: duration) }
    }

    /// ``debounce(id:for:clock:)-(_,_,C)`` with a clock of type `any Clock<Duration>`.
    @_disfavoredOverload
    public func debounce(
        id: some Hashable & Sendable,
        for duration: Duration,
        clock: any Clock<Duration>
    ) -> Self {
        debounced(id: id) { try await clock.sleep(for: duration) }
    }

    /// This effect, started only after `duration` has passed without another effect with the
    /// same `id` being started, measured on the continuous clock.
    public func debounce(id: some Hashable & Sendable, for duration: Duration) -> Self {
        debounced(id: id) { try await ContinuousClock().sleep(for: duration) }
    }

    /// This effect after `wait`, cancelling the one with the same `id` still waiting.
    private func debounced(id: some Hashable & Sendable, wait: @escaping @Sendable () async throws -> Void) -> Self {
        if isNone { return self }
        return Self.concatenate([Self(operation: .wait(wait)), self]).cancellable(id: id, cancelInFlight: true)
    }
}

/// A type-erased cancellation id.
struct PrismCancelID: Hashable, @unchecked Sendable {
    // Only built from `some Hashable & Sendable` values, so the box is sendable.
    let base: AnyHashable

    init(_ base: some Hashable & Sendable) {
        self.base = AnyHashable(base)
    }
}
