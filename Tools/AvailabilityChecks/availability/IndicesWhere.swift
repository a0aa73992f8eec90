// A method whose signature has a `->` (`indices(where:)` returns a RangeSet).

func evenIndices(_ numbers: [Int]) -> Int {
    numbers.indices(where: { $0.isMultiple(of: 2) }).ranges.count  // slip
}

func evenIndicesWithATrailingClosure(_ numbers: [Int]) -> Int {
    numbers.indices { $0.isMultiple(of: 2) }.ranges.count  // slip
}
