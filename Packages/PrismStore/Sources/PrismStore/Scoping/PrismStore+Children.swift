extension PrismStore {
    /// A store for the element with `id` of an identified collection in this store's state
    /// (``PrismRows``, `IdentifiedArray`, or an array of `Identifiable` elements such as a
    /// navigation stack):
    /// a row's store, for a row view; a pushed screen's store.
    ///
    /// ```swift
    /// ForEach(store.rows.ids, id: \.self) { id in
    ///     if let row = store.scope(state: \.rows, id: id, action: ListAction.row) {
    ///         RowView(store: row)
    ///     }
    /// }
    /// ```
    ///
    /// Returns nil when no element has `id`. Asking again for the same collection and id gives
    /// the same store while somebody holds it, so a row view keeps its store across renders.
    /// Its state is the element's; its sends go to this store as `action(id, elementAction)`,
    /// which ``PrismReducer/forEach(_:action:toElementAction:element:fileID:filePath:line:column:)``
    /// routes to the element's reducer. Its observers hear about changes of that element only.
    /// After the element is removed, the store keeps showing the element as it was when last
    /// read (a view on its way out still has what it drew). Rows nobody asked a store for cost
    /// nothing.
    @inlinable
    public func scope<Elements: PrismIdentifiedCollection, ElementAction: Sendable>(
        state toElements: KeyPath<State, Elements>,
        id: Elements.ID,
        action fromElementAction: @escaping (Elements.ID, ElementAction) -> Action
    ) -> PrismStore<Elements.Element, ElementAction>? where Elements.Element: Sendable, Elements.ID: Sendable {
        typealias ElementState = Elements.Element
        guard let initial = core.currentState[keyPath: toElements][prismID: id] else { return nil }
        let core = self.core
        let parentSend = sendAction
        let trace = self.trace
        return core.childStore(key: PrismChildPlace(path: toElements, id: id)) {
            let lastKnown = PrismLastKnownState(initial)
            var write: ((inout State, ElementState) -> Void)?
            if let writable = toElements as? WritableKeyPath<State, Elements> {
                write = { state, element in
                    if state[keyPath: writable][prismID: id] != nil { state[keyPath: writable][prismID: id] = element }
                }
            }
            let elementCore: any StoreCore<ElementState, ElementAction> = core.scope(
                state: { state in
                    guard let element = state[keyPath: toElements][prismID: id] else { return lastKnown.value }
                    lastKnown.value = element
                    return element
                },
                path: nil,
                write: write
            )
            return PrismStore<ElementState, ElementAction>(
                core: elementCore,
                send: { parentSend(fromElementAction(id, $0)) },
                read: { elementCore.observedState },
                trace: trace
            )
        }
    }

    /// A store for an optional child feature (a detail, a sheet) while its state is there.
    ///
    /// ```swift
    /// if let detail = store.scope(state: \.detail, action: AppAction.detail) {
    ///     DetailView(store: detail)
    /// }
    /// ```
    ///
    /// Returns nil while the child state is nil. The read is observed: a view that asks is
    /// re-rendered when the child appears or goes away (or, for an `Identifiable` child state,
    /// when another child takes its place), not when the child's state changes. Asking again
    /// gives the same store while the same child is there and somebody holds the store. After
    /// the child goes away, the store keeps showing its state as it was when last read. Its sends go to this store
    /// as `action(childAction)`, which
    /// ``PrismReducer/ifLet(_:action:toChildAction:then:fileID:filePath:line:column:)->PrismIfLet<Self,Child,PrismNoChildID>`` routes
    /// to the child's reducer.
    @inlinable
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: KeyPath<State, ChildState?>,
        action fromChildAction: @escaping (ChildAction) -> Action
    ) -> PrismStore<ChildState, ChildAction>? {
        guard let identity = observedPresence(toChildState), let initial = core.currentState[keyPath: toChildState]
        else { return nil }
        let core = self.core
        let parentSend = sendAction
        let trace = self.trace
        return core.childStore(key: PrismChildPlace(path: toChildState, id: nil), tag: identity) {
            let lastKnown = PrismLastKnownState(initial)
            var write: ((inout State, ChildState) -> Void)?
            if let writable = toChildState as? WritableKeyPath<State, ChildState?> {
                write = { state, child in
                    if state[keyPath: writable] != nil { state[keyPath: writable] = child }
                }
            }
            return Self.scoped(
                core,
                state: { state in
                    guard let child = state[keyPath: toChildState] else { return lastKnown.value }
                    lastKnown.value = child
                    return child
                },
                path: nil, write: write, send: parentSend, action: fromChildAction, trace: trace
            )
        }
    }
}

extension PrismStore {
    /// Whether the optional child at `toChildState` is there, and its identity when its state is
    /// `Identifiable` (nil inside): read observed, so that a reader is told when the child comes,
    /// goes, or another takes its place, not when its state changes. Outer nil: not there.
    @inlinable
    func observedPresence<ChildState>(_ toChildState: KeyPath<State, ChildState?>) -> AnyHashable?? {
        core.observedProjection(
            key: PrismPresenceKey(path: toChildState),
            isEqual: { $0 == $1 },
            { $0[keyPath: toChildState].map { ($0 as? any Identifiable)?.prismAnyID } }
        )
    }
}

/// The last state a child store saw of its child, shown after the child goes away.
@MainActor
@usableFromInline
final class PrismLastKnownState<Value> {
    @usableFromInline var value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}

/// The key of the observed presence (and identity) of an optional child.
@usableFromInline
struct PrismPresenceKey: Hashable {
    @usableFromInline let path: AnyKeyPath

    @usableFromInline
    init(path: AnyKeyPath) {
        self.path = path
    }
}

extension Identifiable {
    /// The id, type-erased.
    @usableFromInline
    var prismAnyID: AnyHashable { AnyHashable(id) }
}
