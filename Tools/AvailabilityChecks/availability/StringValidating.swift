// `String(validating:as:)` needs macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2: caught in
// every spelling, accepted under a condition or a declaration naming all five.

func validatingSpellings(_ bytes: [UInt8]) -> [String?] {
    let plain = String(validating: bytes, as: UTF8.self)  // slip
    let explicit = String.init(validating: bytes, as: UTF8.self)  // slip
    let implicit: String? = .init(validating: bytes, as: UTF8.self)  // slip
    let qualified = Swift.String(validating: bytes, as: UTF8.self)  // slip
    return [plain, explicit, implicit, qualified]
}

func validatingUnderACondition(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return String(decoding: bytes, as: UTF8.self)
}

func validatingAfterAGuard(_ bytes: [UInt8]) -> String? {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
        return String(decoding: bytes, as: UTF8.self)
    }
    return String(validating: bytes, as: UTF8.self)
}

func validatingInTheElseOfUnavailable(_ bytes: [UInt8]) -> String? {
    if #unavailable(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2) {
        return String(decoding: bytes, as: UTF8.self)
    } else {
        return String(validating: bytes, as: UTF8.self)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func validatingInAnAvailableDeclaration(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct ValidatingDecoder {
    var bytes: [UInt8]

    func decoded() -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}
