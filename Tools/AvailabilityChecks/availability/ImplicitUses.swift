// What the compiler picks by itself is not a use: `for await` calls `next(isolation:)` (macOS 15)
// where the platform has it and `next()` elsewhere.

func total(of stream: AsyncStream<Int>) async -> Int {
    var total = 0
    for await value in stream {
        total += value
    }
    return total
}

func explicitNext(of stream: AsyncStream<Int>) async -> Int? {
    var iterator = stream.makeAsyncIterator()
    return await iterator.next(isolation: nil)  // slip
}

// Where a newer declaration has an older twin, a Mac picks the twin (overload resolution ranks
// what the deployment target lacks last): `&*` resolves to FixedWidthInteger's requirement
// (macOS 15) here and to its default implementation there.
func fowlerNollVo(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
}

// The conditions after an `#available` in the same list are refined by it.
func preferredExecutor(_ candidate: (any Sendable)?) -> Bool {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), candidate is (any TaskExecutor) {
        return true
    }
    return false
}
