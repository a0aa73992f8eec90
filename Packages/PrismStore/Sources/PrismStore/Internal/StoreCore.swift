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

    /// What a member read (`store.count`) observes: the member, through a watcher of its own.
    private var memberReaders: [AnyKeyPath: AnyObject] = [:]

    /// `state[keyPath: keyPath]`, recorded as read of that member only: its observers hear
    /// about the next change of that member (of anything, when it is not `Equatable`).
    @usableFromInline
    func observedMember<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        let member: MemberReader<Value>
        if let existing = memberReaders[keyPath] {
            member = unsafeDowncast(existing, to: MemberReader<Value>.self)
        } else {
            let registrar = ObservationRegistrar()
            member = MemberReader(
                registrar: registrar,
                read: makeReader({ $0[keyPath: keyPath] }, isEqual: equality(of: Value.self), registrar: registrar)
            )
            memberReaders[keyPath] = member
        }
        member.registrar.accessState()
        return member.read()
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
