/// Keys to values with least-recently-used order, every operation O(1).
///
/// A dictionary maps each key to a slot. The slots' keys, values and links live in three
/// parallel arrays; the links form a doubly linked list through indexes (most recent at
/// `head`), and freed slots are reused. No node is allocated per element, and reordering touches
/// only the array of links (plain integers, no reference counting), so the cost of a get or a
/// set stays close to the dictionary's own.
struct LRUStorage<Key: Hashable, Value> {
    private struct Link {
        var previous: Int
        var next: Int
    }

    private static var none: Int { -1 }

    private var indexes: [Key: Int] = [:]
    private var keys: [Key?] = []
    private var values: [Value?] = []
    private var links: [Link] = []
    private var freeSlots: [Int] = []
    private var head = Self.none
    private var tail = Self.none

    var count: Int { indexes.count }

    /// The keys whose `predicate` is true, in no particular order (no walk of the recency list).
    func keys(where predicate: (Key) -> Bool) -> [Key] {
        indexes.keys.filter(predicate)
    }

    /// The result of `body` on the value for `key`, read in place (not copied), marking it most
    /// recently used; nil when there is no value for `key`.
    mutating func withValue<Result>(for key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let index = indexes[key] else { return nil }
        moveToFront(index)
        return body(&values[index]!)
    }

    /// The value for `key`, without changing the order.
    func peek(_ key: Key) -> Value? {
        guard let index = indexes[key] else { return nil }
        return values[index]
    }

    /// Stores `value` for `key` as most recently used; returns the value it replaced.
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> Value? {
        if let index = indexes[key] {
            let old = values[index]
            values[index] = value
            moveToFront(index)
            return old
        }
        let link = Link(previous: Self.none, next: head)
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            keys[index] = key
            values[index] = value
            links[index] = link
        } else {
            index = links.count
            keys.append(key)
            values.append(value)
            links.append(link)
        }
        if head != Self.none { links[head].previous = index }
        head = index
        if tail == Self.none { tail = index }
        indexes[key] = index
        return nil
    }

    /// Updates the value for `key` in place, without changing the order.
    mutating func update(_ key: Key, _ body: (inout Value) -> Void) {
        guard let index = indexes[key], values[index] != nil else { return }
        body(&values[index]!)
    }

    /// Removes `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let index = indexes.removeValue(forKey: key) else { return nil }
        unlink(index)
        let value = values[index]
        keys[index] = nil
        values[index] = nil
        freeSlots.append(index)
        return value
    }

    /// Removes the least recently used element; returns it.
    mutating func removeLeastRecentlyUsed() -> (key: Key, value: Value)? {
        guard tail != Self.none, let key = keys[tail], let value = remove(key) else { return nil }
        return (key, value)
    }

    mutating func removeAll() {
        self = LRUStorage()
    }

    /// Keys from most to least recently used.
    var keysByRecency: [Key] {
        var ordered: [Key] = []
        ordered.reserveCapacity(count)
        var index = head
        while index != Self.none, let key = keys[index] {
            ordered.append(key)
            index = links[index].next
        }
        return ordered
    }

    private mutating func unlink(_ index: Int) {
        let link = links[index]
        if link.previous != Self.none { links[link.previous].next = link.next } else { head = link.next }
        if link.next != Self.none { links[link.next].previous = link.previous } else { tail = link.previous }
    }

    private mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        links[index] = Link(previous: Self.none, next: head)
        if head != Self.none { links[head].previous = index }
        head = index
        if tail == Self.none { tail = index }
    }
}
