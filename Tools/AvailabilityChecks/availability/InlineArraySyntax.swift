// `[3 of Int]` is InlineArray (macOS 26 and the others 26), and leaves no reference to it in the
// index: it is caught by its spelling.

func inlineArraySugar() -> Int {
    let triple: [3 of Int] = [1, 2, 3]  // slip
    return triple.count  // slip
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
func inlineArrayWhereAvailable() -> Int {
    let triple: [3 of Int] = [1, 2, 3]
    return triple.count
}
