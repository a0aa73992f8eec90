/// Keys to values with least-recently-used order, every operation O(1).
///
/// A dictionary maps each key to a slot; slots form a doubly linked list through indexes in
/// one array (most recent at `head`), with freed slots reused. No node is allocated per
/// element, so the cost of a get or a set stays close to the dictionary's own.
struct LRUStorage<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var previous: Int
        var next: Int
    }

    private static var none: Int { -1 }

    private var indexes: [Key: Int] = [:]
    private var slots: [Slot?] = []
    private var freeSlots: [Int] = []
    private var head = Self.none
    private var tail = Self.none

    var count: Int { indexes.count }

    /// The value for `key`, marking it most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let index = indexes[key] else { return nil }
        moveToFront(index)
        return slots[index]!.value
    }

    /// The value for `key`, without changing the order.
    func peek(_ key: Key) -> Value? {
        indexes[key].map { slots[$0]!.value }
    }

    /// Stores `value` for `key` as most recently used; returns the value it replaced.
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> Value? {
        if let index = indexes[key] {
            let old = slots[index]!.value
            slots[index]!.value = value
            moveToFront(index)
            return old
        }
        let slot = Slot(key: key, value: value, previous: Self.none, next: head)
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            slots[index] = slot
        } else {
            index = slots.count
            slots.append(slot)
        }
        if head != Self.none { slots[head]!.previous = index }
        head = index
        if tail == Self.none { tail = index }
        indexes[key] = index
        return nil
    }

    /// Updates the value for `key` in place, without changing the order.
    mutating func update(_ key: Key, _ body: (inout Value) -> Void) {
        guard let index = indexes[key] else { return }
        body(&slots[index]!.value)
    }

    /// Removes `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let index = indexes.removeValue(forKey: key) else { return nil }
        unlink(index)
        let value = slots[index]!.value
        slots[index] = nil
        freeSlots.append(index)
        return value
    }

    /// Removes the least recently used element; returns it.
    mutating func removeLeastRecentlyUsed() -> (key: Key, value: Value)? {
        guard tail != Self.none, let slot = slots[tail] else { return nil }
        remove(slot.key)
        return (slot.key, slot.value)
    }

    mutating func removeAll() {
        self = LRUStorage()
    }

    /// Keys from most to least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var index = head
        while index != Self.none, let slot = slots[index] {
            keys.append(slot.key)
            index = slot.next
        }
        return keys
    }

    private mutating func unlink(_ index: Int) {
        let slot = slots[index]!
        if slot.previous != Self.none { slots[slot.previous]!.next = slot.next } else { head = slot.next }
        if slot.next != Self.none { slots[slot.next]!.previous = slot.previous } else { tail = slot.previous }
    }

    private mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        slots[index]!.previous = Self.none
        slots[index]!.next = head
        if head != Self.none { slots[head]!.previous = index }
        head = index
        if tail == Self.none { tail = index }
    }
}
