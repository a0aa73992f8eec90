/// A reducer that runs with some dependencies set: what ``PrismReducer/dependency(_:_:)`` returns.
///
/// The values hold while the base reducer reduces: everything it reads through `@Dependency`,
/// and so every value an effect closure captures from there (`.run { [clock] send in ... }`).
public struct PrismDependencyReducer<Base: PrismReducer>: PrismReducer {
    /// The reducer that runs with the values.
    public let base: Base
    /// Sets the values.
    @usableFromInline
    let update: @Sendable (inout DependencyValues) -> Void

    /// Creates a reducer that runs `base` with the dependencies `update` sets.
    @inlinable
    public init(_ base: Base, update: @escaping @Sendable (inout DependencyValues) -> Void) {
        self.base = base
        self.update = update
    }

    /// Runs the base reducer with the dependencies set.
    @inlinable
    public func reduce(into state: inout Base.State, action: Base.Action) -> PrismEffect<Base.Action> {
        withDependencies(update) { base.reduce(into: &state, action: action) }
    }
}

extension PrismReducer {
    /// This reducer with the dependency at `keyPath` set to `value` while it reduces: how a
    /// parent gives one child feature its own clock, or a preview a fixed date.
    ///
    /// ```swift
    /// SearchFeature()
    ///     .dependency(\.continuousClock, ImmediateClock())
    /// ```
    @inlinable
    public func dependency<Value: Sendable>(
        _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
    ) -> PrismDependencyReducer<Self> {
        PrismDependencyReducer(self) { $0[keyPath: keyPath] = value }
    }
}
