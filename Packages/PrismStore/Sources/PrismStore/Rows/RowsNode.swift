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
///
/// Inner nodes are not generic (`RowsNode` itself); only leaves are (`RowsLeaf<Element>`). A
/// store compares states through `Equatable` without knowing their types, so comparing runs
/// unspecialized: walking non-generic inner nodes there costs no generic metadata lookups.
@usableFromInline
class RowsNode {
    /// An inner node's children; empty in a leaf.
    @usableFromInline final var children: ContiguousArray<RowsChild>
    @usableFromInline final let isLeaf: Bool

    @usableFromInline
    init(children: ContiguousArray<RowsChild>, isLeaf: Bool = false) {
        self.children = children
        self.isLeaf = isLeaf
    }

    /// The most entries a leaf or an inner node holds before it splits.
    @inlinable static var leafCapacity: Int { 32 }
    @inlinable static var innerCapacity: Int { 16 }

    @inlinable final var capacity: Int { isLeaf ? Self.leafCapacity : Self.innerCapacity }
}

/// A leaf: elements in order, with their stamps. No member is overridden: what differs between
/// leaves and inner nodes is decided by `isLeaf`, in ``RowsTree``.
@usableFromInline
final class RowsLeaf<Element>: RowsNode {
    @usableFromInline var items: ContiguousArray<RowsItem<Element>>

