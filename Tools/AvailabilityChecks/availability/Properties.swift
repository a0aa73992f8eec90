// Properties are declarations too: a read of a newer one is caught.

func newerProperties(_ duration: Duration, _ numbers: [Int]) -> Int {
    let attoseconds = duration.attoseconds  // slip
    let name = Task.name  // slip
    let span = numbers.span  // slip
    // An Int128 operator (`%`) has older twins: it is not reported here, its operand is, above.
    return Int(attoseconds % 1_000) + (name?.count ?? 0) + span.count
}

func olderProperties(_ duration: Duration, _ numbers: [Int]) -> Int {
    Int(duration.components.seconds) + numbers.count
}
