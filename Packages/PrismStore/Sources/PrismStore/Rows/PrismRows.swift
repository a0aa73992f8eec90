import HashTreeCollections

/// The rows of a list in a feature's state: an ordered collection of identified elements that
/// stays fast however large it grows, also while a history keeps copies of it.
///
/// ```swift
/// struct TodosState: Equatable, Sendable {
///     var todos: PrismRows<Todo> = []
/// }
///
/// state.todos.append(Todo(id: 7, title: "Buy milk"))
/// state.todos[id: 7]?.isDone = true
/// state.todos.remove(id: 7)
/// ```
///
/// Use it wherever `IdentifiedArray` or an `Array` of rows would go: it is a random-access
/// collection with `Int` indices, finds an element by its id, works with
/// ``PrismReducer/forEach(_:action:toElementAction:element:fileID:filePath:line:column:)`` and
/// ``PrismStore/scope(state:id:action:)``, and encodes as a JSON array (saved states and
/// recordings read the same as with an `Array`).
///
/// What it does that they do not: a copy shares its storage with the original, and a change
/// copies only the part it touches. Its storage is a B-tree of small nodes, each copied only
/// when shared, on the path to the change (see the table below); equality skips the nodes two
/// copies share. So a store that keeps copies of the state (time travel, an undo stack, the
/// inspector, a scoped store that watches the list, a persist middleware's pending save)
/// costs about the same per action with a million rows as with a thousand, where an `Array` or
/// an `IdentifiedArray` is copied whole on the first change after each copy.
///
/// | operation | cost with n rows |
/// |---|---|
/// | `rows[i]`, `rows[id: id]`, `index(id:)` | O(log n) |
/// | change a row (`rows[i].x = ...`, `rows[id: id]?.x = ...`) | O(log n), a copy or not |
/// | `append`, `insert(_:at:)`, `remove(at:)`, `remove(id:)` | O(log n), amortized |
/// | `==` between a copy and the original after k changes | O(k log n) |
/// | iterating, `ids`, encoding | O(n) |
/// | `sort(by:)`, `removeAll(where:)` | O(n log n), O(n) |
///
/// The ids are unique: `append` and `insert` of an element whose id is already there change
/// nothing and say so, and building from elements with a repeated id is a programming error
/// (decoding one throws a `DecodingError`).
public struct PrismRows<Element: Identifiable> {
    /// The elements in order, each with a stamp that grows with its position.
    @usableFromInline var root: RowsNode
    /// Each id's stamp: the way to an element by id, shared between copies like the tree.
    @usableFromInline var stamps: TreeDictionary<Element.ID, UInt64>

    /// An empty collection.
    @inlinable
    public init() {
        root = RowsLeaf<Element>(items: [])
        stamps = [:]
    }

    /// A collection of `elements`, in order. Their ids must be unique.
    @inlinable
    public init<S: Sequence<Element>>(uniqueElements elements: S) {
        self.init(elements: ContiguousArray(elements)) { id, index in
            preconditionFailure("PrismRows(uniqueElements:): the id \(id) is repeated (at index \(index)).")
        }
    }

    /// The elements with stamps evenly spread; `repeated` is called with the first repeated id.
    @inlinable
    init(elements: ContiguousArray<Element>, repeated: (Element.ID, Int) throws -> Never) rethrows {
        let spacing = Self.stampSpacing(for: elements.count)
        var items = ContiguousArray<RowsItem<Element>>()
        items.reserveCapacity(elements.count)
        var stamps = TreeDictionary<Element.ID, UInt64>()
        for (index, element) in elements.enumerated() {
            let stamp = spacing &* UInt64(index + 1)
            guard stamps.updateValue(stamp, forKey: element.id) == nil else { try repeated(element.id, index) }
            items.append(RowsItem(stamp: stamp, element: element))
        }
        self.root = RowsTree<Element>.build(items)
        self.stamps = stamps
    }

