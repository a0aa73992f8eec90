// Being deprecated or unavailable raises no version: what such a declaration uses is checked.

@available(*, deprecated, message: "Use the other one")
func deprecatedHelper(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // slip
}

@available(*, unavailable)
func unavailableHelper(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // slip
}

@available(iOS, unavailable)
func notOnIOS(_ duration: Duration) -> Int {
    Int(duration.attoseconds % 1_000)  // slip
}

@available(macOS, deprecated: 14, message: "Use the other one")
func deprecatedOnMac(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // slip
}
