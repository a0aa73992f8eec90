import HashTreeCollections

extension PrismRows: ExpressibleByArrayLiteral {
    /// A collection of the literal's elements, whose ids must be unique.
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init(uniqueElements: elements)
    }
}

extension PrismRows: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order. A copy and the original are
    /// compared without looking into the nodes they still share: O(1) when neither changed,
    /// O(k log n) after k changes to elements.
    @inlinable
    public static func == (lhs: PrismRows, rhs: PrismRows) -> Bool {
        lhs.count == rhs.count && RowsTree<Element>.hasEqualElements(lhs.root, rhs.root, by: ==)
    }
}

extension PrismRows: Hashable where Element: Hashable {
    /// Hashes the number of elements and each element, in order.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

// Nodes are changed only while uniquely referenced (copy on write, as Array's storage), so a
// collection of sendable elements can cross isolation domains.
extension PrismRows: @unchecked Sendable where Element: Sendable {}

extension PrismRows: Encodable where Element: Encodable {
    /// Encodes the elements as an array, in order: the same as an `Array` of them.
    @inlinable
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension PrismRows: Decodable where Element: Decodable {
    /// Decodes an array of elements. A repeated id throws a `DecodingError.dataCorrupted`
    /// that names it and its index (a saved state that cannot be loaded as it is, which
    /// PrismPersistence moves aside instead of losing).
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements = ContiguousArray<Element>()
        if let count = container.count { elements.reserveCapacity(count) }
        while !container.isAtEnd { elements.append(try container.decode(Element.self)) }
        try self.init(elements: elements) { id, index in
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "PrismRows: the id \(id) of the element at index \(index) is already used by an earlier element."
                )
            )
        }
    }
}

extension PrismRows: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements, written as an array's are.
    public var description: String { elements.description }

    /// The elements, written as an array's are, inside `PrismRows(...)`.
    public var debugDescription: String { "PrismRows(\(elements.debugDescription))" }
}

extension PrismRows: CustomReflectable {
    /// The elements, as a collection: test failures and dumps show the rows as an array's.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
    }
}

extension PrismRows: PrismIdentifiedCollection {
    /// The ids of a ``PrismRows``, unordered: what `forEach` keeps to tell which rows an
    /// action removed. Shared with the collection, so keeping it costs nothing, and comparing
    /// it with the ids after an action that added or removed nothing costs O(1).
    public struct IDSet: Equatable, Sequence {
        @usableFromInline let stamps: TreeDictionary<Element.ID, UInt64>

        @inlinable
        init(stamps: TreeDictionary<Element.ID, UInt64>) {
            self.stamps = stamps
        }

        /// The number of ids.
        @inlinable public var count: Int { stamps.count }

        /// Whether `id` is one of them.
        @inlinable public func contains(_ id: Element.ID) -> Bool { stamps[id] != nil }

        /// An iterator over the ids, in no particular order.
        @inlinable
        public func makeIterator() -> TreeDictionary<Element.ID, UInt64>.Keys.Iterator {
            stamps.keys.makeIterator()
        }

        /// Whether both hold the same ids (skipping the parts of the trie they share).
        @inlinable
        public static func == (lhs: IDSet, rhs: IDSet) -> Bool {
            lhs.stamps.count == rhs.stamps.count && lhs.stamps.keys.subtracting(rhs.stamps.keys).isEmpty
        }
    }

    /// The ids, shared with the collection (O(1)).
    @inlinable
    public var prismIDs: IDSet { IDSet(stamps: stamps) }

    /// The ids in `before` that are no longer here (skipping the parts of the trie both share).
    @inlinable
    public func prismIDs(removedSince before: IDSet) -> [Element.ID] {
        Array(before.stamps.keys.subtracting(stamps.keys))
    }

    /// The element with `id`, changed in place.
    @inlinable
    public subscript(prismID id: Element.ID) -> Element? {
        get { self[id: id] }
        _modify { yield &self[id: id] }
    }

    /// Calls `body` with the element with `id` where it is stored (after copying the nodes on
    /// its path if they are shared): a row's action never copies the row.
    @inlinable
    public mutating func prismModify<Result>(id: Element.ID, _ body: (inout Element) throws -> Result) rethrows
        -> Result?
    {
        guard let stamp = stamps[id] else { return nil }
        let position = RowsTree<Element>.index(ofStamp: stamp, in: root)
        let (leaf, index) = RowsTree<Element>.uniqueLeaf(&root, holding: position)
        let result = try body(&leaf.items[index].element)
        precondition(leaf.items[index].element.id == id, "PrismRows: a row's reducer changed its id (\(id)).")
        return result
    }
}
