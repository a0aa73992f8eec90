import OrderedCollections

/// A collection whose elements a child feature can run for, addressed by id: what
/// ``PrismReducer/forEach(_:action:toElementAction:element:fileID:filePath:line:column:)`` and
/// ``PrismStore/scope(state:id:action:)`` work on.
///
/// Three collections are: ``PrismRows`` (the rows of a list: O(log n) by id, and copies that
/// share storage, so history and scoped stores stay fast at any size), `IdentifiedArray` (O(1)
/// by id; a copy kept by history is copied whole by the next change) and an `Array` of
/// `Identifiable` elements (a navigation stack, `PrismNavigationState.stack`: found by a linear
/// search, fine for the few screens of a stack). The members are what `forEach` needs; call them only to write a
/// conformance of your own.
public protocol PrismIdentifiedCollection<ID, Element> {
    /// What tells elements apart.
    associatedtype ID: Hashable
    /// An element.
    associatedtype Element
    /// The ids of the elements, cheap to keep across a change and to compare with the ids
    /// after it when nothing was added or removed.
    associatedtype IDs: Equatable

    /// The ids of the elements now.
    var prismIDs: IDs { get }

    /// The ids in `before` that are no longer in this collection.
    func prismIDs(removedSince before: IDs) -> [ID]

    /// The element with `id`, or nil; setting changes that element in place.
    subscript(prismID id: ID) -> Element? { get set }

    /// Calls `body` with the element with `id`, in place, and returns its result; returns nil
    /// without calling it when no element has `id`. The default goes through
    /// ``subscript(prismID:)``; a collection that can lend its element without copying it
    /// implements this (what a row's action runs through in `forEach`).
    mutating func prismModify<Result>(id: ID, _ body: (inout Element) throws -> Result) rethrows -> Result?
}

extension PrismIdentifiedCollection {
    /// Changes the element through ``subscript(prismID:)``.
    @inlinable
    public mutating func prismModify<Result>(id: ID, _ body: (inout Element) throws -> Result) rethrows -> Result? {
        guard self[prismID: id] != nil else { return nil }
        return try body(&self[prismID: id]!)
    }
}

extension IdentifiedArray: PrismIdentifiedCollection {
    /// The ids, as the array keeps them (O(1)).
    @inlinable
    public var prismIDs: OrderedSet<ID> { ids }

    /// The ids in `before` that are no longer here.
    @inlinable
    public func prismIDs(removedSince before: OrderedSet<ID>) -> [ID] {
        before.filter { self.ids.contains($0) == false }
    }

    /// The element with `id`, in place.
    @inlinable
    public subscript(prismID id: ID) -> Element? {
        _read { yield self[id: id] }
        _modify { yield &self[id: id] }
    }
}

extension Array: PrismIdentifiedCollection where Element: Identifiable {
    /// The ids, in order (O(n): for short arrays such as navigation stacks).
    @inlinable
    public var prismIDs: [Element.ID] { map(\.id) }

    /// The ids in `before` that are no longer here.
    @inlinable
    public func prismIDs(removedSince before: [Element.ID]) -> [Element.ID] {
        let remaining = Set(map(\.id))
        return before.filter { !remaining.contains($0) }
    }

    /// The first element with `id`.
    @inlinable
    public subscript(prismID id: Element.ID) -> Element? {
        get { first { $0.id == id } }
        set {
            guard let index = firstIndex(where: { $0.id == id }) else { return }
            if let newValue { self[index] = newValue } else { remove(at: index) }
        }
    }
}
