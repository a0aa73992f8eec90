// Code Linux does not compile is not in the index: there uses are found by name, every spelling
// of the slips above included.

#if canImport(Darwin)
import Synchronization

func darwinSpellings(_ bytes: [UInt8], _ duration: Duration, _ numbers: [Int]) -> Int {
    let plain = String(validating: bytes, as: UTF8.self)  // slip
    let explicit = String.init(validating: bytes, as: UTF8.self)  // slip
    let implicit: String? = .init(validating: bytes, as: UTF8.self)  // slip
    let attoseconds = duration.attoseconds  // slip
    let name = Task.name  // slip
    // Not caught by name: ArraySlice's and Data's `span` have no availability, and the text does
    // not know `numbers` is an Array (the index does, where Linux compiles the code).
    let span = numbers.span
    let even = numbers.indices(where: { $0.isMultiple(of: 2) })  // slip
    let triple: [3 of Int] = [1, 2, 3]  // slip
    Task.immediate { print("started") }  // slip
    atomicMemoryFence(ordering: .sequentiallyConsistent)  // slip
    let counter = Mutex(0)  // slip
    let strings = [plain, explicit, implicit].count + (name?.count ?? 0)
    return strings + Int(attoseconds) + span.count + even.ranges.count + triple.count + counter.withLock { $0 }
}

func darwinGuarded(_ bytes: [UInt8], _ duration: Duration) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        let counter = Mutex(duration.attoseconds)
        return String(validating: bytes, as: UTF8.self).map { "\($0) \(counter.withLock { $0 })" }
    }
    return nil
}

// A type of Prism's own with a member named like a newer one: a use of it is Prism's.
// (Where a newer name is also Prism's own, a use of it by name is not flagged: `ranges` here is
// RangeSet's, macOS 15.)
struct Window {
    var ranges: [Int]
}

func ownRanges(_ window: Window) -> Int {
    window.ranges.count
}

// Older declarations, and older overloads of a newer name.
func darwinOlder(_ numbers: [Int]) -> Int {
    let first = numbers.firstIndex(where: { $0 > 1 }) ?? 0
    Task { print("started") }
    return first + numbers.count
}
#endif
