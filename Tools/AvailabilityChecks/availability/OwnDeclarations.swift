// Prism's own declarations marked @available are held to what they declare.

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func newerHelper() -> Int { 1 }

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Array {
    var newerCount: Int { count }
}

func usesNewerHelpers(_ numbers: [Int]) -> Int {
    newerHelper() + numbers.newerCount  // slip
}

func usesNewerHelpersWhereAvailable(_ numbers: [Int]) -> Int {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return newerHelper() + numbers.newerCount
    }
    return 0
}
