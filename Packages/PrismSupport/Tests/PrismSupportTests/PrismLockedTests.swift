import PrismSupport
import Testing

@Suite("PrismLocked: one lock for every package")
struct PrismLockedTests {
    @Test("eight tasks adding 10,000 times each lose no increment; copies share the value")
    func noLostUpdates() async {
        let counter = PrismLocked(0)
        let copy = counter
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                let lock = index.isMultiple(of: 2) ? counter : copy
                group.addTask {
                    for _ in 0..<10_000 { lock.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.value == 80_000)
        #expect(copy.value == 80_000)
    }

    @Test("a lock of no value serialises what it guards, and returns what its body returns")
    func voidLock() async {
        final class Tally: @unchecked Sendable {
            let lock = PrismLocked<Void>()
            var entries: [Int] = []
        }
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    for step in 0..<2_500 { tally.lock.withLock { tally.entries.append(index * 10_000 + step) } }
                }
            }
        }
        let count = tally.lock.withLock { tally.entries.count }
        #expect(count == 10_000)
        #expect(Set(tally.entries).count == 10_000)
    }

    @Test("an error thrown inside withLock leaves the lock free and the value as the body left it")
    func throwingBody() {
        struct Refused: Error {}
        let value = PrismLocked([1, 2])
        #expect(throws: Refused.self) {
            try value.withLock { numbers in
                numbers.append(3)
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == [1, 2, 3])
    }
}
