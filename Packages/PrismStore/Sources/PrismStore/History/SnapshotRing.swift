/// A fixed-capacity ring buffer: appending to a full ring drops the oldest element in O(1).
///
/// Inlinable, so that a debugger recording on every send specializes it for its state; its
/// storage holds no optionals, so that writing a slot is a plain assignment.
@usableFromInline
struct SnapshotRing<Element> {
    /// The elements, oldest at `head` once the ring is full; in order from 0 until then.
    @usableFromInline
    var storage: [Element] = []
    @usableFromInline
    var head = 0
    @usableFromInline
    let capacity: Int

    @usableFromInline
    init(capacity: Int) {
        self.capacity = capacity
    }

    @inlinable
    var count: Int { storage.count }

    /// The position in `storage` of the element `offset` places after the oldest.
    @inlinable
    func slot(_ offset: Int) -> Int {
        let slot = head + offset
        return slot >= storage.count ? slot - storage.count : slot
    }

    @inlinable
    subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "SnapshotRing index \(offset) out of range 0..<\(count)")
        return storage[slot(offset)]
    }

    /// Replaces the element `offset` places after the oldest.
    mutating func replace(at offset: Int, with element: Element) {
        precondition(offset >= 0 && offset < count, "SnapshotRing index \(offset) out of range 0..<\(count)")
        storage[slot(offset)] = element
    }

    var first: Element? { count == 0 ? nil : self[0] }

    var elements: [Element] { (0..<count).map { self[$0] } }

    @inlinable
    mutating func append(_ element: consuming Element) {
        if storage.count < capacity {
            if storage.isEmpty { storage.reserveCapacity(capacity) }
            storage.append(element)
        } else {
            storage[head] = element
            head = head + 1 == capacity ? 0 : head + 1
        }
    }

    /// Drops the `k` newest elements (rare: recording after going back in history).
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "cannot remove \(k) of \(count) elements")
        guard k > 0 else { return }
        var kept = (0..<(count - k)).map { self[$0] }
        kept.reserveCapacity(capacity)
        storage = kept
        head = 0
    }

    mutating func removeAll() {
        storage = []
        head = 0
    }
}
