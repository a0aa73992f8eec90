import Observation
@_spi(PrismInternals) import PrismEffects
import PrismSupport

/// What a `PrismStore` is built on: the root that owns the state (`RootCore`), or a scope onto
/// a root (`ScopedCore`).
@MainActor
@usableFromInline
protocol StoreCore<State, Action>: AnyObject {
    associatedtype State: Sendable
    associatedtype Action: Sendable

    /// This store's own registrar: observers of a scoped store are told about changes to the
    /// scoped state only.
    var registrar: StateRegistrar { get }

    /// The readers of members and the child stores this store gave out.
    var reads: StoreReads { get }

    /// This core when it owns the state (a root store), else nil: what tools that watch every
    /// reduce, a store's dependencies and its effect executor attach to.
    var root: RootCore<State, Action>? { get }

    /// The current state, recorded as read by whoever observes this store.
    var observedState: State { get }

    /// The current state, without recording an observation.
    var currentState: State { get }

    func replaceState(_ state: State)

    /// A core onto the part `toChildState` reads, written back through `write` when given.
    /// `path`, when the part is a key path's, is what a scope of that scope composes its own
    /// key path with: one key path from the root down, instead of a closure per level.
    func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState,
        path: KeyPath<State, ChildState>?,
        write: ((inout State, ChildState) -> Void)?
    ) -> any StoreCore<ChildState, ChildAction>

    /// A closure that reads `project(state)` and makes the observers of the registrar returned
    /// with it hear about the next change of that value (only of that value when `isEqual` is
    /// given).
    func makeReader<Value>(
        _ project: @escaping (State) -> Value,
        isEqual: ((Value, Value) -> Bool)?
    ) -> (registrar: StateRegistrar, read: @MainActor () -> Value)

    func cancelEffects<ID: Hashable & Sendable>(id: ID)

    var unhandledEffectErrorHandler: (@Sendable (PrismEffectError) -> Void)? { get set }
}

extension StoreCore {
    /// `state[keyPath: keyPath]`, recorded as read of that member only: its observers hear
    /// about the next change of that member (of anything, when it is not `Equatable`).
    /// A root store has its own, specialized further (`RootCore.observedMember`).
    ///
    /// Inlined into `PrismStore`'s member subscript and specialized for the member's type. A
    /// view reads the same member again after each change: that key path (by identity) finds
    /// its reader without hashing.
    @inlinable
    func observedMember<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        let reads = self.reads
        let reader: MemberReader<Value>
        if reads.lastMemberKeyPath === keyPath, let last = reads.lastMemberReader {
            reader = unsafeDowncast(last, to: MemberReader<Value>.self)
        } else {
            reader = projectionReader(key: keyPath, isEqual: equality(of: Value.self)) { $0[keyPath: keyPath] }
            reads.lastMemberKeyPath = keyPath
            reads.lastMemberReader = reader
        }
        reader.registrar.accessState()
        return reader.read()
    }

    /// `project(state)`, recorded as read of that value only, under `key` (the same key must
    /// always mean the same projection).
    @inlinable
    func observedProjection<Value>(
        key: AnyHashable,
        isEqual: ((Value, Value) -> Bool)?,
        _ project: @escaping (State) -> Value
    ) -> Value {
        let reader = projectionReader(key: key, isEqual: isEqual, project)
        reader.registrar.accessState()
        return reader.read()
    }

    /// The reader kept under `key`, made from `project` the first time.
    @inlinable
    func projectionReader<Value>(
        key: AnyHashable,
        isEqual: @autoclosure () -> ((Value, Value) -> Bool)?,
        _ project: @escaping (State) -> Value
    ) -> MemberReader<Value> {
        if let existing = reads.projections[key] {
            return unsafeDowncast(existing, to: MemberReader<Value>.self)
        }
        let made = makeReader(project, isEqual: isEqual())
        let reader = MemberReader(registrar: made.registrar, read: made.read)
        reads.projections[key] = reader
        return reader
    }

    /// The child store kept under `key` if it is still alive and `tag` matches, else the one
    /// `make` builds, kept from now on.
    @inlinable
    func childStore<Child: AnyObject>(
        key: AnyHashable,
        tag: AnyHashable? = nil,
        make: () -> Child
    ) -> Child {
        if let existing = reads.childStore(key: key, tag: tag) as? Child {
            return existing
        }
        let child = make()
        reads.keepChildStore(child, key: key, tag: tag)
        return child
    }
}

/// What a core keeps for the reads made through it: a reader per member or projection read,
/// and the stores given out for children.
@MainActor
@usableFromInline
final class StoreReads {
    /// The key path of the last member read and its reader (a view re-reads the member it read
    /// after each change: found by identity, without hashing the key path).
    @usableFromInline
    var lastMemberKeyPath: AnyKeyPath?
    @usableFromInline
    var lastMemberReader: AnyObject?
    /// Every member or projection reader, by key.
    @usableFromInline
    var projections: [AnyHashable: AnyObject] = [:]
    /// The stores given out for children (collection elements, optional children), so that
    /// asking again gives the same store while it lives.
    private var childStores: [AnyHashable: WeakChildStore] = [:]
    private var childStoresAtLastSweep = 0

    @usableFromInline
    init() {}

    @usableFromInline
    func childStore(key: AnyHashable, tag: AnyHashable?) -> AnyObject? {
        guard let entry = childStores[key], entry.tag == tag else { return nil }
        return entry.store
    }

    @usableFromInline
    func keepChildStore(_ child: AnyObject, key: AnyHashable, tag: AnyHashable?) {
        childStores[key] = WeakChildStore(store: child, tag: tag)
        if childStores.count > 64 && childStores.count > 2 * childStoresAtLastSweep {
            childStores = childStores.filter { $0.value.store != nil }
            childStoresAtLastSweep = childStores.count
        }
    }
}

/// The registrar and the reader of one member that a store's `subscript(dynamicMember:)` reads.
@MainActor
@usableFromInline
final class MemberReader<Value> {
    @usableFromInline
    let registrar: StateRegistrar
    @usableFromInline
    let read: @MainActor () -> Value

    @usableFromInline
    init(registrar: StateRegistrar, read: @escaping @MainActor () -> Value) {
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
