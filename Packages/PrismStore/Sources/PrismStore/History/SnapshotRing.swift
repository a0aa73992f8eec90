/// A fixed-capacity ring buffer: appending to a full ring drops the oldest element in O(1).
struct SnapshotRing<Element> {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = Array(repeating: nil, count: capacity)
    }

    var capacity: Int { storage.count }

    subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "SnapshotRing index \(offset) out of range 0..<\(count)")
        return storage[(head + offset) % capacity]!
    }

    var first: Element? { count == 0 ? nil : self[0] }

    var elements: [Element] { (0..<count).map { self[$0] } }

    mutating func append(_ element: Element) {
        if count == capacity {
            storage[head] = element
            head = (head + 1) % capacity
        } else {
            storage[(head + count) % capacity] = element
            count += 1
        }
    }

    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "cannot remove \(k) of \(count) elements")
        for offset in (count - k)..<count { storage[(head + offset) % capacity] = nil }
        count -= k
    }

    mutating func removeAll() {
        storage = Array(repeating: nil, count: capacity)
        head = 0
        count = 0
    }
}
