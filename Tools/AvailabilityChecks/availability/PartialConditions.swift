// A condition covers only the platforms it names: `*` leaves the others at their minimum, where
// `String(validating:as:)` is not.

func partiallyGuarded(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, *) {
        return String(validating: bytes, as: UTF8.self)  // slip: iOS tvOS watchOS visionOS
    }
    if #available(iOS 18, tvOS 18, *) {
        // A runtime check of iOS says nothing of visionOS.
        return String(validating: bytes, as: UTF8.self)  // slip: macOS watchOS visionOS
    }
    return nil
}

func inTheElseOfACondition(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return nil
    } else {
        return String(validating: bytes, as: UTF8.self)  // slip
    }
}

func beforeTheGuard(_ bytes: [UInt8]) -> String? {
    let early = String(validating: bytes, as: UTF8.self)  // slip
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return early }
    return String(validating: bytes, as: UTF8.self)
}

// An @available declaration's iOS version is visionOS's too (iOS 18 is visionOS 2).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
func declaredForIOS(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}

#if os(Linux) || os(macOS)
// True on macOS: this compiles there.
func linuxOrMac(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // slip: macOS
}
#endif

#if os(macOS)
// Only macOS compiles this (and Linux does not: it is checked by name).
func macOnly(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return String(validating: bytes, as: UTF8.self)  // slip: macOS
}
#endif

#if canImport(Darwin)
func onDarwin(_ duration: Duration) -> Int {
    Int(duration.attoseconds % 1_000)  // slip
}
#else
func elsewhere(_ duration: Duration) -> Int {
    Int(duration.attoseconds % 1_000)
}
#endif

#if os(Linux)
func onLinux(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}
#endif

func chainOfConditions(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    } else if #available(macOS 15, *) {
        return String(validating: bytes, as: UTF8.self)  // slip: iOS tvOS watchOS visionOS
    } else {
        return String(validating: bytes, as: UTF8.self)  // slip
    }
}

enum Holder {
    // An @available declaration without a body ends with its line.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    static let newer = String(validating: [UInt8(65)], as: UTF8.self)
    static let older = String(validating: [UInt8(65)], as: UTF8.self)  // slip
}

func inAClosure(_ items: [[UInt8]]) -> [String?] {
    items.map { bytes in
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
