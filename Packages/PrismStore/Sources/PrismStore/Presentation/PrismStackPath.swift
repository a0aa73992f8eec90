import PrismSupport

/// An entry of a navigation path bound to a ``PrismStackState``: an element of the stack (by
/// its id), or a screen a link pushes (`NavigationLink(state:)`), which becomes an element when
/// the store takes the push.
///
/// Equal and hashed by what it points at (the element's id; the link's own token), never by the
/// state it carries, so element states need not be `Hashable`.
public struct PrismStackPathItem<Element: Sendable>: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case element(PrismStackElementID)
        case link(UInt64)
    }

    let kind: Kind
    /// The state a link pushes; nil for an element.
    public let pushed: Element?

    /// The entry of the element under `id`.
    public init(element id: PrismStackElementID) {
        kind = .element(id)
        pushed = nil
    }

    /// An entry that pushes `state` when a navigation link appends it to the path.
    public init(pushing state: Element) {
        kind = .link(
            linkTokens.withLock {
                $0 += 1
                return $0
            })
        pushed = state
    }

    /// The id of the element it is, nil for a link's push not taken yet.
    public var id: PrismStackElementID? {
        if case .element(let id) = kind { return id }
        return nil
    }

    /// Whether both point at the same element, or are the same link's push.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    /// Hashes what it points at.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// The tokens of links' pushes: each push is its own entry, even of equal states.
private let linkTokens = PrismLocked<UInt64>(0)

/// A ``PrismStackState`` as a navigation path: what SwiftUI's `NavigationStack(path:)` reads and
/// writes, turned into the stack's actions.
///
/// ```swift
/// let path = store.stackPath(state: \.path, action: AppAction.path)
/// path.items                            // the elements' entries, bottom first
/// path.setItems(Array(path.items.dropLast()))  // the back button: sends .path(.popFrom(id:))
/// path.store(for: path.items[0])        // the bottom screen's store
/// ```
///
/// | What the new path is | What the store is sent |
/// |---|---|
/// | the same entries | nothing |
/// | the first `k` entries (back button, swipe, a long press on back) | `.popFrom(id:)` of the entry after them |
/// | the same entries and links' pushes after them | `.push(id:state:)` of each, under the id the stack gives next |
/// | the first `k` entries and links' pushes | the pop, then the pushes |
/// | an entry that is not in the stack, after the kept ones | ignored (not a push of a state) |
@MainActor
public struct PrismStackPath<ElementState: Sendable, ElementAction: Sendable>: Sendable {
    private let stack: @MainActor @Sendable () -> PrismStackState<ElementState>
    private let elementStore: @MainActor @Sendable (PrismStackElementID) -> PrismStore<ElementState, ElementAction>?
    private let sendStack: @MainActor @Sendable (PrismStackAction<ElementState, ElementAction>) -> Void

    init(
        stack: @escaping @MainActor @Sendable () -> PrismStackState<ElementState>,
        store: @escaping @MainActor @Sendable (PrismStackElementID) -> PrismStore<ElementState, ElementAction>?,
        send: @escaping @MainActor @Sendable (PrismStackAction<ElementState, ElementAction>) -> Void
    ) {
        self.stack = stack
        self.elementStore = store
        self.sendStack = send
    }

    /// The entries of the stack's elements, bottom first. Observed: a view that reads it is
    /// drawn again when an element is pushed or popped, not when an element's state changes.
    public var items: [PrismStackPathItem<ElementState>] {
        stack().ids.map { PrismStackPathItem(element: $0) }
    }

    /// The store of the element `item` is, nil when it is not in the stack (popped, or a link's
    /// push the store has not taken).
    public func store(for item: PrismStackPathItem<ElementState>) -> PrismStore<ElementState, ElementAction>? {
        item.id.flatMap(elementStore)
    }

    /// Makes the stack what `newItems` says, by sending the pop and the pushes of the table
    /// above: what SwiftUI's back button and `NavigationLink(state:)` do.
    public func setItems(_ newItems: [PrismStackPathItem<ElementState>]) {
        let current = stack()
        let kept = zip(current.ids, newItems).prefix { $0 == $1.id }.count
        if kept < current.ids.count {
            sendStack(.popFrom(id: current.ids[kept]))
        }
        for pushed in newItems.dropFirst(kept).compactMap(\.pushed) {
            sendStack(.push(id: stack().nextElementID, state: pushed))
        }
    }
}

extension PrismStore {
    /// The navigation stack at `state`, whose actions reach this store as `action(...)`, as a
    /// navigation path (``PrismStackPath``): what SwiftUI's `NavigationStack(path:root:destination:)`
    /// takes.
    ///
    /// ```swift
    /// NavigationStack(path: store.stackPath(state: \.path, action: AppAction.path)) {
    ///     ListView(store: store)
    /// } destination: { screen in
    ///     DetailView(store: screen)
    /// }
    /// ```
    ///
    /// The parent's reducer runs the elements with
    /// ``PrismReducer/forEach(_:action:toStackAction:element:fileID:filePath:line:column:)``.
    public func stackPath<ElementState: Sendable, ElementAction: Sendable>(
        state toStack: KeyPath<State, PrismStackState<ElementState>> & Sendable,
        action fromStackAction: @escaping @Sendable (PrismStackAction<ElementState, ElementAction>) -> Action
    ) -> PrismStackPath<ElementState, ElementAction> {
        PrismStackPath(
            stack: { [self] in
                // The ids, observed on their own: pushes and pops, not the elements' changes.
                _ = core.observedProjection(key: PrismStackIDsKey(path: toStack), isEqual: { $0 == $1 }) {
                    $0[keyPath: toStack].ids
                }
                return core.currentState[keyPath: toStack]
            },
            store: { [self] id in
                scope(state: toStack, id: id, action: { fromStackAction(.element(id: $0, action: $1)) })
            },
            send: { [self] in send(fromStackAction($0)) }
        )
    }
}

/// The key of the observed ids of a stack.
struct PrismStackIDsKey: Hashable {
    let path: AnyKeyPath
}