    @usableFromInline
    init(items: ContiguousArray<RowsItem<Element>>) {
        self.items = items
        super.init(children: [], isLeaf: true)
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
struct RowsChild {
    @usableFromInline var node: RowsNode
    @usableFromInline var count: Int
    @usableFromInline var maxStamp: UInt64

    @inlinable
    init(node: RowsNode, count: Int, maxStamp: UInt64) {
        self.node = node
        self.count = count
        self.maxStamp = maxStamp
    }
}

// MARK: Finding (not generic)

extension RowsNode {
    /// The child that holds the element at `index` (of this inner node's elements), and the
    /// element's index in it.
    @inlinable
    final func child(holding index: Int) -> (child: Int, index: Int) {
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
    final func child(insertingAt index: Int) -> (child: Int, index: Int) {
        // Right after the element before it: the end of a child rather than the start of the
        // next one, and past the last element when appending.
        guard index > 0 else { return (0, 0) }
        let (child, before) = child(holding: index - 1)
        return (child, before + 1)
    }

    /// The leaf that holds the element at `index` under this node, and its index there.
    @inlinable
    final func leaf(holding index: Int) -> (leaf: RowsNode, index: Int) {
        var node = self
        var remaining = index
        while !node.isLeaf {
            let (child, inner) = node.child(holding: remaining)
            remaining = inner
            node = node.children[child].node
        }
        return (node, remaining)
    }

    /// The leaf that holds the element with `stamp` (which must be there), and the index of
    /// the leaf's first element under this node.
    @inlinable
    final func leaf(holdingStamp stamp: UInt64) -> (leaf: RowsNode, offset: Int) {
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
        return (node, offset)
    }

    /// Whether both inner nodes have as many children, with as many elements each.
    @inlinable
    final func hasSameShape(as other: RowsNode) -> Bool {
        guard children.count == other.children.count else { return false }
        var index = 0
        while index < children.count {
            if children[index].count != other.children[index].count { return false }
            index += 1
        }
        return true
    }
}

// MARK: Reading and changing (generic over the elements of the leaves)

/// The operations on a tree whose leaves hold `Element`s. Each change makes the nodes on its
/// path unique first.
@usableFromInline
enum RowsTree<Element> {
    @usableFromInline typealias Leaf = RowsLeaf<Element>

    /// `node`, known to be a leaf of this tree.
    @inlinable
    static func leaf(_ node: RowsNode) -> Leaf {
        unsafeDowncast(node, to: Leaf.self)
    }

    /// A node with the same entries, for a change to a node that is shared.
    @inlinable
    static func copy(_ node: RowsNode) -> RowsNode {
        node.isLeaf ? Leaf(items: leaf(node).items) : RowsNode(children: node.children)
    }

    /// The number of entries (elements of a leaf, children of an inner node).
    @inlinable
    static func width(_ node: RowsNode) -> Int {
        node.isLeaf ? leaf(node).items.count : node.children.count
    }

    /// The number of elements under `node`.
    @inlinable
    static func elementCount(_ node: RowsNode) -> Int {
        if node.isLeaf { return leaf(node).items.count }
        var total = 0
        for child in node.children { total += child.count }
        return total
    }

    /// The largest stamp under `node` (0 when it is an empty leaf: only a root can be).
    @inlinable
    static func maxStamp(_ node: RowsNode) -> UInt64 {
        node.isLeaf ? (leaf(node).items.last?.stamp ?? 0) : (node.children.last?.maxStamp ?? 0)
    }

    /// What `node`'s parent keeps about it.
    @inlinable
    static func summary(_ node: RowsNode) -> RowsChild {
        RowsChild(node: node, count: elementCount(node), maxStamp: maxStamp(node))
    }

    /// The element at `index` under `root`.
    @inlinable
    static func item(at index: Int, in root: RowsNode) -> RowsItem<Element> {
        let (node, inner) = root.leaf(holding: index)
        return leaf(node).items[inner]
    }

    /// The index, under `root`, of the element with `stamp`, which must be there.
    @inlinable
    static func index(ofStamp stamp: UInt64, in root: RowsNode) -> Int {
        let (node, offset) = root.leaf(holdingStamp: stamp)
        let items = leaf(node).items
        var low = 0
        var high = items.count - 1
        while low < high {
            let middle = (low + high) / 2
            if items[middle].stamp < stamp { low = middle + 1 } else { high = middle }
        }
        assert(items[low].stamp == stamp, "PrismRows: a stamp the trie holds is not in the tree")
        return offset + low
    }

    /// Makes `node` and every node down to the leaf that holds `index` unique, and returns
    /// that leaf and the element's index in it.
    @inlinable
    static func uniqueLeaf(_ node: inout RowsNode, holding index: Int) -> (leaf: Leaf, index: Int) {
        if !isKnownUniquelyReferenced(&node) { node = copy(node) }
        if node.isLeaf { return (leaf(node), index) }
        let (child, inner) = node.child(holding: index)
        return uniqueLeaf(&node.children[child].node, holding: inner)
    }

    /// Sets the stamp of the element at `index`, which must stay between its neighbours'.
    @inlinable
    static func setStamp(_ stamp: UInt64, at index: Int, in node: inout RowsNode) {
        if !isKnownUniquelyReferenced(&node) { node = copy(node) }
        if node.isLeaf {
            leaf(node).items[index].stamp = stamp
            return
        }
        let (child, inner) = node.child(holding: index)
        setStamp(stamp, at: inner, in: &node.children[child].node)
        node.children[child].maxStamp = maxStamp(node.children[child].node)
    }

    /// Inserts `item` at `index`; returns the node split off to the right when `node` was full.
    @inlinable
    static func insert(_ item: RowsItem<Element>, at index: Int, into node: inout RowsNode) -> RowsChild? {
        if !isKnownUniquelyReferenced(&node) { node = copy(node) }
        if node.isLeaf {
            let left = leaf(node)
            left.items.insert(item, at: index)
            guard left.items.count > RowsNode.leafCapacity else { return nil }
            let half = left.items.count / 2
            let right = Leaf(items: ContiguousArray(left.items[half...]))
            left.items.removeSubrange(half...)
            return summary(right)
        }
        let (child, inner) = node.child(insertingAt: index)
        if let split = insert(item, at: inner, into: &node.children[child].node) {
            node.children[child].count -= split.count - 1
            node.children[child].maxStamp = maxStamp(node.children[child].node)
            node.children.insert(split, at: child + 1)
        } else {
            node.children[child].count += 1
            node.children[child].maxStamp = max(node.children[child].maxStamp, item.stamp)
        }
        guard node.children.count > RowsNode.innerCapacity else { return nil }
        let half = node.children.count / 2
        let right = RowsNode(children: ContiguousArray(node.children[half...]))
        node.children.removeSubrange(half...)
        return summary(right)
    }

    /// Removes and returns the element at `index`; a child left thin is merged with a
    /// neighbour or evened out with it.
    @inlinable
    static func remove(at index: Int, from node: inout RowsNode) -> RowsItem<Element> {
        if !isKnownUniquelyReferenced(&node) { node = copy(node) }
        if node.isLeaf { return leaf(node).items.remove(at: index) }
        let (child, inner) = node.child(holding: index)
        let removed = remove(at: inner, from: &node.children[child].node)
        node.children[child].count -= 1
        node.children[child].maxStamp = maxStamp(node.children[child].node)
        if width(node.children[child].node) < node.children[child].node.capacity / 2 {
            rebalance(child, of: node)
        }
        return removed
    }

    /// Merges the thin child at `child` of `parent` (unique) with a neighbour, or evens the
    /// two out when together they would not fit in one node.
    @inlinable
    static func rebalance(_ child: Int, of parent: RowsNode) {
        guard parent.children.count > 1 else { return }
        let left = child > 0 ? child - 1 : child
        let right = left + 1
        if !isKnownUniquelyReferenced(&parent.children[left].node) {
            parent.children[left].node = copy(parent.children[left].node)
        }
        if !isKnownUniquelyReferenced(&parent.children[right].node) {
            parent.children[right].node = copy(parent.children[right].node)
        }
        let leftNode = parent.children[left].node
        let rightNode = parent.children[right].node
        if width(leftNode) + width(rightNode) <= leftNode.capacity {
            if leftNode.isLeaf {
                leaf(leftNode).items.append(contentsOf: leaf(rightNode).items)
            } else {
                leftNode.children.append(contentsOf: rightNode.children)
            }
            parent.children[left] = summary(leftNode)
            parent.children.remove(at: right)
            return
        }
        if leftNode.isLeaf {
            var all = leaf(leftNode).items
            all.append(contentsOf: leaf(rightNode).items)
            let half = all.count / 2
            leaf(leftNode).items = ContiguousArray(all[..<half])
            leaf(rightNode).items = ContiguousArray(all[half...])
        } else {
            var all = leftNode.children
            all.append(contentsOf: rightNode.children)
            let half = all.count / 2
            leftNode.children = ContiguousArray(all[..<half])
            rightNode.children = ContiguousArray(all[half...])
        }
        parent.children[left] = summary(leftNode)
        parent.children[right] = summary(rightNode)
    }

    /// A tree of `items` (in order of their stamps), its nodes three quarters full, so that
    /// the first insertions into a freshly built collection split nothing.
    @inlinable
    static func build(_ items: ContiguousArray<RowsItem<Element>>) -> RowsNode {
        if items.count <= RowsNode.leafCapacity { return Leaf(items: items) }
        var level = ContiguousArray<RowsChild>()
        for range in evenChunks(count: items.count, size: RowsNode.leafCapacity * 3 / 4) {
            level.append(summary(Leaf(items: ContiguousArray(items[range]))))
        }
        while level.count > 1 {
            var above = ContiguousArray<RowsChild>()
            for range in evenChunks(count: level.count, size: RowsNode.innerCapacity * 3 / 4) {
                above.append(summary(RowsNode(children: ContiguousArray(level[range]))))
            }
            level = above
        }
        return level[0].node
    }

    /// `count` split into ranges of about `size`, none of them less than half of it.
    @inlinable
    static func evenChunks(count: Int, size: Int) -> [Range<Int>] {
        let chunks = Swift.max(1, (count + size - 1) / size)
        return (0..<chunks).map { chunk in (chunk * count / chunks)..<((chunk + 1) * count / chunks) }
    }

    /// Calls `body` with each element under `node`, in order, until it returns false.
    @inlinable
    @discardableResult
    static func forEachItem(under node: RowsNode, _ body: (RowsItem<Element>) throws -> Bool) rethrows -> Bool {
        if node.isLeaf {
            for item in leaf(node).items {
                if try !body(item) { return false }
            }
            return true
        }
        for child in node.children {
            if try !forEachItem(under: child.node, body) { return false }
        }
        return true
    }

    /// Whether the elements under `left` and `right` (of the same count) are equal in order,
    /// without looking into the subtrees they share.
    @inlinable
    static func hasEqualElements(_ left: RowsNode, _ right: RowsNode, by areEqual: (Element, Element) -> Bool) -> Bool {
        if left === right { return true }
        if left.isLeaf && right.isLeaf {
            let leftItems = leaf(left).items
            let rightItems = leaf(right).items
            var index = 0
            while index < leftItems.count {
                if !areEqual(leftItems[index].element, rightItems[index].element) { return false }
                index += 1
            }
            return true
        }
        if !left.isLeaf && !right.isLeaf && left.hasSameShape(as: right) {
            // The usual case: one copy is the other with some elements changed. Compare child
            // by child, skipping the shared ones (a non-generic identity check each).
            var index = 0
            while index < left.children.count {
                let leftChild = left.children[index].node
                let rightChild = right.children[index].node
                if leftChild !== rightChild && !hasEqualElements(leftChild, rightChild, by: areEqual) { return false }
                index += 1
            }
            return true
        }
        var elements = ContiguousArray<Element>()
        elements.reserveCapacity(elementCount(left))
        forEachItem(under: left) {
            elements.append($0.element)
            return true
        }
        var index = 0
        return forEachItem(under: right) { item in
            defer { index += 1 }
            return areEqual(elements[index], item.element)
        }
    }
}