    /// The distance between neighbours' stamps when `count` elements are numbered afresh:
    /// 2^32 (room for 2^32 appends, or insertions between two neighbours halving it 32 times
    /// before any renumbering), less when there are more than 2^30 elements.
    @inlinable
    static func stampSpacing(for count: Int) -> UInt64 {
        Swift.min(1 << 32, UInt64.max / UInt64(count + 2))
    }
}

// MARK: Reading

extension PrismRows: RandomAccessCollection {
    /// A position: the element's offset from the start, as in an `Array`.
    public typealias Index = Int
    /// The positions, `0..<count`.
    public typealias Indices = Range<Int>

    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements.
    @inlinable public var endIndex: Int { stamps.count }
    /// The number of elements (O(1)).
    @inlinable public var count: Int { stamps.count }
    /// Whether there are no elements.
    @inlinable public var isEmpty: Bool { stamps.isEmpty }
    /// `0..<count`.
    @inlinable public var indices: Range<Int> { 0..<count }
    /// `i + 1`.
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    /// `i - 1`.
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    /// `i + distance`.
    @inlinable public func index(_ i: Int, offsetBy distance: Int) -> Int { i + distance }
    /// `end - start`.
    @inlinable public func distance(from start: Int, to end: Int) -> Int { end - start }

    /// The ids, in order.
    @inlinable
    public var ids: LazyMapCollection<PrismRows, Element.ID> { lazy.map(\.id) }

    /// The elements, in order, as an array.
    @inlinable
    public var elements: [Element] { Array(self) }

    /// The position of the element with `id`, or nil (O(log n)).
    @inlinable
    public func index(id: Element.ID) -> Int? {
        guard let stamp = stamps[id] else { return nil }
        return RowsTree<Element>.index(ofStamp: stamp, in: root)
    }

    /// Whether an element has `id` (O(1) on average).
    @inlinable
    public func contains(id: Element.ID) -> Bool {
        stamps[id] != nil
    }

    /// Walks the leaves in order: O(1) per element.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var path: [(node: RowsNode, next: Int)]
        @usableFromInline var leaf: ContiguousArray<RowsItem<Element>>
        @usableFromInline var position = 0

        @inlinable
        init(root: RowsNode) {
            path = []
            leaf = []
            descend(from: root)
        }

        /// Goes down the first children from `node` to a leaf.
        @inlinable
        mutating func descend(from node: RowsNode) {
            var node = node
            while !node.isLeaf {
                path.append((node, 1))
                node = node.children[0].node
            }
            leaf = RowsTree<Element>.leaf(node).items
            position = 0
        }

        /// The next element in order, or nil after the last.
        @inlinable
        public mutating func next() -> Element? {
            while position == leaf.count {
                // The leaf is done: up to the nearest node with a child left, then down.
                while let last = path.last, last.next == last.node.children.count { path.removeLast() }
                guard let last = path.last else { return nil }
                path[path.count - 1].next += 1
                descend(from: last.node.children[last.next].node)
            }
            defer { position += 1 }
            return leaf[position].element
        }
    }

    /// An iterator over the elements in order.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(root: root)
    }
}

extension PrismRows: MutableCollection {
    /// The element at `position`. Setting it must keep its id: to put another element there,
    /// remove this one and insert the other.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "PrismRows: index \(position) out of range 0..<\(count)")
            return RowsTree<Element>.item(at: position, in: root).element
        }
        _modify {
            precondition(position >= 0 && position < count, "PrismRows: index \(position) out of range 0..<\(count)")
            let (leaf, index) = RowsTree<Element>.uniqueLeaf(&root, holding: position)
            let id = leaf.items[index].element.id
            yield &leaf.items[index].element
            precondition(
                leaf.items[index].element.id == id,
                "PrismRows: an element's id changed through its index (\(id) became \(leaf.items[index].element.id))."
            )
        }
    }

    /// Swaps two elements (their ids move with them).
    @inlinable
    public mutating func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        let first = self[i]
        let second = self[j]
        let firstStamp = RowsTree<Element>.item(at: i, in: root).stamp
        let secondStamp = RowsTree<Element>.item(at: j, in: root).stamp
        var (leaf, index) = RowsTree<Element>.uniqueLeaf(&root, holding: i)
        leaf.items[index].element = second
        (leaf, index) = RowsTree<Element>.uniqueLeaf(&root, holding: j)
        leaf.items[index].element = first
        stamps[first.id] = secondStamp
        stamps[second.id] = firstStamp
    }
}

