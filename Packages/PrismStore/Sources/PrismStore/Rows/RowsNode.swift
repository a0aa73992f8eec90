/// The B-tree under ``PrismRows``: elements in order in the leaves, each with a stamp that
/// grows with its position, and for each child of an inner node the number of elements under
/// it and its largest stamp.
///
/// Nodes are shared between copies of a collection (a history snapshot and the live state) and
/// copied only on the path to what a change touches, when they are shared
/// (`isKnownUniquelyReferenced`): changing one element of a million copies one leaf and the
/// inner nodes above it (about 5 nodes of at most 32 entries), never the collection.
///
/// | operation | finds its place by | cost |
/// |---|---|---|
/// | element at an index | counts of the children on the way down | O(log n) |
/// | element with an id | the id's stamp (a hash trie lookup), then the largest stamps | O(log n) |
/// | change an element | as above; copies the shared nodes on the path | O(log n) |
/// | insert or remove | as above; splits a full node, merges or evens out a thin one | O(log n) |
/// | compare two copies | skips the subtrees they share | O(what differs, log n) |
@usableFromInline
final class RowsNode<Element> {
    /// A leaf's elements with their stamps; empty in an inner node.
    @usableFromInline var items: ContiguousArray<RowsItem<Element>>
    /// An inner node's children; empty in a leaf.
    @usableFromInline var children: ContiguousArray<RowsChild<Element>>
    @usableFromInline let isLeaf: Bool

    @inlinable
    init(items: ContiguousArray<RowsItem<Element>>) {
        self.items = items
        self.children = []
        self.isLeaf = true
    }

    @inlinable
    init(children: ContiguousArray<RowsChild<Element>>) {
        self.items = []
        self.children = children
        self.isLeaf = false
    }

    /// A node with the same entries, for a change to a node that is shared.
    @inlinable
    func copy() -> RowsNode {
        isLeaf ? RowsNode(items: items) : RowsNode(children: children)
    }

    /// The most entries a leaf or an inner node holds before it splits.
    @inlinable static var leafCapacity: Int { 32 }
    @inlinable static var innerCapacity: Int { 16 }

    /// The number of entries (elements of a leaf, children of an inner node).
    @inlinable var width: Int { isLeaf ? items.count : children.count }

    @inlinable var capacity: Int { isLeaf ? Self.leafCapacity : Self.innerCapacity }

    /// The number of elements under this node.
    @inlinable var elementCount: Int {
        if isLeaf { return items.count }
        var total = 0
        for child in children { total += child.count }
        return total
    }

    /// The largest stamp under this node (0 when it is an empty leaf: only a root can be).
    @inlinable var maxStamp: UInt64 {
        isLeaf ? (items.last?.stamp ?? 0) : (children.last?.maxStamp ?? 0)
    }

    @inlinable var summary: RowsChild<Element> {
        RowsChild(node: self, count: elementCount, maxStamp: maxStamp)
    }
}

/// An element of a leaf and its stamp.
@usableFromInline
struct RowsItem<Element> {
    @usableFromInline var stamp: UInt64
    @usableFromInline var element: Element

    @inlinable
    init(stamp: UInt64, element: Element) {
        self.stamp = stamp
        self.element = element
    }
}

/// A child of an inner node, with the number of elements under it and its largest stamp.
@usableFromInline
struct RowsChild<Element> {
    @usableFromInline var node: RowsNode<Element>
    @usableFromInline var count: Int
    @usableFromInline var maxStamp: UInt64

    @inlinable
    init(node: RowsNode<Element>, count: Int, maxStamp: UInt64) {
        self.node = node
        self.count = count
        self.maxStamp = maxStamp
    }
}

// MARK: Finding

extension RowsNode {
    /// The child that holds the element at `index` (of this inner node's elements), and the
    /// element's index in it.
    @inlinable
    func child(holding index: Int) -> (child: Int, index: Int) {
        var remaining = index
        var child = 0
        while remaining >= children[child].count {
            remaining -= children[child].count
            child += 1
        }
        return (child, remaining)
    }

    /// The child where an element inserted at `index` goes: the one that holds the element
    /// now at `index`, or the end of the one before it (the last child, when appending).
    @inlinable
    func child(insertingAt index: Int) -> (child: Int, index: Int) {
        var remaining = index
        var child = 0
        while child < children.count - 1 && remaining > children[child].count {
            remaining -= children[child].count
            child += 1
        }
        return (child, remaining)
    }

