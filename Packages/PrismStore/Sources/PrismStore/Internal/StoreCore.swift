import Observation
@_spi(PrismInternals) import PrismEffects

/// What a `PrismStore` is built on: the root that owns the state, or a scope onto a root.
///
/// Abstract; see `RootCore` and `ScopedCore`.
@MainActor
@usableFromInline
class StoreCore<State: Sendable, Action: Sendable> {
    /// This store's own registrar: observers of a scoped store are told about changes to the
    /// scoped state only.
    @usableFromInline
    let registrar = ObservationRegistrar()

    @usableFromInline
    init() {}

    /// The current state, recorded as read by whoever observes this store.
    @usableFromInline
    var observedState: State { fatalError("StoreCore is abstract") }

    /// The current state, without recording an observation.
    @usableFromInline
    var currentState: State { fatalError("StoreCore is abstract") }

    func replaceState(_ state: State) { fatalError("StoreCore is abstract") }

    @usableFromInline
    func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState,
        write: ((inout State, ChildState) -> Void)?
    ) -> StoreCore<ChildState, ChildAction> {
        fatalError("StoreCore is abstract")
    }

    /// A closure that reads `project(state)` and makes `registrar`'s observers hear about the
    /// next change of that value (only of that value when it is `Equatable`).
    func makeReader<Value>(
        _ project: @escaping (State) -> Value,
        isEqual: ((Value, Value) -> Bool)?,
        registrar: ObservationRegistrar
    ) -> () -> Value {
        fatalError("StoreCore is abstract")
    }

    /// What member reads (`store.count`) and presence checks observe, each through a watcher
    /// of its own, by what they read.
    private var projections: [AnyHashable: AnyObject] = [:]
    /// The stores given out for children (collection elements, optional children), so that
    /// asking again gives the same store while it lives.
    private var childStores: [AnyHashable: WeakChildStore] = [:]
    private var childStoresAtLastSweep = 0

    /// `state[keyPath: keyPath]`, recorded as read of that member only: its observers hear
    /// about the next change of that member (of anything, when it is not `Equatable`).
    @usableFromInline
    func observedMember<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        observedProjection(key: keyPath, isEqual: equality(of: Value.self)) { $0[keyPath: keyPath] }
    }

    /// `project(state)`, recorded as read of that value only, under `key` (the same key must
    /// always mean the same projection).
    @usableFromInline
    func observedProjection<Value>(
        key: AnyHashable,
        isEqual: ((Value, Value) -> Bool)?,
        _ project: @escaping (State) -> Value
    ) -> Value {
        let reader: MemberReader<Value>
        if let existing = projections[key] {
            reader = unsafeDowncast(existing, to: MemberReader<Value>.self)
        } else {
            let registrar = ObservationRegistrar()
            reader = MemberReader(
                registrar: registrar, read: makeReader(project, isEqual: isEqual, registrar: registrar))
            projections[key] = reader
        }
        reader.registrar.accessState()
        return reader.read()
    }

    /// The child store kept under `key` if it is still alive and `isCurrent` accepts it, else
    /// the one `make` builds, kept from now on.
    @usableFromInline
    func childStore<Child: AnyObject>(
        key: AnyHashable,
        tag: AnyHashable? = nil,
        make: () -> Child
    ) -> Child {
        if let entry = childStores[key], entry.tag == tag, let existing = entry.store as? Child {
            return existing
        }
        let child = make()
        childStores[key] = WeakChildStore(store: child, tag: tag)
        if childStores.count > 64 && childStores.count > 2 * childStoresAtLastSweep {
            childStores = childStores.filter { $0.value.store != nil }
            childStoresAtLastSweep = childStores.count
        }
        return child
    }

    func cancelEffects<ID: Hashable & Sendable>(id: ID) { fatalError("StoreCore is abstract") }

    var unhandledEffectErrorHandler: (@Sendable (PrismEffectError) -> Void)? {
        get { fatalError("StoreCore is abstract") }
        set { fatalError("StoreCore is abstract") }
    }
}

/// The registrar and the reader of one member that a store's `subscript(dynamicMember:)` reads.
@MainActor
final class MemberReader<Value> {
    let registrar: ObservationRegistrar
    let read: () -> Value

    init(registrar: ObservationRegistrar, read: @escaping () -> Value) {
        self.registrar = registrar
        self.read = read
    }
}

/// A store given out for a child, kept only while somebody holds it.
struct WeakChildStore {
    weak var store: AnyObject?
    /// What the child was made for (an optional child's id): another tag needs another store.
    let tag: AnyHashable?
}