// MARK: Changing by id

extension PrismRows {
    /// The element with `id`, or nil. Setting nil removes it; setting an element when none
    /// has `id` appends it. The element set must have `id`.
    @inlinable
    public subscript(id id: Element.ID) -> Element? {
        get {
            guard let stamp = stamps[id] else { return nil }
            return RowsTree<Element>.item(at: RowsTree<Element>.index(ofStamp: stamp, in: root), in: root).element
        }
        _modify {
            guard let stamp = stamps[id] else {
                var added: Element?
                yield &added
                if let added { append(checking: added, id: id) }
                return
            }
            let position = RowsTree<Element>.index(ofStamp: stamp, in: root)
            let (leaf, index) = RowsTree<Element>.uniqueLeaf(&root, holding: position)
            var element: Element? = leaf.items[index].element
            yield &element
            if let element {
                precondition(element.id == id, "PrismRows: the element set for id \(id) has the id \(element.id).")
                leaf.items[index].element = element
            } else {
                _ = remove(at: position)
            }
        }
    }

    @inlinable
    mutating func append(checking element: Element, id: Element.ID) {
        precondition(element.id == id, "PrismRows: the element set for id \(id) has the id \(element.id).")
        append(element)
    }

    /// Adds `element` at the end, unless an element with its id is already there.
    /// - Returns: whether it was added, and the index of the element with its id.
    @inlinable
    @discardableResult
    public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
        insert(element, at: count)
    }

    /// Adds each element at the end, skipping those whose id is already there.
    @inlinable
    public mutating func append<S: Sequence<Element>>(contentsOf elements: S) {
        for element in elements { append(element) }
    }

    /// Inserts `element` at `index`, unless an element with its id is already there.
    /// - Returns: whether it was inserted, and the index of the element with its id.
    @inlinable
    @discardableResult
    public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
        precondition(index >= 0 && index <= count, "PrismRows: insertion index \(index) out of range 0...\(count)")
        if let existing = self.index(id: element.id) { return (false, existing) }
        let stamp = makeStamp(at: index)
        stamps[element.id] = stamp
        if let split = RowsTree<Element>.insert(RowsItem(stamp: stamp, element: element), at: index, into: &root) {
            root = RowsNode(children: [RowsTree<Element>.summary(root), split])
        }
        return (true, index)
    }

    /// Removes and returns the element at `index`.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < count, "PrismRows: index \(index) out of range 0..<\(count)")
        let removed = RowsTree<Element>.remove(at: index, from: &root)
        while !root.isLeaf && root.children.count == 1 { root = root.children[0].node }
        stamps[removed.element.id] = nil
        return removed.element
    }

    /// Removes and returns the element with `id`, or returns nil when there is none.
    @inlinable
    @discardableResult
    public mutating func remove(id: Element.ID) -> Element? {
        guard let index = index(id: id) else { return nil }
        return remove(at: index)
    }

    /// Removes every element.
    @inlinable
    public mutating func removeAll() {
        self = PrismRows()
    }

    /// Removes the elements that match `shouldBeRemoved` (O(n)).
    @inlinable
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        let kept = try ContiguousArray(lazy.filter { try !shouldBeRemoved($0) }.map { $0 })
        guard kept.count != count else { return }
        self = PrismRows(elements: kept) { _, _ in preconditionFailure("unreachable: the ids were unique") }
    }

    /// Moves the elements at `offsets` (in their order) to `destination`, an index of the
    /// collection before the move, like SwiftUI's `onMove` gives (an `IndexSet` is a sequence
    /// of offsets).
    @inlinable
    public mutating func move<Offsets: Sequence<Int>>(fromOffsets offsets: Offsets, toOffset destination: Int) {
        let sorted = Array(Set(offsets)).sorted()
        guard !sorted.isEmpty else { return }
        precondition(
            sorted.first! >= 0 && sorted.last! < count, "PrismRows: move(fromOffsets:) out of range 0..<\(count)")
        precondition(
            destination >= 0 && destination <= count, "PrismRows: move destination \(destination) out of range")
        var moved: [Element] = []
        for offset in sorted.reversed() { moved.append(remove(at: offset)) }
        var insertion = destination - sorted.count(where: { $0 < destination })
        for element in moved.reversed() {
            insert(element, at: insertion)
            insertion += 1
        }
    }

    /// Sorts the elements in place (O(n log n)).
    @inlinable
    public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        var all = ContiguousArray(self)
        try all.sort(by: areInIncreasingOrder)
        self = PrismRows(elements: all) { _, _ in preconditionFailure("unreachable: the ids were unique") }
    }
}