    /// The element at `index` under this node.
    @inlinable
    func item(at index: Int) -> RowsItem<Element> {
        var node = self
        var remaining = index
        while !node.isLeaf {
            let (child, inner) = node.child(holding: remaining)
            remaining = inner
            node = node.children[child].node
        }
        return node.items[remaining]
    }

    /// The index, under this node, of the element with `stamp`, which must be there.
    @inlinable
    func index(ofStamp stamp: UInt64) -> Int {
        var node = self
        var offset = 0
        while !node.isLeaf {
            var child = 0
            while node.children[child].maxStamp < stamp {
                offset += node.children[child].count
                child += 1
            }
            node = node.children[child].node
        }
        var low = 0
        var high = node.items.count - 1
        while low < high {
            let middle = (low + high) / 2
            if node.items[middle].stamp < stamp { low = middle + 1 } else { high = middle }
        }
        assert(node.items[low].stamp == stamp, "PrismRows: a stamp the trie holds is not in the tree")
        return offset + low
    }
}

// MARK: Changing (each makes the nodes on its path unique first)

extension RowsNode {
    /// Makes `node` and every node down to the leaf that holds `index` unique, and returns
    /// that leaf and the element's index in it.
    @inlinable
    static func uniqueLeaf(_ node: inout RowsNode, holding index: Int) -> (leaf: RowsNode, index: Int) {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        if node.isLeaf { return (node, index) }
        let (child, inner) = node.child(holding: index)
        return uniqueLeaf(&node.children[child].node, holding: inner)
    }

    /// Sets the stamp of the element at `index`, which must stay between its neighbours'.
    @inlinable
    static func setStamp(_ stamp: UInt64, at index: Int, in node: inout RowsNode) {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        if node.isLeaf {
            node.items[index].stamp = stamp
            return
        }
        let (child, inner) = node.child(holding: index)
        setStamp(stamp, at: inner, in: &node.children[child].node)
        node.children[child].maxStamp = node.children[child].node.maxStamp
    }

    /// Inserts `item` at `index`; returns the node split off to the right when `node` was full.
    @inlinable
    static func insert(_ item: RowsItem<Element>, at index: Int, into node: inout RowsNode) -> RowsChild<Element>? {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        if node.isLeaf {
            node.items.insert(item, at: index)
            guard node.items.count > leafCapacity else { return nil }
            let half = node.items.count / 2
            let right = RowsNode(items: ContiguousArray(node.items[half...]))
            node.items.removeSubrange(half...)
            return right.summary
        }
        let (child, inner) = node.child(insertingAt: index)
        if let split = insert(item, at: inner, into: &node.children[child].node) {
            node.children[child].count -= split.count - 1
            node.children[child].maxStamp = node.children[child].node.maxStamp
            node.children.insert(split, at: child + 1)
        } else {
            node.children[child].count += 1
            node.children[child].maxStamp = max(node.children[child].maxStamp, item.stamp)
        }
        guard node.children.count > innerCapacity else { return nil }
        let half = node.children.count / 2
        let right = RowsNode(children: ContiguousArray(node.children[half...]))
        node.children.removeSubrange(half...)
        return right.summary
    }

    /// Removes and returns the element at `index`; a child left thin is merged with a
    /// neighbour or evened out with it.
    @inlinable
    static func remove(at index: Int, from node: inout RowsNode) -> RowsItem<Element> {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        if node.isLeaf { return node.items.remove(at: index) }
        let (child, inner) = node.child(holding: index)
        let removed = remove(at: inner, from: &node.children[child].node)
        node.children[child].count -= 1
        node.children[child].maxStamp = node.children[child].node.maxStamp
        if node.children[child].node.width < node.children[child].node.capacity / 2 {
            node.rebalance(child)
        }
        return removed
    }

