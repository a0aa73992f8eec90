import Observation

/// A read-only, observable view of a value derived from a store's state.
///
/// Made by ``PrismStore/derive(_:)``. Observers of ``value`` are notified only when the
/// derived value changes (by `==`), not on every change of the store's state, which spares
/// SwiftUI views needless re-renders.
///
/// ```swift
/// struct UserListView: View {
///     let derived: PrismDerivedStore<AppState, [User]>
///
///     var body: some View {
///         List(derived.value) { user in Text(user.name) }
///     }
/// }
/// ```
@MainActor
@dynamicMemberLookup
public final class PrismDerivedStore<State: Sendable, Value: Equatable>: Observable {
    private let registrar: StateRegistrar
    private let reader: @MainActor () -> Value
    /// The store this value is derived from, kept alive as long as this view of it.
    private let core: AnyObject

    init<Action: Sendable>(core: any StoreCore<State, Action>, transform: @escaping (State) -> Value) {
        (registrar, reader) = core.makeReader(transform, isEqual: { $0 == $1 })
        self.core = core
    }

    /// The derived value, computed from the store's current state.
    public var value: Value {
        registrar.accessState()
        return reader()
    }

    /// Reads a property of the value: `derived.count` is `derived.value.count`.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        value[keyPath: keyPath]
    }
}