extension PrismRows where Element: Comparable {
    /// Sorts the elements in increasing order.
    @inlinable
    public mutating func sort() {
        sort(by: <)
    }
}

// MARK: Stamps

extension PrismRows {
    /// A stamp for an element inserted at `index`: between its neighbours', renumbering some
    /// of them when they are too close (after many insertions at one place).
    @inlinable
    mutating func makeStamp(at index: Int) -> UInt64 {
        if let stamp = freeStamp(at: index) { return stamp }
        renumber(around: index)
        return freeStamp(at: index)!
    }

    /// A stamp between the neighbours of `index`, or nil when there is none.
    @inlinable
    func freeStamp(at index: Int) -> UInt64? {
        let low = index > 0 ? RowsTree<Element>.item(at: index - 1, in: root).stamp : 0
        let high = index < count ? RowsTree<Element>.item(at: index, in: root).stamp : UInt64.max
        let room = high - low
        guard room >= 2 else { return nil }
        let step = Swift.min(room / 2, 1 << 32)
        // At the ends, one full step from the neighbour (appends and prepends use the room
        // sparingly); between two, halfway.
        if index == count { return low + step }
        if index == 0 { return high - step }
        return low + room / 2
    }

    /// Spreads out the stamps around `index` so that a stamp fits there: a window of
    /// neighbours that doubles until the stamps around it leave room for at least 2^16
    /// between each (as in order-maintenance lists); the whole collection at worst.
    @inlinable
    mutating func renumber(around index: Int) {
        var width = 16
        while true {
            let lower = Swift.max(0, index - width)
            let upper = Swift.min(count, index + width)
            let low = lower > 0 ? RowsTree<Element>.item(at: lower - 1, in: root).stamp : 0
            let high = upper < count ? RowsTree<Element>.item(at: upper, in: root).stamp : UInt64.max
            // The elements in lower..<upper and the one to insert.
            let slots = UInt64(upper - lower + 1)
            let spacing = (high - low) / (slots + 1)
            let isWhole = lower == 0 && upper == count
            if spacing >= 1 << 16 || isWhole {
                precondition(spacing >= 2, "PrismRows: out of stamps (more than 2^62 elements?)")
                for position in lower..<upper {
                    // Leave the slot at `index` free for the new element.
                    let slot = UInt64(position - lower + (position >= index ? 2 : 1))
                    let stamp = low + spacing * slot
                    RowsTree<Element>.setStamp(stamp, at: position, in: &root)
                    stamps[RowsTree<Element>.item(at: position, in: root).element.id] = stamp
                }
                return
            }
            width *= 2
        }
    }
}