    /// Merges the thin child at `child` with a neighbour, or evens the two out when together
    /// they would not fit in one node.
    @inlinable
    func rebalance(_ child: Int) {
        guard children.count > 1 else { return }
        let left = child > 0 ? child - 1 : child
        let right = left + 1
        if !isKnownUniquelyReferenced(&children[left].node) { children[left].node = children[left].node.copy() }
        if !isKnownUniquelyReferenced(&children[right].node) { children[right].node = children[right].node.copy() }
        let leftNode = children[left].node
        let rightNode = children[right].node
        if leftNode.width + rightNode.width <= leftNode.capacity {
            if leftNode.isLeaf {
                leftNode.items.append(contentsOf: rightNode.items)
            } else {
                leftNode.children.append(contentsOf: rightNode.children)
            }
            children[left] = leftNode.summary
            children.remove(at: right)
            return
        }
        if leftNode.isLeaf {
            var all = leftNode.items
            all.append(contentsOf: rightNode.items)
            let half = all.count / 2
            leftNode.items = ContiguousArray(all[..<half])
            rightNode.items = ContiguousArray(all[half...])
        } else {
            var all = leftNode.children
            all.append(contentsOf: rightNode.children)
            let half = all.count / 2
            leftNode.children = ContiguousArray(all[..<half])
            rightNode.children = ContiguousArray(all[half...])
        }
        children[left] = leftNode.summary
        children[right] = rightNode.summary
    }
}

// MARK: Building, reading in order, comparing

extension RowsNode {
    /// A tree of `items` (in order of their stamps), its nodes three quarters full, so that
    /// the first insertions into a freshly built collection split nothing.
    @inlinable
    static func build(_ items: ContiguousArray<RowsItem<Element>>) -> RowsNode {
        if items.count <= leafCapacity { return RowsNode(items: items) }
        var level = ContiguousArray<RowsChild<Element>>()
        for range in evenChunks(count: items.count, size: leafCapacity * 3 / 4) {
            level.append(RowsNode(items: ContiguousArray(items[range])).summary)
        }
        while level.count > 1 {
            var above = ContiguousArray<RowsChild<Element>>()
            for range in evenChunks(count: level.count, size: innerCapacity * 3 / 4) {
                above.append(RowsNode(children: ContiguousArray(level[range])).summary)
            }
            level = above
        }
        return level[0].node
    }

    /// `count` split into ranges of about `size`, none of them less than half of it.
    @inlinable
    static func evenChunks(count: Int, size: Int) -> [Range<Int>] {
        let chunks = max(1, (count + size - 1) / size)
        return (0..<chunks).map { chunk in (chunk * count / chunks)..<((chunk + 1) * count / chunks) }
    }

    /// Calls `body` with each element under this node, in order, until it returns false.
    @inlinable
    @discardableResult
    func forEachItem(_ body: (RowsItem<Element>) throws -> Bool) rethrows -> Bool {
        if isLeaf {
            for item in items {
                if try !body(item) { return false }
            }
            return true
        }
        for child in children {
            if try !child.node.forEachItem(body) { return false }
        }
        return true
    }

    /// Whether the elements under `self` and `other` (of the same count) are equal in order,
    /// without looking into the subtrees they share.
    ///
    /// Written with plain loops: a store compares states through `Equatable` without knowing
    /// their types, so this runs unspecialized, where each `zip` or closure would look up
    /// generic metadata.
    @inlinable
    func hasEqualElements(to other: RowsNode, by areEqual: (Element, Element) -> Bool) -> Bool {
        if self === other { return true }
        if isLeaf && other.isLeaf {
            var index = 0
            while index < items.count {
                if !areEqual(items[index].element, other.items[index].element) { return false }
                index += 1
            }
            return true
        }
        if !isLeaf && !other.isLeaf && hasSameShape(as: other) {
            // The usual case: one copy is the other with some elements changed. Compare child
            // by child, skipping the shared ones.
            var index = 0
            while index < children.count {
                if !children[index].node.hasEqualElements(to: other.children[index].node, by: areEqual) { return false }
                index += 1
            }
            return true
        }
        var elements = ContiguousArray<Element>()
        elements.reserveCapacity(elementCount)
        forEachItem {
            elements.append($0.element)
            return true
        }
        var index = 0
        return other.forEachItem { item in
            defer { index += 1 }
            return areEqual(elements[index], item.element)
        }
    }

    /// Whether both inner nodes have as many children, with as many elements each.
    @inlinable
    func hasSameShape(as other: RowsNode) -> Bool {
        guard children.count == other.children.count else { return false }
        var index = 0
        while index < children.count {
            if children[index].count != other.children[index].count { return false }
            index += 1
        }
        return true
    }
}
