import Observation
@_spi(PrismInternals) import PrismEffects
import PrismSupport

/// A store that is a view onto part of a root store.
///
/// It owns no state: reading projects the root's state, and `PrismStore` sends through a
/// closure chain specialized for each level's types, ending in the root's inlined send. Its
/// observers hear about changes of the projected state only, and only while they look (see
/// `ProjectionWatcher`): a root with a thousand scoped stores does not visit them on every send.
///
/// A scope of a scope composes its projection with this one's. When both are key paths (every
/// level scoped with `state: \.child`), the key paths compose into one (`path`): a projection ten
/// levels down is one key path read, and a write one key path write. A closure per level copies
/// each level's state through generic code on the way down (and back up, to write): a send and a
/// read of a store scoped ten times so took 5.1-5.3x those of the store scoped in one step, and take
/// 1.6x with the key paths composed (`make bench ARGS="--filter scope"`).
final class ScopedCore<RootState: Sendable, RootAction: Sendable, State: Sendable, Action: Sendable>: StoreCore {
    let registrar: StateRegistrar
    let reads = StoreReads()
    private let rootCore: RootCore<RootState, RootAction>
    private let toState: (RootState) -> State
    /// The key path from the root's state to this one, when every level was scoped by one.
    private let path: KeyPath<RootState, State>?
    private let write: ((inout RootState, State) -> Void)?
    private let reader: @MainActor () -> State

    init(
        root: RootCore<RootState, RootAction>,
        toState: @escaping (RootState) -> State,
        path: KeyPath<RootState, State>?,
        write: ((inout RootState, State) -> Void)?
    ) {
        self.rootCore = root
        self.toState = toState
        self.path = path
        self.write = write
        (registrar, reader) = root.makeReader(toState, isEqual: equality(of: State.self))
    }

    func cancelEffects<ID: Hashable & Sendable>(id: ID) {
        rootCore.cancelEffects(id: id)
    }

    var unhandledEffectErrorHandler: (@Sendable (PrismEffectError) -> Void)? {
        get { rootCore.unhandledEffectErrorHandler }
        set { rootCore.unhandledEffectErrorHandler = newValue }
    }

    /// Nil: a scope owns no state.
    var root: RootCore<State, Action>? { nil }

    var observedState: State {
        registrar.accessState()
        return reader()
    }

    var currentState: State { toState(rootCore.currentState) }

    func replaceState(_ state: State) {
        guard let write else {
            preconditionFailure(
                """
                replaceState(with:) on a store scoped with a closure or a read-only key path cannot write \
                back to its parent. Scope with a WritableKeyPath (store.scope(state: \\.child, action: ...)), \
                or call replaceState(with:) on the parent store.
                """
            )
        }
        rootCore.mutate { write(&$0, state) }
        rootCore.appReplacedState()
    }

    func makeReader<Value>(
        _ project: @escaping (State) -> Value,
        isEqual: ((Value, Value) -> Bool)?
    ) -> (registrar: StateRegistrar, read: @MainActor () -> Value) {
        let toState = self.toState
        return rootCore.makeReader({ project(toState($0)) }, isEqual: isEqual)
    }

    func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState,
        path childPath: KeyPath<State, ChildState>?,
        write childWrite: ((inout State, ChildState) -> Void)?
    ) -> any StoreCore<ChildState, ChildAction> {
        if let path, let childPath {
            let composed = path.appending(path: childPath)
            var composedWrite: ((inout RootState, ChildState) -> Void)?
            if write != nil, childWrite != nil, let writable = composed as? WritableKeyPath<RootState, ChildState> {
                composedWrite = { $0[keyPath: writable] = $1 }
            }
            return ScopedCore<RootState, RootAction, ChildState, ChildAction>(
                root: rootCore, toState: { $0[keyPath: composed] }, path: composed, write: composedWrite)
        }
        let toState = self.toState
        var composedWrite: ((inout RootState, ChildState) -> Void)?
        if let write, let childWrite {
            composedWrite = { root, child in
                var state = toState(root)
                childWrite(&state, child)
                write(&root, state)
            }
        }
        return ScopedCore<RootState, RootAction, ChildState, ChildAction>(
            root: rootCore,
            toState: { toChildState(toState($0)) },
            path: nil,
            write: composedWrite
        )
    }
}
